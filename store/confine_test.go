package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestRootResolve(t *testing.T) {
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
