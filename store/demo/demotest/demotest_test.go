package demotest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clawvault-tui/store/demo"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

var small = Spec{Options: demo.Options{Seed: 3, Now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC),
	MainBytes: 512 << 10, HeartbeatBytes: 256 << 10, VaultBytes: 50_000}}

// fileInfo is what a test can tell of a file: its size, mode and mtime.
type fileInfo struct {
	size  int64
	mode  fs.FileMode
	mtime time.Time
}

func files(t *testing.T, root string) map[string]fileInfo {
	t.Helper()
	out := map[string]fileInfo{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		size := fi.Size()
		if d.IsDir() {
			size = 0
		}
		out[rel] = fileInfo{size, fi.Mode(), fi.ModTime()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A copy has every file, folder, size, mode and mtime of the original at
// a path of the same length, and nothing in it names the original.
func TestCopyIsTheOriginalElsewhere(t *testing.T) {
	t.Parallel()
	orig := Shared(t, small)
	if again := Shared(t, small); again.StateDir != orig.StateDir {
		t.Fatalf("a second Shared generated again: %s, %s", orig.StateDir, again.StateDir)
	}
	cp := Copy(t, small)
	origRoot, cpRoot := filepath.Dir(orig.StateDir), filepath.Dir(cp.StateDir)
	if origRoot == cpRoot || len(origRoot) != len(cpRoot) || len(origRoot) != DefaultPathLength {
		t.Fatalf("original %s, copy %s", origRoot, cpRoot)
	}
	want, got := files(t, origRoot), files(t, cpRoot)
	if len(want) < 100 || len(got) != len(want) {
		t.Fatalf("%d files in the original, %d in the copy", len(want), len(got))
	}
	for rel, w := range want {
		if g, ok := got[rel]; !ok || g.size != w.size || g.mode != w.mode || !g.mtime.Equal(w.mtime) {
			t.Errorf("%s: copy %+v, original %+v", rel, g, w)
		}
	}
	named := 0
	filepath.WalkDir(cpRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(path)
		if bytes.Contains(data, []byte(origRoot)) {
			t.Errorf("%s names the original", path)
		}
		if bytes.Contains(data, []byte(cpRoot)) {
			named++
		}
		return nil
	})
	if named == 0 {
		t.Error("no file of the copy names its own folder: the demo's absolute paths were not rewritten")
	}
	if cp.MainNeverObserved.File != strings.Replace(orig.MainNeverObserved.File, origRoot, cpRoot, 1) ||
		cp.Sessions != orig.Sessions || len(cp.StaleRows) != len(orig.StaleRows) {
		t.Errorf("the copy's manifest: %+v", cp.MainNeverObserved)
	}
	// Changing the copy leaves the original alone.
	os.WriteFile(cp.MainNeverObserved.File, []byte("gone"), 0o644)
	if fi, err := os.Stat(orig.MainNeverObserved.File); err != nil || fi.Size() != want[mustRel(t, origRoot, orig.MainNeverObserved.File)].size {
		t.Errorf("the original changed with the copy: %v", err)
	}
}

func mustRel(t *testing.T, root, path string) string {
	t.Helper()
	rel, err := filepath.Rel(root, path)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// A test whose temp folder is too long for the workspace's path gets its
// copy in a shorter one.
func TestCopyForALongTestName(t *testing.T) {
	t.Parallel()
	spec := small
	spec.PathLength = 60
	t.Run(strings.Repeat("long", 20), func(t *testing.T) {
		cp := Copy(t, spec)
		if root := filepath.Dir(cp.StateDir); len(root) != 60 || strings.Contains(root, "longlong") {
			t.Errorf("copy at %s", root)
		}
		if _, err := os.Stat(cp.VaultDir); err != nil {
			t.Error(err)
		}
	})
}
