//go:build unix

package serve

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests that plant a FIFO (Unix's) where a file should be.

func TestAuditLogIsMadePrivateAndRefusesAFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "state", "audit.log")
	l, err := OpenAuditLog(path)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the audit log: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := OpenAuditLog(fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("a FIFO as the audit log: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("opening a FIFO as the audit log blocked")
	}
}

func TestReadKeysFileRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	line := authorizedLine(newSigner(t), "", "a")
	groupWritable := filepath.Join(dir, "group")
	os.WriteFile(groupWritable, []byte(line), 0o600)
	os.Chmod(groupWritable, 0o620)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge")
	os.WriteFile(huge, []byte(strings.Repeat("#"+strings.Repeat("x", 1000)+"\n", 1100)), 0o600)
	for path, want := range map[string]string{
		groupWritable:                   "may be written by others (mode 0620)",
		fifo:                            "not a regular file",
		huge:                            "more than the 1048576 it may hold",
		filepath.Join(dir, "not-there"): "no such file",
	} {
		if _, err := ReadKeysFile(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", filepath.Base(path), err, want)
		}
	}
}
