package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFileReadsARegularFile(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "MEMORY.md")
	want := strings.Repeat("# Notes\n- a line\n", 1000)
	if err := os.WriteFile(p, []byte(want), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(p)
	if err != nil || string(got) != want {
		t.Fatalf("ReadFile = %d bytes, %v; want %d bytes", len(got), err, len(want))
	}
	if _, err := ReadFileLimit(p, int64(len(want)-1)); err == nil {
		t.Fatal("ReadFileLimit read a file over its limit")
	}
	if got, err := ReadFileLimit(p, int64(len(want))); err != nil || string(got) != want {
		t.Fatalf("ReadFileLimit at the exact size = %v", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing file gave %v, want ErrNotExist", err)
	}
}
