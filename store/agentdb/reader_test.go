package agentdb_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"clawvault-tui/model"
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
	// The identities hold no role (only the few messages a reset keeps in
	// the context are read for it): the previews of the rows on screen
	// bring it, from a plain and a compressed event alike.
	if ix.Entries[2].Role != model.RoleNone {
		t.Errorf("the index knows a role it cannot have read: %v", ix.Entries[2].Role)
	}
	previews, err := r.Previews(ctx, ix.Entries[1:3], 40)
	if err != nil || previews[0].Text != "Check the backups." || !strings.HasPrefix(previews[1].Text, "The nightly backup of northwind_billing") {
		t.Errorf("previews %q, %v", previews, err)
	} else if previews[0].Role != model.RoleUser || previews[1].Role != model.RoleAssistant {
		t.Errorf("preview roles %v, %v; want user, assistant", previews[0].Role, previews[1].Role)
	}
	if reset, err := r.Previews(ctx, ix.Entries[6:7], 40); err != nil || reset[0].Role != model.RoleNone || !strings.HasPrefix(reset[0].Text, "reset") {
		t.Errorf("the reset's preview: %q, %v (it is no message: no role)", reset, err)
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
