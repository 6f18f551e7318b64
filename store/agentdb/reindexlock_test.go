package agentdb

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"clawvault-tui/store/regfile/regfiletest"
)

// holdReindexLock holds a reindex lock as OpenClaw's reindex does
// (acquireMemorySqliteWriterLease), from another process: the test binary
// run again with CLAWVAULT_TUI_HOLD_REINDEX_LOCK set, which takes the lock,
// says so on its stdout and holds it until its stdin closes.
func holdReindexLock(t *testing.T, path string) (release func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldReindexLock$")
	cmd.Env = append(os.Environ(), "CLAWVAULT_TUI_HOLD_REINDEX_LOCK="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "held\n" {
		t.Fatalf("the helper did not take the lock: %q %v", line, err)
	}
	return func() { stdin.Close(); cmd.Wait() }
}

// TestHelperHoldReindexLock is the helper process of holdReindexLock.
func TestHelperHoldReindexLock(t *testing.T) {
	path := os.Getenv("CLAWVAULT_TUI_HOLD_REINDEX_LOCK")
	if path == "" {
		t.Skip("the helper process of holdReindexLock")
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, stmt := range []string{"PRAGMA busy_timeout = 0", "PRAGMA locking_mode = EXCLUSIVE", "BEGIN IMMEDIATE", "PRAGMA user_version = 0", "COMMIT"} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Println("held")
	var b [1]byte
	os.Stdin.Read(b[:])
	db.Close()
}

// The lock is held while another process holds it as OpenClaw's reindex
// does, and not once it lets go; a missing lock is not held.
func TestReindexLockHeld(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), ReindexLockName("openclaw-agent.sqlite"))
	ctx := context.Background()
	if held, err := ReindexLockHeld(ctx, path); held || err != nil {
		t.Fatalf("no lock file: held %v, %v", held, err)
	}
	release := holdReindexLock(t, path)
	held, err := ReindexLockHeld(ctx, path)
	release()
	if !held || err != nil {
		t.Fatalf("while another process holds it: held %v, %v", held, err)
	}
	if held, err := ReindexLockHeld(ctx, path); held || err != nil {
		t.Fatalf("after it let go: held %v, %v", held, err)
	}
}

// A lock file planted as a FIFO or a symbolic link to one, or a lock whose
// journal is a FIFO, is an error, said at once: SQLite never opens them (an
// open of a FIFO waits for a writer).
func TestReindexLockThatIsNoFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lock := ReindexLockName("openclaw-agent.sqlite")
	fifo := filepath.Join(dir, "fifo", lock)
	regfiletest.FIFO(t, fifo)
	link := filepath.Join(dir, "link", lock)
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	journaled := filepath.Join(dir, "journal", lock)
	regfiletest.FIFO(t, journaled+"-journal")
	if err := os.WriteFile(journaled, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{fifo: "is not a file", link: "is not a file", journaled: "named pipe"} {
		regfiletest.Within(t, path, func() {
			held, err := ReindexLockHeld(context.Background(), path)
			if held || err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: held %v, %v; want an error saying %q", path, held, err, want)
			}
		})
	}
}
