package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"clawvault-tui/store/lockfile"
)

// A zombie (a writer that exited, its parent not having reaped it yet) is
// a dead writer: its temp files go, and a live writer's stay. Before, the
// zombie answered signal 0 and its temp files stayed until it was reaped.
func TestRemoveStaleTempsOfAZombie(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("zombies are told apart on Linux and macOS only")
	}
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command(exe, "-test.run=^$")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Wait() // reaped only at the end
	pid := child.Process.Pid
	for deadline := time.Now().Add(30 * time.Second); lockfile.ProcessAlive(pid); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d, which has exited and not been reaped, still counts as alive", pid)
		}
	}
	dir := t.TempDir()
	zombies := filepath.Join(dir, TempName("notes.md", pid, "1"))
	ours := filepath.Join(dir, TempName("notes.md", os.Getpid(), "2"))
	for _, p := range []string{zombies, ours} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := RemoveStaleTemps(OSWriter, dir)
	if err != nil || len(removed) != 1 || removed[0] != zombies {
		t.Errorf("removed %v (%v), want the zombie's only", removed, err)
	}
	if _, err := os.Stat(ours); err != nil {
		t.Errorf("a live writer's temp file went: %v", err)
	}
}
