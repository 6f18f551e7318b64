package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/index/scorch"
)

// rootSegmentsOf is how many segments ix's index has.
func rootSegmentsOf(t *testing.T, ix *Index) uint64 {
	t.Helper()
	adv, err := ix.idx.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		t.Fatalf("the index is a %T, not scorch", adv)
	}
	return rootSegments(s)
}

// docCountOf is how many documents ix's index holds.
func docCountOf(t *testing.T, ix *Index) uint64 {
	t.Helper()
	n, err := ix.idx.DocCount()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// noEveryField fails if a segment's every-field document (everyField) is
// left in the index, found by its word or its path. (The callers also
// compare the document count with the build's.)
func noEveryField(t *testing.T, ix *Index) {
	t.Helper()
	for _, q := range []string{"placeholder", "path:placeholder"} {
		if res := mustSearch(t, ix, q, SearchOptions{Limit: 10}); res.Total != 0 {
			t.Fatalf("%q: %d hits of the merge's every-field document: %v", q, res.Total, hitLines(res.Hits))
		}
	}
}

// writeNotes writes n notes of one section each (and a few observation
// lines) into a new vault folder, ten to a file, notes-NNN.md (creating a
// file costs more than all else here).
func writeNotes(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "# Note %d\n\nnote%d mentions the warehouse\n", i, i)
		if i%3 == 0 {
			fmt.Fprintf(&b, "\n## 2026-11-%02d\n\n- [decision|c=0.90|i=0.%d0] 10:00 decided note%d\n", i%28+1, i%9+1, i)
		}
		if i%10 == 9 || i == n-1 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("notes-%03d.md", i/10)), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			b.Reset()
		}
	}
	return dir
}

// A full build of several segments leaves two (one merged on each core),
// every document once and no every-field document; the index opens
// again with both, and takes online updates after them (scorch numbers
// its next segment after the files it finds). Over 2,000 documents:
// scorch's merger merges two segments of fewer than 1,000 documents each
// (under its floor segment size) as soon as the index opens.
func TestFullBuildLeavesTwoSegments(t *testing.T) {
	t.Parallel()
	const notes = 1600
	vault := writeNotes(t, notes)
	opt := Options{Dir: t.TempDir(), Roots: []Root{{ID: "vault", Kind: VaultRoot, Dir: vault}}}
	ix, st := openSyncedIn(t, opt, func(ix *Index) { ix.buildBatchDocs = 100 })
	if got := rootSegmentsOf(t, ix); got != 2 {
		t.Fatalf("a full build of %d documents in segments of %d left %d segments", st.Docs, ix.buildBatchDocs, got)
	}
	if got := docCountOf(t, ix); got != st.Docs || st.Sections != int(st.Docs) || st.Docs < 2000 {
		t.Fatalf("the index holds %d documents; the build wrote %d (%d sections)", got, st.Docs, st.Sections)
	}
	noEveryField(t, ix)
	if res := mustSearch(t, ix, "warehouse", SearchOptions{Limit: 10}); res.Total != notes {
		t.Fatalf("warehouse: %d hits, want %d", res.Total, notes)
	}
	if res := mustSearch(t, ix, "type:decision", SearchOptions{Limit: 10}); res.Total != (notes+2)/3 {
		t.Fatalf("type:decision: %d hits, want %d", res.Total, (notes+2)/3)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	ix, _ = openSynced(t, opt)
	if got := rootSegmentsOf(t, ix); got != 2 {
		t.Fatalf("reopened with %d segments, want 2", got)
	}
	first := filepath.Join(vault, "notes-000.md")
	data, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	moved := strings.Replace(string(data), "note7 mentions the warehouse", "note7 moved to the harbour", 1)
	if err := os.WriteFile(first, []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(vault, "new.md"), []byte("# New\n\nharbour crane\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Sync(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if res := mustSearch(t, ix, "harbour", SearchOptions{Limit: 10}); res.Total != 2 {
		t.Fatalf("harbour after an update: %d hits, want 2: %v", res.Total, hitLines(res.Hits))
	}
	if res := mustSearch(t, ix, "warehouse", SearchOptions{Limit: 10}); res.Total != notes-1 {
		t.Fatalf("warehouse after an update: %d hits, want %d", res.Total, notes-1)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix, _ = openSynced(t, opt)
	if res := mustSearch(t, ix, "harbour", SearchOptions{Limit: 10}); res.Total != 2 {
		t.Fatalf("harbour after reopening: %d hits, want 2", res.Total)
	}
	noEveryField(t, ix)
}

// A full build of one segment's worth of documents leaves one segment,
// without its every-field document.
func TestFullBuildOfOneSegment(t *testing.T) {
	t.Parallel()
	opt := Options{Dir: t.TempDir(), Roots: []Root{{ID: "vault", Kind: VaultRoot, Dir: writeNotes(t, 5)}}}
	ix, st := openSynced(t, opt)
	if got := rootSegmentsOf(t, ix); got != 1 {
		t.Fatalf("a full build of %d documents left %d segments", st.Docs, got)
	}
	if got := docCountOf(t, ix); got != st.Docs || st.Sections != int(st.Docs) || st.Docs < 5 {
		t.Fatalf("the index holds %d documents; the build wrote %d (%d sections)", got, st.Docs, st.Sections)
	}
	noEveryField(t, ix)
}

// The every-field document has each field of the mapping once, with the
// options of the documents that have it.
func TestEveryFieldHasEveryField(t *testing.T) {
	t.Parallel()
	m := newMapping()
	an := newAnalyzers(m)
	want := map[string]bool{}
	f := fileRef{root: &Root{ID: "vault"}, rel: "a.md"}
	for _, s := range []Section{
		{Kind: Prose, Heading: "h", Text: "t"},
		{Kind: Prose, Heading: "h", Text: "t", cuts: []lineCut{{index: 0, bytes: maxLineBytes + 1}}},
		{Kind: ObservationLine, Heading: "2026-11-21", Text: "t"},
	} {
		for _, fl := range an.newDocument("a.md#L1", f, s, "a.md").Fields {
			want[fmt.Sprintf("%s %v", fl.Name(), fl.Options())] = true
		}
	}
	got := map[string]bool{}
	var names []string
	for _, fl := range an.everyField().Fields {
		got[fmt.Sprintf("%s %v", fl.Name(), fl.Options())] = true
		names = append(names, fl.Name())
	}
	for k := range want {
		if !got[k] {
			t.Errorf("the every-field document lacks %s", k)
		}
	}
	if len(names) != len(want) {
		t.Errorf("the every-field document has fields %s, want %d", strings.Join(names, " "), len(want))
	}
	for name := range m.DefaultMapping.Properties {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+name+" ") {
			t.Errorf("the mapping's field %s is not in the every-field document", name)
		}
	}
}
