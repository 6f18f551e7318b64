package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"clawvault-tui/store/regfile"
	"clawvault-tui/store/regfile/regfiletest"
)

// appendMerge merges by keeping ours and adding what theirs appended to
// base; anything else clashes. Enough for these tests; the editor's merge
// is model.Merge3.
func appendMerge(base, ours, theirs []byte) ([]byte, bool) {
	if !bytes.HasPrefix(theirs, base) {
		return nil, false
	}
	return append(bytes.Clone(ours), theirs[len(base):]...), true
}

// noExchange is the real file system where names cannot be exchanged:
// Replace links and renames instead.
type noExchange struct{ osWriter }

func (noExchange) Exchange(string, string) error { return ErrNoExchange }

// writers are the two ways Replace swaps: by exchange, and by link and
// rename where there is none.
var writers = []struct {
	name string
	w    WriteFS
}{{"exchange", OSWriter}, {"link and rename", noExchange{}}}

func replaceFile(t *testing.T, text string, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "MEMORY.md")
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	return path
}

// leftovers lists what Replace left beside the file.
func leftovers(t *testing.T, path string) []string {
	t.Helper()
	des, _ := os.ReadDir(filepath.Dir(path))
	var out []string
	for _, de := range des {
		if de.Name() != filepath.Base(path) {
			out = append(out, de.Name())
		}
	}
	return out
}

func TestReplaceUnchangedFile(t *testing.T) {
	t.Parallel()
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			path := replaceFile(t, "a\n", 0o600)
			res, err := Replace(w.w, Replacement{Path: path, Existed: true, Read: []byte("a\n"), Want: []byte("a\nb\n"), Merge: appendMerge})
			if err != nil || res.Merged || res.Clash || string(res.Final) != "a\nb\n" {
				t.Fatalf("%+v, %v", res, err)
			}
			if fi, _ := os.Stat(path); readString(t, path) != "a\nb\n" || fi.Mode().Perm() != 0o600 {
				t.Errorf("on disk %q, mode %v; want the new text, mode 0600 kept", readString(t, path), fi.Mode().Perm())
			}
			if l := leftovers(t, path); len(l) > 0 {
				t.Errorf("left %v", l)
			}
		})
	}
}

// A version renamed in after the file was read is merged, not lost.
func TestReplaceMergesAVersionRenamedInMeanwhile(t *testing.T) {
	t.Parallel()
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			path := replaceFile(t, "a\n", 0o644)
			theirs := filepath.Join(filepath.Dir(path), "theirs")
			os.WriteFile(theirs, []byte("a\nz\n"), 0o644)
			os.Rename(theirs, path)
			res, err := Replace(w.w, Replacement{Path: path, Existed: true, Read: []byte("a\n"), Want: []byte("a\nb\n"), Merge: appendMerge})
			if err != nil || !res.Merged {
				t.Fatalf("%+v, %v", res, err)
			}
			if got := readString(t, path); got != "a\nb\nz\n" || string(res.Final) != got {
				t.Errorf("on disk %q, final %q; want both changes", got, res.Final)
			}
			if l := leftovers(t, path); len(l) > 0 {
				t.Errorf("left %v", l)
			}
		})
	}
}

// Bytes appended through a descriptor opened before the replace began,
// whenever they are written, are in the file after it: a version is not
// final while a descriptor is open for writing on it.
func TestReplaceCatchesAppendsThroughAnOpenDescriptor(t *testing.T) {
	t.Parallel()
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			path := replaceFile(t, "a\n", 0o644)
			agent, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			type result struct {
				res Replaced
				err error
			}
			done := make(chan result, 1)
			go func() {
				res, err := Replace(w.w, Replacement{Path: path, Existed: true, Read: []byte("a\n"), Want: []byte("a\nb\n"), Merge: appendMerge, SettleWait: time.Minute})
				done <- result{res, err}
			}()
			agent.WriteString("late\n")
			agent.Close()
			var r result
			regfiletest.Within(t, "the replace", func() { r = <-done })
			if r.err != nil || readString(t, path) != "a\nb\nlate\n" {
				t.Errorf("%+v, %v; on disk %q, want the late line merged", r.res, r.err, readString(t, path))
			}
			if l := leftovers(t, path); len(l) > 0 {
				t.Errorf("left %v", l)
			}
		})
	}
}

