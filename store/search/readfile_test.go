package search

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"clawvault-tui/store/regfile"
	"clawvault-tui/store/regfile/regfiletest"
)

// readFile gives what os.ReadFile gives, whatever size the listing said:
// the file may have grown or shrunk since.
func TestReadFileReadsTheWholeFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		data   string
		listed int64
	}{
		{"as listed", "# Title\nline\n", 13},
		{"empty", "", 0},
		{"grew since listed", strings.Repeat("grown line\n", 10_000), 11},
		{"grew from empty", "appended\n", 0},
		{"shrank since listed", "short\n", 4096},
		{"no size listed", "a line\n", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".md")
			if err := os.WriteFile(path, []byte(tc.data), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := readFile(path, tc.listed)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, []byte(tc.data)) {
				t.Errorf("read %d bytes, want the file's %d", len(got), len(tc.data))
			}
		})
	}
}

func TestReadFileErrorsNameThePath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "gone.md")
	if _, err := readFile(missing, 10); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing file: %v, want a not-exist error naming it", err)
	}
	if _, err := readFile(dir, 10); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("a folder: %v, want an error naming it", err)
	}
}

// A vault file swapped for a FIFO or a link to a device since it was
// listed is refused at once: never a wait for a writer, never a read
// without end.
func TestReadFileRefusesPlantedFiles(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"fifo", "dev-zero"} {
		path := filepath.Join(t.TempDir(), "MEMORY.md")
		regfiletest.Plant(t, kind, path)
		var err error
		regfiletest.Within(t, "reading a "+kind, func() { _, err = readFile(path, 10) })
		if !errors.Is(err, regfile.ErrNotRegular) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want a not-a-regular-file error naming it", kind, err)
		}
	}
}
