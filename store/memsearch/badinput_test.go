package memsearch

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"clawvault-tui/model/recall"
	"clawvault-tui/store/regfile/regfiletest"
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
	sum := fileSums(t, f.agent.SQLitePath)
	regfiletest.Within(t, "a search of a locked store", func() { _, err = f.s.Replay(ctx, f.request("coffee")) })
	if err == nil || !strings.Contains(err.Error(), "locked") {
		t.Errorf("a locked store: %v, want a sentence saying it is locked", err)
	}
	if fileSums(t, f.agent.SQLitePath) != sum {
		t.Error("the search of a locked store changed it")
	}
}

// TestHostileMemoryFiles: a FIFO, links to /dev/zero and to themselves
// and a 4 MB line among the memory files, and a FIFO for MEMORY.md,
// neither hang nor fail the search, its explanations or status.
func TestHostileMemoryFiles(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	mem := filepath.Join(f.agent.Workspace, "memory")
	regfiletest.Plant(t, "fifo", filepath.Join(mem, "2026-11-19.md"))
	regfiletest.Plant(t, "dev-zero", filepath.Join(mem, "zero.md"))
	regfiletest.Plant(t, "loop", filepath.Join(mem, "loop.md"))
	regfiletest.Plant(t, "fifo", filepath.Join(f.agent.Workspace, "MEMORY.md"))
	if err := os.WriteFile(filepath.Join(mem, "huge.md"), []byte(strings.Repeat("x", 4<<20)), 0o600); err != nil {
		t.Fatal(err)
	}
	var (
		rep    *Report
		health *Health
		err    error
	)
	regfiletest.Within(t, "a search among planted memory files", func() {
		rep, err = f.s.Replay(context.Background(), f.request("coffee", "memory/2026-11-19.md", "memory/zero.md", "memory/loop.md", "memory/huge.md", "MEMORY.md"))
		if err == nil {
			health, err = f.s.Status(context.Background(), StatusRequest{Agent: f.agent, ConfigPath: f.config, Getenv: func(string) string { return "" }})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"memory/2026-11-19.md": recall.NotRegular, "memory/zero.md": recall.NotRegular,
		"memory/loop.md": recall.NotRegular, "memory/huge.md": recall.NotIndexed, "MEMORY.md": recall.Returned}
	if len(rep.Explain) != len(want) {
		t.Errorf("explanations %+v", rep.Explain)
	}
	for _, e := range rep.Explain {
		if e.Code != want[e.Path] {
			t.Errorf("%s: %s %q, want %s", e.Path, e.Code, e.Reason, want[e.Path])
		}
	}
	if health.Problem != "" || !slices.Equal(health.Stale.NeverIndexed, []string{"memory/huge.md"}) || !slices.Equal(health.Stale.Gone, []string{"MEMORY.md"}) {
		t.Errorf("status: %q, never indexed %v, gone %v", health.Problem, health.Stale.NeverIndexed, health.Stale.Gone)
	}
}

// An indexed note replaced by a sparse file of gigabytes is not read whole
// to compare it with its hash: it counts as changed since it was indexed.
func TestAHugeIndexedNoteIsNotRead(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	if err := os.Truncate(filepath.Join(f.agent.Workspace, "MEMORY.md"), 4<<30); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rep, err := f.s.Replay(context.Background(), f.request("coffee", "MEMORY.md"))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<30 {
		t.Errorf("allocated %d bytes: the file was read", grew)
	}
	if len(rep.Explain) != 1 || !slices.ContainsFunc(rep.Explain[0].Notes, func(n string) bool { return strings.HasPrefix(n, "changed since") }) {
		t.Errorf("explanations %+v", rep.Explain)
	}
}
