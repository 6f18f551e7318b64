package transcript

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"clawvault-tui/store/fileid"
)

// A transcript rotated under the path (a new file renamed over it) that
// starts with the same bytes and is longer is another file: where the
// system gives inodes it is rebuilt, not extended from the old index.
func TestCacheRebuildsARotatedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	writeFile(t, path, header+"\n"+line("a", "")+"\n")
	c := NewCache()
	ctx := context.Background()
	if _, err := c.Open(ctx, path, Options{}); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}

	next := filepath.Join(dir, "s.jsonl.next")
	writeFile(t, next, header+"\n"+line("a", "")+"\n"+line("b", "a")+"\n")
	if err := os.Rename(next, path); err != nil {
		t.Fatal(err)
	}
	ix, err := c.Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ix.Tree.Nodes != 2 {
		t.Errorf("the rotated file has %d nodes, want 2", ix.Tree.Nodes)
	}
	if fileid.Of(before).Inode == 0 {
		t.Skip("no inodes on this system: a rotation with the same prefix is extended")
	}
	if c.Stats.Builds != 2 || c.Stats.Extends != 0 {
		t.Errorf("a rotated file is rebuilt: %+v", c.Stats)
	}
}
