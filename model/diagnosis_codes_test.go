package model

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// DiagnosisCodes names every DiagnosisCode constant of the package, so
// that the tables over it (the TUI's badges) cover a code the day it is
// added.
func TestDiagnosisCodesListsEveryCode(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("*.go")
	var declared []DiagnosisCode
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				v := spec.(*ast.ValueSpec)
				if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "DiagnosisCode" {
					continue
				}
				for _, val := range v.Values {
					s, _ := strconv.Unquote(val.(*ast.BasicLit).Value)
					declared = append(declared, DiagnosisCode(s))
				}
			}
		}
	}
	if len(declared) == 0 {
		t.Fatal("no DiagnosisCode constants found")
	}
	for _, c := range declared {
		if !slices.Contains(DiagnosisCodes, c) {
			t.Errorf("DiagnosisCodes lacks %q", c)
		}
	}
	if len(DiagnosisCodes) != len(declared) {
		t.Errorf("DiagnosisCodes has %d codes, the package declares %d", len(DiagnosisCodes), len(declared))
	}
}
