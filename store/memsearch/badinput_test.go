package memsearch

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"clawvault-tui/model/recall"
)

// TestStoreWithoutMemoryIndex: a store OpenClaw has not indexed memory
// into yet says so, for a search and for status, and stays as it was.
func TestStoreWithoutMemoryIndex(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	// The index's sqlite-vec table cannot be dropped without its module:
	// the schema rows go, their pages stay unread.
	f.write(t, `PRAGMA writable_schema = ON; DELETE FROM sqlite_master WHERE tbl_name LIKE 'memory_index%'`)
	sum := fileSums(t, f.agent.SQLitePath)
	rep, err := f.s.Replay(context.Background(), f.request("coffee"))
	if err == nil && (rep.Status == StatusOK || len(rep.Results) > 0) {
		t.Errorf("a store without an index: %s %q, %d results", rep.Status, rep.Reason, len(rep.Results))
	}
	said := ""
	if err != nil {
		said = err.Error()
	} else {
		said = rep.Reason
	}
	if !strings.Contains(said, "has no memory search index") {
		t.Errorf("a store without an index: %q does not say so", said)
	}
	h, err := f.s.Status(context.Background(), StatusRequest{Agent: f.agent, ConfigPath: f.config, Getenv: func(string) string { return "" }})
	if err != nil || !strings.Contains(h.Problem, "has no memory search index") {
		t.Errorf("status of a store without an index: %+v, %v", h, err)
	}
	if fileSums(t, f.agent.SQLitePath) != sum {
		t.Error("reading a store without an index changed it")
	}
}

// TestLockedStoreIsASentence: a writer holding an exclusive lock on a
// rollback-journal store (OpenClaw mid-commit on a store without WAL)
// makes the search give up with a sentence after the busy timeout; it
// never hangs and never writes.
func TestLockedStoreIsASentence(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	w, err := sql.Open("sqlite", "file:"+f.agent.SQLitePath+"?_pragma=journal_mode(DELETE)")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	ctx := context.Background()
	conn, err := w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN EXCLUSIVE`); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, `ROLLBACK`)
	done := make(chan error, 1)
	go func() { _, err := f.s.Replay(ctx, f.request("coffee")); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "locked") {
			t.Errorf("a locked store: %v, want a sentence saying it is locked", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the search waited on the lock past its busy timeout")
	}
}

// TestHostileMemoryFiles: a FIFO, a symbolic link out of the workspace
// and a 4 MB line among the memory files neither hang nor fail the
// search, its explanations or status.
func TestHostileMemoryFiles(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	mem := filepath.Join(f.agent.Workspace, "memory")
	if err := syscall.Mkfifo(filepath.Join(mem, "2026-11-19.md"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(mem, "passwd.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mem, "huge.md"), []byte(strings.Repeat("x", 4<<20)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(f.agent.Workspace, "MEMORY.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(f.agent.Workspace, "MEMORY.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		rep    *Report
		health *Health
		err    error
	}
	done := make(chan answer, 1)
	go func() {
		var a answer
		a.rep, a.err = f.s.Replay(context.Background(), f.request("coffee", "memory/2026-11-19.md", "memory/passwd.md", "memory/huge.md", "MEMORY.md"))
		if a.err == nil {
			a.health, a.err = f.s.Status(context.Background(), StatusRequest{Agent: f.agent, ConfigPath: f.config, Getenv: func(string) string { return "" }})
		}
		done <- a
	}()
	var a answer
	select {
	case a = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("a FIFO among the memory files hung the search")
	}
	if a.err != nil {
		t.Fatal(a.err)
	}
	if len(a.rep.Explain) != 4 {
		t.Errorf("explanations %+v", a.rep.Explain)
	}
	want := map[string]string{"memory/2026-11-19.md": recall.NotRegular, "memory/passwd.md": recall.NotRegular,
		"memory/huge.md": recall.NotIndexed, "MEMORY.md": recall.Returned}
	for _, e := range a.rep.Explain {
		if e.Code != want[e.Path] || strings.Contains(e.Reason, "root:") {
			t.Errorf("%s: %s %q, want %s", e.Path, e.Code, e.Reason, want[e.Path])
		}
	}
	if h := a.health; h.Problem != "" || !slices.Equal(h.Stale.NeverIndexed, []string{"memory/huge.md"}) || !slices.Equal(h.Stale.Gone, []string{"MEMORY.md"}) {
		t.Errorf("status: %q, never indexed %v, gone %v", h.Problem, h.Stale.NeverIndexed, h.Stale.Gone)
	}
}
