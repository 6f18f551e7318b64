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

// An index whose entries and tree arrays live in their own mappings
// (ProcessLifetime) is the index built on the heap, also when the mapping
// fills up and the entries move to the heap.
func TestProcessLifetimeEntries(t *testing.T) {
	old, oldChunk, oldArena := processEntriesMin, chunkSize, arenaMin
	// Map even a small index and its tree's arrays; several chunks.
	processEntriesMin, chunkSize, arenaMin = 0, 4096, 0
	defer func() { processEntriesMin, chunkSize, arenaMin = old, oldChunk, oldArena }()
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
	for what, pair := range map[string][2][]int32{
		"active path": {mapped.Tree.ActivePath, heap.Tree.ActivePath},
		"roots":       {mapped.Tree.Roots, heap.Tree.Roots},
		"context":     {mapped.Tree.Context, heap.Tree.Context},
		"children":    {mapped.Tree.Children(5), heap.Tree.Children(5)},
	} {
		if !slices.Equal(pair[0], pair[1]) {
			t.Errorf("%s: mapped %v, heap %v", what, pair[0], pair[1])
		}
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
	t.Parallel()
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

// A process arena hands out zeroed arrays that do not overlap, mapping
// anew when its region runs out.
func TestProcessArena(t *testing.T) {
	oldMin, oldArena := processEntriesMin, arenaMin
	processEntriesMin, arenaMin = 0, 0
	defer func() { processEntriesMin, arenaMin = oldMin, oldArena }()
	a := newProcessArena(100) // a region of 2,000 bytes
	var got [][]int32
	for _, n := range []int{10, 400, 3000, 1} {
		s := a.Int32s(n)
		if len(s) != n || slices.ContainsFunc(s, func(v int32) bool { return v != 0 }) {
			t.Fatalf("Int32s(%d): len %d, not zeroed", n, len(s))
		}
		for i := range s {
			s[i] = int32(n)
		}
		got = append(got, s)
	}
	for _, s := range got {
		if slices.ContainsFunc(s, func(v int32) bool { return v != int32(len(s)) }) {
			t.Errorf("the array of %d was overwritten by a later one", len(s))
		}
	}
	if u := a.Uint64s(300); len(u) != 300 || u[299] != 0 {
		t.Errorf("Uint64s(300): len %d", len(u))
	}
}
