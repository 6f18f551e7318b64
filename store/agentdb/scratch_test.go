package agentdb_test

import (
	"fmt"
	"os"
	"testing"

	"clawvault-tui/store/agentdb"
)

func TestScratchRealStore(t *testing.T) {
	path := os.Getenv("SCRATCH_STORE")
	if path == "" {
		t.Skip()
	}
	db := open(t, path)
	restore := agentdb.ReadRaw(false, 0)
	want, err := db.BulkStats(ctx)
	restore()
	if err != nil {
		t.Fatal(err)
	}
	defer agentdb.ReadRaw(true, 0)()
	got, err := db.BulkStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("differ")
	}
	if os.Getenv("SCRATCH_NOTREE") != "" {
		t.Log(len(got), "sessions")
		return
	}
	for _, id := range sessionIDs(t, path) {
		restore := agentdb.ReadRaw(false, 0)
		w, err := db.Transcript(ctx, id)
		restore()
		if err != nil {
			t.Fatal(err)
		}
		g, err := db.Transcript(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(g.Entries, g.Facts, g.Active, g.ActiveNote, g.FactRows) != fmt.Sprint(w.Entries, w.Facts, w.Active, w.ActiveNote, w.FactRows) {
			t.Errorf("%s differs", id)
		}
	}
	t.Log(len(got), "sessions")
}
