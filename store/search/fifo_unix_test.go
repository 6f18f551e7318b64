//go:build unix

package search

import (
	"os"
	"syscall"
	"testing"
)

// mkfifo puts a FIFO at path, in place of what was there.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	os.RemoveAll(path)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
}
