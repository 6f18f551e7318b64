package search

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
)

// A single-line message six times the line cap in a transcript: the
// index skips that line (Stats.Problems names it by path and line),
// indexes the others, and never holds it. Before the cap, a 200 MB line
// was decoded whole: 4.7 GB. (The cap is lowered from its 64 MB: what is
// proven is the same, for a tenth of the bytes written.)
func TestTranscriptLineOverTheCap(t *testing.T) {
	const lineCap, line = 4 << 20, 24 << 20
	e := newEnv(t)
	e.opt.MaxLineBytes = lineCap
	p := e.path("sessions/big.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(`{"type":"message","message":{"role":"user","content":"firstword before"}}` + "\n")
	w.WriteString(`{"type":"message","message":{"role":"user","content":"`)
	chunk := strings.Repeat("hugeword ", 1<<17)
	for n := 0; n < line; n += len(chunk) {
		w.WriteString(chunk)
	}
	w.WriteString(`"}}` + "\n")
	w.WriteString(`{"type":"message","message":{"role":"user","content":"lastword after"}}` + "\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	ix, err := Open(e.opt)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var st Stats
	alloc := allocatedBy(func() { st, err = ix.Sync(context.Background(), nil) })
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Problems) != 1 || !strings.Contains(st.Problems[0], "big.jsonl:2:") || !strings.Contains(st.Problems[0], "longer than") {
		t.Errorf("problems = %q", st.Problems)
	}
	for word, want := range map[string]int{"firstword": 1, "lastword": 3, "hugeword": 0} {
		hits := find(t, ix, word)
		if want == 0 && len(hits) != 0 || want > 0 && (len(hits) != 1 || hits[0].Line != want) {
			t.Errorf("%s: %v", word, where(hits))
		}
	}
	if alloc > line/2 {
		t.Errorf("indexing allocated %d MB for a %d MB line it skips", alloc>>20, line>>20)
	}
}

// A link in a sessions folder to a transcript elsewhere is not indexed
// (transcripts are read only where the state dir keeps them).
func TestTranscriptLinksAreNotFollowed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	secret := e.write("elsewhere/secret.jsonl", `{"type":"message","message":{"role":"user","content":"secretword"}}`+"\n")
	if err := os.Symlink(secret, e.path("sessions/linked.jsonl")); err != nil {
		t.Fatal(err)
	}
	ix := e.open()
	if hits := find(t, ix, "secretword"); len(hits) != 0 {
		t.Errorf("indexed through a link: %v", where(hits))
	}
}
