//go:build unix

package regfiletest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// FIFO makes a named pipe at path (its folder created), and skips the test
// where the system has none. At cleanup it opens the pipe for writing, so a
// reader a failed test left blocked on it returns.
func FIFO(t testing.TB, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(path)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	t.Cleanup(func() { release(path) })
}

// release opens path for writing without blocking, which wakes a reader
// blocked in its open; with none waiting the open fails (ENXIO) at once.
func release(path string) {
	for range 8 {
		fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return
		}
		syscall.Close(fd)
	}
}
