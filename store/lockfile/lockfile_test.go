package lockfile

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestLockExcludesUntilReleased(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.lock")
	release, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	// The lock belongs to an open file: a second one conflicts even in
	// this process.
	if _, err := TryLock(path); !errors.Is(err, ErrBusy) {
		t.Fatalf("while held: %v, want ErrBusy", err)
	}
	release()
	held, err := TryLock(path)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	if err := held.Remove(); err != nil {
		t.Fatal(err)
	}
}

// A held lock file's content names its holder, readable by others while
// the lock is held; Remove frees the path for the next holder.
func TestTryLockWriteRemove(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sweep.lock")
	if err := os.WriteFile(path, []byte(`{"pid":1,"left":"by a crash, no lock"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	held, err := TryLock(path)
	if err != nil {
		t.Fatalf("a file no one locks is taken over: %v", err)
	}
	if err := held.Write([]byte(`{"pid":42}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != `{"pid":42}`+"\n" {
		t.Errorf("others read %q, %v while the lock is held", data, err)
	}
	if _, err := TryLock(path); !errors.Is(err, ErrBusy) {
		t.Errorf("a second claim: %v, want ErrBusy", err)
	}
	if err := held.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file stays after Remove: %v", err)
	}
	again, err := TryLock(path)
	if err != nil {
		t.Fatalf("after Remove: %v", err)
	}
	again.Remove()
}

func TestTryLockFolderMissing(t *testing.T) {
	_, err := TryLock(filepath.Join(t.TempDir(), "no such folder", "x.lock"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want not-exist", err)
	}
}

func TestProcessAlive(t *testing.T) {
	// A process that ran and was waited for is gone (its pid is not
	// reused this soon).
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command(exe, "-test.run=^$")
	if err := child.Run(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		pid  int
		want bool
	}{
		{"this process", os.Getpid(), true},
		{"a process that ended", child.Process.Pid, false},
	}
	for _, tt := range tests {
		if got := ProcessAlive(tt.pid); got != tt.want {
			t.Errorf("%s (pid %d): alive = %v, want %v", tt.name, tt.pid, got, tt.want)
		}
	}
}
