package observer

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
)

// Beside agent ops's store: its transcript left in sessions/ with every
// entry in the store, and another that misses one; two temp databases of
// the memory reindex, one three days old and one just written. The plan
// archives the verified transcript and the old temp database, and only
// them; the apply moves them into its dated folder, the undo puts them
// back. While a reindex holds the lock, no temp database is planned.
func TestRetentionBesideTheStore(t *testing.T) {
	f := newFixture(t)
	lines := opsLines(20)
	f.sqliteAgent(lines)
	sessions := filepath.Join(f.state, "agents", "ops", "sessions")
	verified := filepath.Join(sessions, sqliteSID+".jsonl")
	f.write(verified, string(bytes.Join(lines, []byte("\n")))+"\n")
	incomplete := filepath.Join(sessions, "6e6e6e6e-1111-4111-8111-111111111111.jsonl")
	f.write(incomplete, `{"type":"session","version":3,"id":"6e6e6e6e-1111-4111-8111-111111111111","timestamp":"t","cwd":"/"}`+"\n")
	storeDir := filepath.Dir(f.storePath())
	old := filepath.Join(storeDir, agentdb.FileName+".memory-reindex-0b7e4a52-3c1d-4f6e-9a80-2d5c7e91f4a3")
	young := filepath.Join(storeDir, agentdb.FileName+".memory-reindex-5d2f8e61-7a4b-4c39-b0e2-91f6d3a7c845")
	f.write(old, strings.Repeat("x", 5000))
	f.write(old+"-wal", strings.Repeat("y", 700))
	f.write(young, "z")
	then := time.Now().Add(-72 * time.Hour)
	for _, p := range []string{old, old + "-wal"} {
		if err := os.Chtimes(p, then, then); err != nil {
			t.Fatal(err)
		}
	}
	ws := f.workspace()
	plan, err := PlanRetention(context.Background(), RetentionOptions{Workspace: ws, SkipMaintenance: true, SkipTranscripts: true, SkipLedger: true})
	if err != nil {
		t.Fatal(err)
	}
	var planned []string
	for _, file := range plan.SQLite.Files {
		planned = append(planned, file.Step+" "+filepath.Base(file.Path))
	}
	slices.Sort(planned)
	want := []string{"import-verified " + filepath.Base(verified), "reindex-orphan " + filepath.Base(old), "reindex-orphan " + filepath.Base(old) + "-wal"}
	if !slices.Equal(planned, want) || plan.SQLite.Bytes() != int64(5700+len(lines)+int(sqliteBytes(lines))-len(lines)) {
		t.Fatalf("planned %v (%d bytes), want %v", planned, plan.SQLite.Bytes(), want)
	}

	archive := filepath.Join(t.TempDir(), "archive")
	man, path, err := ApplyRetention(context.Background(), plan, ApplyOptions{ArchiveRoot: archive, Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{verified, old, old + "-wal"} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there after the apply", p)
		}
	}
	for _, p := range []string{incomplete, young, f.storePath()} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was moved: %v", p, err)
		}
	}
	if len(man.Moves) != 3 || man.Moves[0].Plan != "sqlite" {
		t.Fatalf("manifest moves %+v", man.Moves)
	}
	if _, err := UndoRetention(context.Background(), path, ApplyOptions{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{verified, old, old + "-wal"} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s did not come back: %v", p, err)
		}
	}

	// A reindex holds the lock (as OpenClaw's does, on a connection of
	// this process): no temp database is an orphan.
	lock, err := sql.Open("sqlite", "file:"+agentdb.ReindexLockName(f.storePath()))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	lock.SetMaxOpenConns(1)
	for _, stmt := range []string{"PRAGMA locking_mode = EXCLUSIVE", "BEGIN IMMEDIATE", "PRAGMA user_version = 0", "COMMIT"} {
		if _, err := lock.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	plan, err = PlanRetention(context.Background(), RetentionOptions{Workspace: ws, SkipMaintenance: true, SkipTranscripts: true, SkipLedger: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range plan.SQLite.Files {
		if file.Step == model.StepReindexOrphan {
			t.Errorf("planned %s while a reindex holds the lock", file.Path)
		}
	}
}
