// Package demotest gives tests a demo workspace without generating one per
// test: each workspace is generated once per test binary, into a temp folder
// that Main removes when the tests end, and copied for each test that may
// change it.
//
// Transcript headers, sessions.json and the manifest hold absolute paths, so
// a copy lives in a folder whose path has the same length as the original's
// and every occurrence of the original's path is rewritten: sizes, byte
// offsets and cursors stay exactly as the generator wrote them, and nothing
// in a copy points into the original.
package demotest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"clawvault-tui/store/demo"
)

// Spec names a demo workspace: what the generator is given, and the length
// of the workspace's folder (file sizes depend on it; see the package doc).
type Spec struct {
	demo.Options
	// PathLength is the length in bytes of the folder holding state/ and
	// vault/; 0 means DefaultPathLength.
	PathLength int
}

// DefaultPathLength leaves room for a copy in the t.TempDir() of a test
// with a long name.
const DefaultPathLength = 100

var (
	mu      sync.Mutex
	running bool
	base    string // the process's folder of generated workspaces
	made    = map[string]*workspace{}
)

type workspace struct {
	once sync.Once
	root string
	man  *demo.Manifest
	err  error
}

// Main runs the tests, then removes the workspaces they generated. Call it
// from TestMain: os.Exit(demotest.Main(m)).
func Main(m *testing.M) int {
	mu.Lock()
	running = true
	mu.Unlock()
	code := m.Run()
	mu.Lock()
	defer mu.Unlock()
	if base != "" {
		if err := os.RemoveAll(base); err != nil {
			fmt.Fprintf(os.Stderr, "demotest: %v\n", err)
		}
	}
	return code
}

// Shared is the workspace spec names, generated on its first use in the
// test binary. Tests must not change it: Copy gives one that may be.
func Shared(t testing.TB, spec Spec) *demo.Manifest {
	t.Helper()
	return generated(t, spec).man
}

// Copy is a private copy of the workspace spec names, in a folder that goes
// when the test ends.
func Copy(t testing.TB, spec Spec) *demo.Manifest {
	t.Helper()
	w := generated(t, spec)
	parent := t.TempDir()
	if len(parent)+2 > len(w.root) || !plain(parent) {
		// A test's name can make its temp folder too long, or odd.
		var err error
		if parent, err = os.MkdirTemp("", "demotest-"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(parent) })
		if len(parent)+2 > len(w.root) {
			t.Fatalf("demotest: the temp folder %s is too long for a workspace at a path of %d bytes", parent, len(w.root))
		}
	}
	root := filepath.Join(parent, strings.Repeat("d", len(w.root)-len(parent)-1))
	if err := copyTree(w.root, root); err != nil {
		t.Fatalf("demotest: copy the demo workspace: %v", err)
	}
	m, err := relocate(w.man, w.root, root)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// generated returns spec's workspace, generating it if it is the first use.
func generated(t testing.TB, spec Spec) *workspace {
	t.Helper()
	if spec.PathLength == 0 {
		spec.PathLength = DefaultPathLength
	}
	spec.Now = spec.Now.Round(0) // no monotonic reading in the key
	key := fmt.Sprintf("%+v", spec)
	mu.Lock()
	if !running {
		mu.Unlock()
		t.Fatal("demotest: call demotest.Main from the package's TestMain, which removes the generated workspaces")
	}
	if base == "" {
		var err error
		if base, err = os.MkdirTemp("", "demotest-"); err != nil {
			mu.Unlock()
			t.Fatal(err)
		}
	}
	w := made[key]
	if w == nil {
		w = &workspace{}
		made[key] = w
		dir := filepath.Join(base, strconv.Itoa(len(made)))
		w.root = filepath.Join(dir, strings.Repeat("d", max(0, spec.PathLength-len(dir)-1)))
	}
	mu.Unlock()
	w.once.Do(func() {
		if len(w.root) != spec.PathLength {
			w.err = fmt.Errorf("the temp folder %s is too long for a workspace at a path of %d bytes", base, spec.PathLength)
			return
		}
		start := time.Now()
		w.man, w.err = demo.Generate(context.Background(), w.root, spec.Options)
		t.Logf("demotest: generated the demo workspace %s in %s", w.root, time.Since(start).Round(time.Millisecond))
	})
	if w.err != nil {
		t.Fatalf("demotest: %v", w.err)
	}
	return w
}

// plain says whether a path is written the same in every file format the
// demo writes (JSON escapes quotes and backslashes; JSONL lines end at a
// newline).
func plain(path string) bool {
	for _, r := range path {
		if r < ' ' || r > '~' || r == '"' || r == '\\' {
			return false
		}
	}
	return true
}

// copyTree copies from to to (which must not exist and must be as long),
// files with their mode and mtime, folders with their mode and mtime,
// symlinks as links, with every occurrence of from in a file or a link
// rewritten to to.
func copyTree(from, to string) error {
	old, repl := []byte(from), []byte(to)
	if len(old) != len(repl) {
		return fmt.Errorf("%s and %s differ in length", from, to)
	}
	var buf []byte // one buffer for every file: the copy rewrites in place
	type dirTime struct {
		path string
		fi   fs.FileInfo
	}
	var dirs []dirTime
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			dirs = append(dirs, dirTime{dst, fi})
			return os.MkdirAll(dst, fi.Mode().Perm()|0o700)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(strings.ReplaceAll(target, from, to), dst)
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is neither a file, a folder nor a symlink", path)
		}
		if buf, err = readInto(buf, path, fi.Size()); err != nil {
			return err
		}
		for i := 0; ; {
			j := bytes.Index(buf[i:], old)
			if j < 0 {
				break
			}
			i += j + copy(buf[i+j:], repl)
		}
		if err := os.WriteFile(dst, buf, fi.Mode().Perm()); err != nil {
			return err
		}
		return os.Chtimes(dst, fi.ModTime(), fi.ModTime())
	})
	if err != nil {
		return err
	}
	// Folders last, deepest first: writing into a folder moves its mtime.
	for _, d := range slices.Backward(dirs) {
		if err := os.Chmod(d.path, d.fi.Mode().Perm()); err != nil {
			return err
		}
		if err := os.Chtimes(d.path, d.fi.ModTime(), d.fi.ModTime()); err != nil {
			return err
		}
	}
	return nil
}

// readInto reads a file of size bytes into buf, grown if need be.
func readInto(buf []byte, path string, size int64) ([]byte, error) {
	if int64(cap(buf)) < size {
		buf = make([]byte, size)
	}
	buf = buf[:size]
	f, err := os.Open(path)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	_, err = io.ReadFull(f, buf)
	return buf, err
}

// relocate is the manifest of a copy: every path under from now under to.
func relocate(m *demo.Manifest, from, to string) (*demo.Manifest, error) {
	encode := func(v any) []byte {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			panic(err) // a manifest is strings and numbers
		}
		return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	}
	quoted := func(s string) []byte { return bytes.Trim(encode(s), `"`) }
	data := bytes.ReplaceAll(encode(m), quoted(from), quoted(to))
	var out demo.Manifest
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
