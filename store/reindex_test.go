package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clawvault-tui/model"
)

// The temp databases a memory reindex left beside a store are found by
// OpenClaw's name rule (a lower-case UUID, the database's sidecars with
// it), sized, and dated by their newest file; a store's own files, a link
// and names of other shapes are not.
func TestReindexState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	store := filepath.Join(dir, "openclaw-agent.sqlite")
	old := time.Now().Add(-72 * time.Hour)
	write := func(name string, size int, at time.Time) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	a := "openclaw-agent.sqlite.memory-reindex-0b7e4a52-3c1d-4f6e-9a80-2d5c7e91f4a3"
	b := "openclaw-agent.sqlite.memory-reindex-5d2f8e61-7a4b-4c39-b0e2-91f6d3a7c845"
	write("openclaw-agent.sqlite", 10, old)
	write("openclaw-agent.sqlite-wal", 10, old)
	write(a, 4000, old)
	write(a+"-wal", 1000, old)
	write(b, 300, time.Now())
	write("openclaw-agent.sqlite.memory-reindex-0B7E4A52-3C1D-4F6E-9A80-2D5C7E91F4A3", 5, old)
	write("openclaw-agent.sqlite.memory-reindex-x", 5, old)
	if err := os.Symlink(filepath.Join(dir, a), filepath.Join(dir, "openclaw-agent.sqlite.memory-reindex-11111111-1111-4111-8111-111111111111")); err != nil {
		t.Fatal(err)
	}
	r := reindexState(context.Background(), OS, store)
	if r == nil || len(r.Shadows) != 2 || r.LockHeld || r.LockErr != "" {
		t.Fatalf("%+v", r)
	}
	if s := r.Shadows[0]; s.Name != a || s.Bytes != 5000 || len(s.Files) != 2 {
		t.Errorf("first: %+v", s)
	}
	orphans := r.Orphans(time.Now())
	if len(orphans) != 1 || orphans[0].Name != a {
		t.Errorf("orphans %+v: want the one three days old alone", orphans)
	}
	d := r.Diagnosis(time.Now())
	if d == nil || d.Code != model.CodeMemoryReindexOrphans || !strings.Contains(d.Message, "2 temp databases of OpenClaw's memory reindex (5.2 KiB)") ||
		!strings.Contains(d.Message, "no OpenClaw process holds the reindex lock openclaw-agent.sqlite.reindex-lock.sqlite") || !strings.Contains(d.Message, "1 database now, frees 4.9 KiB") {
		t.Errorf("%+v", d)
	}
	if reindexState(context.Background(), OS, filepath.Join(t.TempDir(), "openclaw-agent.sqlite")) != nil {
		t.Error("a store with nothing beside it has a reindex state")
	}
}

// While a reindex holds the lock, its temp databases are no diagnosis and
// none is an orphan.
func TestReindexHeldLock(t *testing.T) {
	r := &model.ReindexState{Shadows: []model.ReindexShadow{{Name: "x", Bytes: 1, ModTime: time.Now().Add(-48 * time.Hour)}}, Lock: "l", LockHeld: true}
	if d := r.Diagnosis(time.Now()); d != nil || len(r.Orphans(time.Now())) != 0 {
		t.Errorf("held: %+v, %d orphans", d, len(r.Orphans(time.Now())))
	}
	r.LockHeld, r.LockErr = false, "permission denied"
	if d := r.Diagnosis(time.Now()); d == nil || !strings.Contains(d.Message, "cannot be told (permission denied)") || len(r.Orphans(time.Now())) != 0 {
		t.Errorf("unknown: %+v", d)
	}
}
