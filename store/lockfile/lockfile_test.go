package lockfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// tryLock asks for the lock without waiting, on a file of its own (flock
// locks belong to an open file, so this conflicts even in one process).
func tryLock(t *testing.T, path string) error {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

func TestLockExcludesUntilReleased(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.lock")
	release, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := tryLock(t, path); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Fatalf("while held: %v, want EWOULDBLOCK", err)
	}
	release()
	if err := tryLock(t, path); err != nil {
		t.Fatalf("after release: %v", err)
	}
}
