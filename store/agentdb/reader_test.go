package agentdb_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/transcript"
)

// TestSessionReader: a SQLite session is a transcript.Reader like a file:
// its index (seq as position), previews and bodies by seq (a compressed event
// too), and a search over its events.
func TestSessionReader(t *testing.T) {
	path := store(t)
	var r transcript.Reader = agentdb.NewSession(path, sidMain)
	var progress []int64
	ix, err := r.Index(ctx, transcript.Options{Progress: func(done, total int64) { progress = append(progress, done) }})
	if err != nil {
		t.Fatal(err)
	}
	if ix.Tree.LeafID() != mainLeaf || len(ix.Entries) != 14 || !ix.Validated || len(progress) != 2 || ix.Size <= 0 {
		t.Fatalf("index: leaf %s, %d entries, validated %v, progress %v, size %d", ix.Tree.LeafID(), len(ix.Entries), ix.Validated, progress, ix.Size)
	}
	if v, err := r.Validate(ctx, ix, transcript.Options{}); err != nil || v != ix {
		t.Errorf("validate: %v", err)
	}
	previews, err := r.Previews(ctx, ix.Entries[1:3], 40)
	if err != nil || previews[0] != "Check the backups." || !strings.HasPrefix(previews[1], "The nightly backup of northwind_billing") {
		t.Errorf("previews %q, %v", previews, err)
	}
	b, err := r.Body(ctx, ix.Entries[6])
	if err != nil || b.Type != "reset" || b.Reason != "new" {
		t.Errorf("body of seq 6: %+v, %v", b, err)
	}
	hits, err := r.Search(ctx, ix, "NIGHTLY BACKUP", nil)
	if err != nil || !slices.Equal(hits, []int32{2}) {
		t.Errorf("search: %v, %v (the compressed event is seq 2)", hits, err)
	}
	if _, err := r.Search(ctx, &transcript.Index{Path: "other"}, "x", nil); err == nil {
		t.Error("searching another transcript's index must fail")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := r.Body(cancelled, ix.Entries[1]); err == nil {
		t.Error("a cancelled read must stop")
	}
}
