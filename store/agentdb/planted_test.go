package agentdb_test

import (
	"strings"
	"testing"

	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/regfile/regfiletest"
)

// SQLite opens the store's write-ahead log and shared-memory file itself:
// a FIFO planted there would hang its open. Open refuses it first, in one
// sentence; a FIFO in the store's own place likewise.
func TestOpenRefusesPlantedCompanions(t *testing.T) {
	t.Parallel()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		t.Run("store"+suffix, func(t *testing.T) {
			t.Parallel()
			path := store(t)
			regfiletest.FIFO(t, path+suffix)
			var err error
			regfiletest.Within(t, "opening the store", func() {
				var db *agentdb.DB
				if db, err = agentdb.Open(ctx, path); err == nil {
					_, _, err = db.Sessions(ctx)
					db.Close()
				}
			})
			if err == nil || !strings.Contains(err.Error(), agentdb.FileName) || strings.Contains(err.Error(), "\n") {
				t.Errorf("a FIFO at the store%s: %v, want one sentence naming the store", suffix, err)
			}
		})
	}
}
