//go:build unix

package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	link := filepath.Join(dir, "link-to-fifo")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, "named pipe"},
		{link, "named pipe"},
		{dir, "is a directory"},
		{"/dev/null", "character device"},
	} {
		_, err := Open(tc.path)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%s) = %v, want a NotRegularError saying %q", tc.path, err, tc.want)
		}
		if _, err := ReadFile(tc.path); !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile(%s) = %v, want a NotRegularError", tc.path, err)
		}
	}
}

// A FIFO swapped in after the check is caught through the descriptor, and
// its open does not wait for a writer.
func TestOpenNonBlockingOfAFIFO(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	f, err := openNonBlocking(fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if Check(fifo, fi) == nil {
		t.Fatal("a FIFO passed the check")
	}
}
