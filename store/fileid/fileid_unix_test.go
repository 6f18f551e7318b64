//go:build unix

package fileid

import (
	"os"
	"path/filepath"
	"testing"
)

// On Unix the device and inode are always known, and a hard link is the
// same file under two names.
func TestOfUnixKnowsTheInode(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	fa, _ := os.Stat(a)
	fb, _ := os.Stat(b)
	ia, ib := Of(fa), Of(fb)
	if ia.Inode == 0 || ia.Dev == 0 {
		t.Fatalf("no device or inode: %+v", ia)
	}
	if !ia.Same(ib) {
		t.Errorf("two names of one file differ: %+v and %+v", ia, ib)
	}
}
