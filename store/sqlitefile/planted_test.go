package sqlitefile

import (
	"errors"
	"path/filepath"
	"testing"

	"clawvault-tui/store/regfile"
	"clawvault-tui/store/regfile/regfiletest"
)

// A FIFO in the database's place or its log's is refused at once: the
// reader opens both itself.
func TestOpenRefusesPlantedFiles(t *testing.T) {
	t.Parallel()
	for _, suffix := range []string{"", "-wal"} {
		t.Run("db"+suffix, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "db.sqlite")
			db := openDB(t, path, "CREATE TABLE t (x)", "INSERT INTO t VALUES (1)")
			db.Close()
			regfiletest.FIFO(t, path+suffix)
			var err error
			regfiletest.Within(t, "opening the database file", func() {
				var f *File
				if f, err = Open(path); err == nil {
					f.Close()
				}
			})
			if !errors.Is(err, regfile.ErrNotRegular) {
				t.Errorf("a FIFO at db%s: %v, want a not-a-regular-file error", suffix, err)
			}
		})
	}
}
