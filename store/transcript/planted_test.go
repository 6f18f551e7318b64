package transcript

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"clawvault-tui/store/regfile/regfiletest"
)

// A transcript swapped for a FIFO, a link to /dev/zero, a link loop or a
// folder after it was indexed: every later read of it (a body, previews,
// validation, a search, a new index) is refused at once, naming it.
func TestPlantedTranscriptIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	reads := []struct {
		name string
		do   func(f *File, ix *Index) error
	}{
		{"index", func(f *File, _ *Index) error { _, err := f.Index(ctx, Options{}); return err }},
		{"body", func(f *File, ix *Index) error { _, err := f.Body(ctx, ix.Entries[1]); return err }},
		{"previews", func(f *File, ix *Index) error { _, err := f.Previews(ctx, ix.Entries, 40); return err }},
		{"validate", func(f *File, ix *Index) error {
			ix.Validated = false
			_, err := f.Validate(ctx, ix, Options{})
			return err
		}},
		{"search", func(f *File, ix *Index) error { _, err := f.Search(ctx, ix, "hi", nil); return err }},
	}
	for _, read := range reads {
		for _, kind := range regfiletest.Kinds {
			t.Run(read.name+"/"+kind, func(t *testing.T) {
				t.Parallel()
				path := filepath.Join(t.TempDir(), "s1.jsonl")
				writeFile(t, path, header+"\n"+line("a", "")+"\n")
				f := NewCache().File(path)
				ix, err := f.Index(ctx, Options{})
				if err != nil {
					t.Fatal(err)
				}
				regfiletest.Plant(t, kind, path)
				regfiletest.Within(t, read.name, func() { err = read.do(f, ix) })
				if err == nil || !strings.Contains(err.Error(), "s1.jsonl") {
					t.Errorf("%s of a transcript become a %s: %v, want an error naming it", read.name, kind, err)
				}
			})
		}
	}
}