// A writer that keeps the file open past the settle wait gets its file
// back in place, the same file it goes on writing to; ours does not stay.
func TestReplacePutsBackAFileHeldOpen(t *testing.T) {
	t.Parallel()
	path := replaceFile(t, "a\n", 0o644)
	agent, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	agent.WriteString("b\n")
	res, err := Replace(OSWriter, Replacement{Path: path, Existed: true, Read: []byte("a\n"), Want: []byte("a\nmine\n"), Merge: appendMerge, SettleWait: 50 * time.Millisecond})
	if err != nil || !res.HeldOpen || res.Merged {
		t.Fatalf("%+v, %v; want HeldOpen", res, err)
	}
	agent.WriteString("c\n")
	if got := readString(t, path); got != "a\nb\nc\n" {
		t.Errorf("on disk %q; want the writer's file, still written to", got)
	}
	if l := leftovers(t, path); len(l) > 0 {
		t.Errorf("left %v", l)
	}
}

// Changes that clash leave theirs in place, the very file.
func TestReplaceLeavesAClashingVersion(t *testing.T) {
	t.Parallel()
	path := replaceFile(t, "a\n", 0o644)
	os.WriteFile(path+".new", []byte("rewritten\n"), 0o644)
	os.Rename(path+".new", path)
	before, _ := os.Stat(path)
	res, err := Replace(OSWriter, Replacement{Path: path, Existed: true, Read: []byte("a\n"), Want: []byte("a\nb\n"), Merge: appendMerge})
	after, _ := os.Stat(path)
	if err != nil || !res.Clash || string(res.Final) != "rewritten\n" || readString(t, path) != "rewritten\n" || !os.SameFile(before, after) {
		t.Errorf("%+v, %v; on disk %q; want theirs left, the same file", res, err, readString(t, path))
	}
}

// A file made meanwhile where there was none is merged with, never
// replaced blindly; one removed meanwhile is not made again.
func TestReplaceNewAndRemovedFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "MEMORY.md")
	res, err := Replace(OSWriter, Replacement{Path: path, Want: []byte("mine\n"), Perm: 0o640, Merge: appendMerge})
	if fi, _ := os.Stat(path); err != nil || readString(t, path) != "mine\n" || fi.Mode().Perm() != 0o640 {
		t.Fatalf("a new file: %+v, %v", res, err)
	}
	clash := func(_, _, _ []byte) ([]byte, bool) { return nil, false }
	res, err = Replace(OSWriter, Replacement{Path: path, Want: []byte("other\n"), Merge: clash})
	if err != nil || !res.Clash || readString(t, path) != "mine\n" {
		t.Errorf("made meanwhile, clashing: %+v, %v, on disk %q", res, err, readString(t, path))
	}
	res, err = Replace(OSWriter, Replacement{Path: path, Want: []byte("other\n"), Merge: appendMerge})
	if err != nil || !res.Merged || readString(t, path) != "other\nmine\n" {
		t.Errorf("made meanwhile, merged: %+v, %v, on disk %q", res, err, readString(t, path))
	}
	os.Remove(path)
	res, err = Replace(OSWriter, Replacement{Path: path, Existed: true, Read: []byte("mine\n"), Want: []byte("mine\nmore\n"), Merge: appendMerge})
	if _, statErr := os.Stat(path); err != nil || !res.Gone || !errors.Is(statErr, os.ErrNotExist) {
		t.Errorf("removed meanwhile: %+v, %v, %v", res, err, statErr)
	}
	if l := leftovers(t, path); len(l) > 0 {
		t.Errorf("left %v", l)
	}
}

// A FIFO, a link or a folder swapped in for the file is never read, and
// is put back.
func TestReplaceRefusesWhatIsNotAFile(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"fifo", "dev-zero", "dir"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			path := replaceFile(t, "a\n", 0o644)
			regfiletest.Plant(t, kind, path)
			var err error
			regfiletest.Within(t, "the replace", func() {
				_, err = Replace(OSWriter, Replacement{Path: path, Existed: true, Read: []byte("a\n"), Want: []byte("a\nb\n"), Merge: appendMerge})
			})
			if !errors.Is(err, regfile.ErrNotRegular) && !errors.Is(err, syscall.EISDIR) {
				t.Errorf("err = %v, want a not-a-regular-file error", err)
			}
			fi, _ := os.Lstat(path)
			if fi.Mode().IsRegular() {
				t.Errorf("the %s was replaced", kind)
			}
			if l := leftovers(t, path); len(l) > 0 {
				t.Errorf("left %v", l)
			}
		})
	}
}

// On a file system that can exchange names, Replace does (the tests
// above would pass with link and rename alone).
func TestReplaceExchangesWhereItCan(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("a"), 0o644)
	os.WriteFile(b, []byte("b"), 0o644)
	err := exchange(a, b)
	if errors.Is(err, ErrNoExchange) || errors.Is(err, syscall.ENOSYS) {
		t.Skip("no exchange on this file system:", err)
	}
	if err != nil || readString(t, a) != "b" || readString(t, b) != "a" {
		t.Fatalf("exchange: %v", err)
	}
}
