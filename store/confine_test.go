package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRootResolve(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	vault, outside := filepath.Join(base, "vault"), filepath.Join(base, "outside")
	for _, d := range []string{vault + "/real", vault + "/deep/a", outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(vault, name)); err != nil {
			t.Fatal(err)
		}
	}
	link(filepath.Join(vault, "real"), "inside")    // a folder elsewhere in the vault
	link(outside, "out")                            // a folder outside
	link("../../../outside", "deep/a/up")           // relative, leading out
	link(filepath.Join(outside, "none.md"), "dang") // dangling, outside
	link(filepath.Join(vault, "real", "n.md"), "dangin")
	link(filepath.Join(outside, "gone", "none.md"), "dangdir") // dangling, into a missing folder outside
	link("dang", "chain")                                      // to a dangling link
	r, err := NewRoot(vault)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want string // "" when refused
	}{
		{"a.md", "a.md"},
		{"new/dir/a.md", "new/dir/a.md"},
		{"inside/a.md", "real/a.md"},
		{"inside/new/a.md", "real/new/a.md"},
		{"dangin", "real/n.md"},
		{"out/a.md", ""},
		{"out/new/dir/a.md", ""},
		{"deep/a/up/x.md", ""},
		{"dang", ""},
		{"dangdir", ""},
		{"chain", ""},
		{"chain/new.md", ""},
		{"../vault2/a.md", ""},
	} {
		got, err := r.Resolve(filepath.Join(vault, c.path))
		var outErr *OutsideError
		switch {
		case c.want == "" && !errors.As(err, &outErr):
			t.Errorf("%s: %q, %v; want refused", c.path, got, err)
		case c.want != "" && (err != nil || got != filepath.Join(r.Real(), c.want)):
			t.Errorf("%s: %q, %v; want %s", c.path, got, err, c.want)
		}
	}
}

// TestRealPath: where a path really is, for each way a link can lead:
// the last component, a dangling link (to a missing file, a missing
// folder, through a chain), a relative link inside a linked folder, and a
// loop, which is an error rather than a path.
func TestRealPath(t *testing.T) {
	t.Parallel()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"a/b", "elsewhere/c"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(base, "a", "file.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"last.md":       filepath.Join(base, "a", "file.md"),
		"dang.md":       filepath.Join(base, "elsewhere", "none.md"),
		"dangdir.md":    filepath.Join(base, "missing", "deep", "none.md"),
		"chain.md":      "dang.md",
		"linked":        filepath.Join(base, "elsewhere", "c"),
		"elsewhere/c/u": "../up.md", // relative to the link's real folder
		"loop1":         "loop2",
		"loop2":         "loop1",
	} {
		if err := os.Symlink(target, filepath.Join(base, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ path, want string }{
		{"a/file.md", "a/file.md"},
		{"a/new/x.md", "a/new/x.md"},
		{"last.md", "a/file.md"},
		{"dang.md", "elsewhere/none.md"},
		{"dangdir.md", "missing/deep/none.md"},
		{"chain.md", "elsewhere/none.md"},
		{"linked/new.md", "elsewhere/c/new.md"},
		{"linked/u", "elsewhere/up.md"},
		{"a/b/../file.md", "a/file.md"},
		{"loop1", ""},
	} {
		got, err := RealPath(filepath.Join(base, c.path))
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%s: %q, want an error", c.path, got)
		case c.want != "" && (err != nil || got != filepath.Join(base, c.want)):
			t.Errorf("%s: %q, %v; want %s", c.path, got, err, c.want)
		}
	}
}

func TestWithin(t *testing.T) {
	t.Parallel()
	// Each case is "dir path", path inside dir or not.
	inside := []string{"/v /v", "/v /v/a.md", "/v /v/..a/b"}
	outside := []string{"/v /v2/a.md", "/v /", "/v/a /v", "/v /v/../w"}
	for want, cases := range map[bool][]string{true: inside, false: outside} {
		for _, c := range cases {
			dir, p, _ := strings.Cut(c, " ")
			if got := Within(dir, filepath.Clean(p)); got != want {
				t.Errorf("Within(%s, %s) = %v", dir, p, got)
			}
		}
	}
}

// TestOutsideError: one error for each refusal, the reason first, what
// was done last, and errors.Is ErrOutside.
func TestOutsideError(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  *OutsideError
		want string
	}{
		{&OutsideError{Op: OpWrite, Path: "/v/ledger/x", Real: "/o/x", Place: "the vault /v"},
			"not in the vault /v: /v/ledger/x (which leads to /o/x); nothing was written outside the vault: remove the link or move what it points at into the vault"},
		{&OutsideError{Op: OpWrite, Path: "/v2/a.md", Place: "the vault /v"},
			"not in the vault /v: /v2/a.md; nothing was written outside the vault"},
		{&OutsideError{Op: OpEdit, Path: "/w/memory/n.md", Real: "/o/n.md", Place: "the vault or an agent's workspace memory"},
			"not in the vault or an agent's workspace memory: /w/memory/n.md (which leads to /o/n.md); it is neither shown nor changed here"},
		{&OutsideError{Op: OpEdit, Path: "/w/AGENTS.md", Real: "/w/AGENTS.md", Place: "the vault"},
			"not in the vault: /w/AGENTS.md; it is neither shown nor changed here"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
		if !errors.Is(c.err, ErrOutside) {
			t.Errorf("%v is not ErrOutside", c.err)
		}
	}
}

// A folder removed between RealPath's look at it and its following of
// links (a watcher resolving a burst of events while a folder is deleted)
// resolves as missing, like any deleted path, not as an error.
func TestRealPathFolderRemovedMeanwhile(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(base, "moved", "folder")
	if err := os.MkdirAll(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	removed := false
	evalSymlinks = func(p string) (string, error) {
		if !removed {
			removed = true
			if err := os.RemoveAll(filepath.Join(base, "moved")); err != nil {
				t.Fatal(err)
			}
		}
		return filepath.EvalSymlinks(p)
	}
	defer func() { evalSymlinks = filepath.EvalSymlinks }()
	got, err := RealPath(filepath.Join(gone, "b.md"))
	if err != nil || got != filepath.Join(gone, "b.md") || !removed {
		t.Errorf("RealPath: %q, %v (removed: %v); want %q", got, err, removed, filepath.Join(gone, "b.md"))
	}
}
