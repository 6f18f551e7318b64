package transcript

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestMemoryReader: a transcript held in memory (a decoded archive) reads
// as a file does, and is decoded once.
func TestMemoryReader(t *testing.T) {
	t.Parallel()
	data := header + "\n" + line("a", "") + "\n" + strings.Replace(line("b", "a"), `"hi"`, `"Hello Archive"`, 1) + "\n"
	loads := 0
	m := NewMemory("archive.jsonl.zst", func(context.Context) ([]byte, error) {
		loads++
		return []byte(data), nil
	})
	ctx := context.Background()
	ix, err := m.Index(ctx, Options{DeferValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	if ix, err = m.Validate(ctx, ix, Options{}); err != nil || ix.Tree.LeafID() != "b" || ix.Path != "archive.jsonl.zst" {
		t.Fatalf("index %+v, %v", ix, err)
	}
	previews, err := m.Previews(ctx, ix.Entries[1:], 80)
	if err != nil || len(previews) != 2 {
		t.Errorf("previews %q, %v", previews, err)
	}
	if b, err := m.Body(ctx, ix.Entries[2]); err != nil || b.ID != "b" {
		t.Errorf("body %+v, %v", b, err)
	}
	if hits, err := m.Search(ctx, ix, "hello archive", nil); err != nil || !slices.Equal(hits, []int32{2}) {
		t.Errorf("search %v, %v", hits, err)
	}
	if loads != 1 {
		t.Errorf("decoded %d times", loads)
	}
	failing := NewMemory("bad.zst", func(context.Context) ([]byte, error) { return nil, errors.New("its zstd frame does not decode") })
	if _, err := failing.Index(ctx, Options{}); err == nil || err.Error() != "its zstd frame does not decode" {
		t.Errorf("a bad archive: %v", err)
	}
}
