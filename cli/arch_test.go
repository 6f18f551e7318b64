package cli

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The layers of docs/ARCHITECTURE.md: each package of this module may
// import only the packages to its right, and ui touches no file.
const module = "clawvault-tui"

// allowedImports names, by the top folder of a package, the top folders
// of this module its non-test files may import (its own sub-packages are
// always allowed).
var allowedImports = map[string][]string{
	"jscompat": {},
	"model":    {"jscompat"},
	"themes":   {},
	"store":    {"model", "jscompat"},
	"observer": {"model", "store", "jscompat"},
	"ui":       {"model", "store", "observer", "themes", "jscompat"},
	"serve":    {"model", "store", "jscompat"},
	"cli":      {"model", "store", "observer", "ui", "serve", "themes", "jscompat"},
	// make conformance's helper programs (the embedding endpoint, the
	// memory corpus), never linked into the binary.
	"conformance": {"store", "model", "jscompat"},
}

// forbiddenInUI are the standard packages through which code opens, stats
// or writes files: the ui asks store, in a command.
var forbiddenInUI = []string{"os", "io/ioutil", "syscall"}

func TestLayers(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files here
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		top, _, _ := strings.Cut(rel, "/")
		checked++
		for _, imp := range pkg.Imports {
			if rel == "." {
				continue // main: wiring only
			}
			if imp == module || strings.HasPrefix(imp, module+"/") {
				target, _, _ := strings.Cut(strings.TrimPrefix(imp, module+"/"), "/")
				allowed, known := allowedImports[top]
				if !known {
					t.Errorf("%s: a package outside the layers of docs/ARCHITECTURE.md (add it there and here)", rel)
					continue
				}
				if target != top && !slices.Contains(allowed, target) {
					t.Errorf("%s imports %s: %s may import only %v (docs/ARCHITECTURE.md, Layers)", rel, imp, top, allowed)
				}
				continue
			}
			if top == "ui" && slices.Contains(forbiddenInUI, imp) {
				t.Errorf("%s imports %s: ui never touches disk; ask store in a tea.Cmd (docs/ARCHITECTURE.md, Rules)", rel, imp)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("only %d packages found under %s: the walk is looking in the wrong place", checked, root)
	}
}
