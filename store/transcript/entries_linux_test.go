//go:build linux

package transcript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"clawvault-tui/model"
)

// An index whose entries live in their own mapping (ProcessLifetime) is
// the index built on the heap, also when the mapping fills up and the
// entries move to the heap.
func TestProcessLifetimeEntries(t *testing.T) {
	old, oldChunk := processEntriesMin, chunkSize
	processEntriesMin, chunkSize = 0, 4096 // map even a small index; several chunks
	defer func() { processEntriesMin, chunkSize = old, oldChunk }()
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}` + "\n")
	parent := "null"
	for i := range 3000 {
		id := fmt.Sprintf("%08x", i+1)
		text := "hello"
		if i < 4 {
			// Long lines first: the first chunk's estimate falls short,
			// and the entries outgrow the mapping.
			text = strings.Repeat("long ", 300)
		}
		fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"%s"}}`+"\n", id, parent, text)
		parent = `"` + id + `"`
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	heap, err := Build(context.Background(), path, f, fi.Size(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	mapped, err := Build(context.Background(), path, f, fi.Size(), Options{ProcessLifetime: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(mapped.Entries) != 3001 || !slices.Equal(heap.Entries, mapped.Entries) || mapped.Tree.LeafID() != heap.Tree.LeafID() ||
		len(mapped.Tree.ActivePath) != 3000 {
		t.Errorf("mapped: %d entries, leaf %s, path %d; heap: %d entries, leaf %s", len(mapped.Entries), mapped.Tree.LeafID(),
			len(mapped.Tree.ActivePath), len(heap.Entries), heap.Tree.LeafID())
	}
	if e := ProcessEntries(1000); cap(e) < 1000 || len(e) != 0 {
		t.Errorf("ProcessEntries(1000): len %d cap %d", len(e), cap(e))
	}
}

// processEntries puts entries where the collector never looks, which is
// only safe while an entry holds no pointer: a string, slice, map or
// pointer field added to model.Entry would be freed under it. This test
// fails first.
func TestEntryHoldsNoPointers(t *testing.T) {
	var walk func(reflect.Type) string
	walk = func(typ reflect.Type) string {
		switch typ.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			return ""
		case reflect.Array:
			return walk(typ.Elem())
		case reflect.Struct:
			for i := range typ.NumField() {
				if bad := walk(typ.Field(i).Type); bad != "" {
					return typ.Field(i).Name + ": " + bad
				}
			}
			return ""
		}
		return typ.String()
	}
	if bad := walk(reflect.TypeFor[model.Entry]()); bad != "" {
		t.Errorf("model.Entry holds a pointer (%s); processEntries must not keep such entries outside the Go heap", bad)
	}
}
