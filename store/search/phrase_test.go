package search

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

// naiveMatches are the ends (exclusive) of every occurrence of phrase in
// words, found by trying every start.
func naiveMatches(words, phrase []int32) []int {
	var ends []int
	for s := 0; s+len(phrase) <= len(words); s++ {
		if slices.Equal(words[s:s+len(phrase)], phrase) {
			ends = append(ends, s+len(phrase))
		}
	}
	return ends
}

// idPhrase's scan finds every occurrence, overlapping ones too, as trying
// every start does, over random runs of a small alphabet (repeats and
// near misses are common).
func TestIDPhraseFindsEveryOccurrence(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		phrase := make([]int32, 1+r.IntN(6))
		for k := range phrase {
			phrase[k] = int32(r.IntN(3))
		}
		words := make([]int32, r.IntN(40))
		for k := range words {
			words[k] = int32(r.IntN(4)) - 1 // -1: a word not in the phrase
		}
		p := newIDPhrase(phrase)
		var got []int
		state := 0
		for k, id := range words {
			if state = p.step(state, id); state == p.len() {
				got = append(got, k+1)
			}
		}
		if want := naiveMatches(words, phrase); !slices.Equal(got, want) {
			t.Fatalf("%v in %v: ends %v, want %v", phrase, words, got, want)
		}
	}
}

// A phrase matches the sections bleve's phrase query matches, with the
// same scores when no word repeats, over the demo workspace.
func TestPhrasesAreBlevesPhrases(t *testing.T) {
	t.Parallel()
	ix, _ := demoIndex(t)
	phrases := []string{"credit notes", "the warehouse", "we decided to", "to the", "billing_db_url", "tea.KeyPressMsg",
		"user: we", "the the", "it is what it is", "a a a", "release notes for the", "i>=0.8", "2026 11", "11 2026",
		"decided decided"}
	compared := 0
	for _, text := range phrases {
		tokens := ix.codeTokens(text)
		if len(tokens) < 2 {
			continue
		}
		ours := searchAll(t, ix, codeSequence(tokens))
		theirs := searchAll(t, ix, bleve.NewPhraseQuery(tokens, fieldCode))
		if !slices.Equal(slices.Sorted(maps.Keys(ours)), slices.Sorted(maps.Keys(theirs))) {
			t.Errorf("%q: %d sections, bleve's phrase %d", text, len(ours), len(theirs))
			continue
		}
		repeats := len(tokens) != len(slices.Compact(slices.Sorted(slices.Values(tokens))))
		for id, score := range ours {
			if !repeats && score != theirs[id] {
				t.Errorf("%q: %s scores %v, bleve's phrase %v", text, id, score, theirs[id])
				break
			}
		}
		compared += len(ours)
	}
	if compared < 100 {
		t.Fatalf("only %d sections compared", compared)
	}
}

// searchAll returns every section q matches in the code field, by id,
// with its score.
func searchAll(t *testing.T, ix *Index, q query.Query) map[string]float64 {
	t.Helper()
	req := bleve.NewSearchRequestOptions(q, 100000, 0, false)
	res, err := ix.idx.SearchInContext(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, h := range res.Hits {
		out[h.ID] = h.Score
	}
	return out
}

// A phrase of many repeats of one stop word, over a section of many
// more, is matched and located with work linear in both: what the search
// allocates (bleve's phrase searcher kept every location of every word
// of the phrase: n×d of them, and as many again in the paths it tried).
// Not parallel: the figure is the process's.
func TestALongPhraseIsLinear(t *testing.T) {
	const d, n = 4000, 1000
	e := newEnv(t)
	e.write("vault/the.md", "# The\n"+strings.Repeat("the ", d)+"\n")
	e.write("vault/other.md", "# Other\nthe cat sat on the mat\n")
	ix := e.open()
	phrase := `"` + strings.TrimSpace(strings.Repeat("the ", n)) + `"`
	var res *Results
	var err error
	alloc := allocatedBy(func() { res, err = ix.Search(context.Background(), phrase, SearchOptions{}) })
	if err != nil || res.Total != 1 || res.Hits[0].Rel != "the.md" {
		t.Fatalf("%+v %v", res, err)
	}
	if alloc > 8<<20 {
		t.Errorf("a phrase of %d words over a section of %d allocated %d KB", n, d, alloc>>10)
	}
	// The same words, not as a phrase: one search of the word, not n.
	alloc = allocatedBy(func() { res, err = ix.Search(context.Background(), strings.Trim(phrase, `"`)+" cat", SearchOptions{}) })
	if err != nil || res.Total != 1 || res.Hits[0].Rel != "other.md" {
		t.Fatalf("%+v %v", res, err)
	}
	if alloc > 4<<20 {
		t.Errorf("%d repeats of a word allocated %d KB", n, alloc>>10)
	}
	if got := fmt.Sprint(len(res.Query.Want.Terms)); got != "2" {
		t.Errorf("the query kept %s terms, want the 2 distinct", got)
	}
}
