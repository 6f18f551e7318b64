package search

import (
	"cmp"
	"context"
	"slices"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"
)

// A phrase is matched in time linear in the phrase and the text. bleve's
// phrase searcher opens a term searcher per word of the phrase (the same
// word again for each repeat) and finds the phrase by trying every
// location of every word after every other: a phrase of 20,000 repeated
// stop words took 26 s, and 300 of them 38 s over a note of 3,000. Here
// the candidates are the sections with every distinct word (one term
// searcher each, scored as bleve scores a phrase without repeats), and
// the phrase is found among the words' positions by Knuth, Morris and
// Pratt's scan (idPhrase); the locator finds it in a hit's text the same
// way (locate.go).

// codePhraseQuery matches terms next to each other, in this order, in the
// code field: the words of a phrase, or of one word of several code
// tokens (tea.KeyPressMsg).
type codePhraseQuery struct {
	terms []string
}

func (q *codePhraseQuery) Searcher(ctx context.Context, i index.IndexReader, _ mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	options.IncludeTermVectors = true // the positions
	ids := map[string]int32{}
	phrase := make([]int32, len(q.terms))
	var words []search.Searcher
	for k, t := range q.terms {
		id, seen := ids[t]
		if !seen {
			id = int32(len(ids))
			ids[t] = id
			ts, err := searcher.NewTermSearcher(ctx, i, t, fieldCode, 1, options)
			if err != nil {
				closeAll(words)
				return nil, err
			}
			words = append(words, ts)
		}
		phrase[k] = id
	}
	all, err := searcher.NewConjunctionSearcher(ctx, i, words, options)
	if err != nil {
		closeAll(words)
		return nil, err
	}
	m := &phraseMatcher{ids: ids, phrase: newIDPhrase(phrase)}
	return searcher.NewFilteringSearcher(ctx, all, m.accept), nil
}

func closeAll(searchers []search.Searcher) {
	for _, s := range searchers {
		_ = s.Close()
	}
}

// phraseMatcher tells whether a section with every word of a phrase has
// them in a row, from the words' positions in the code field.
type phraseMatcher struct {
	ids    map[string]int32
	phrase *idPhrase
	at     []positionedID // scratch
}

// positionedID is a phrase word's id at a position of the text.
type positionedID struct {
	pos uint64
	id  int32
}

func (m *phraseMatcher) accept(_ *search.SearchContext, d *search.DocumentMatch) bool {
	m.at = m.at[:0]
	for _, l := range d.FieldTermLocations {
		if id, ok := m.ids[l.Term]; ok && l.Field == fieldCode {
			m.at = append(m.at, positionedID{l.Location.Pos, id})
		}
	}
	slices.SortFunc(m.at, func(a, b positionedID) int { return cmp.Compare(a.pos, b.pos) })
	state := 0
	for k, w := range m.at {
		if k > 0 && w.pos != m.at[k-1].pos+1 {
			state = 0 // a word not of the phrase in between
		}
		if state = m.phrase.step(state, w.id); state == m.phrase.len() {
			return true
		}
	}
	return false
}

// idPhrase finds a sequence of word ids in a run of words, one word at a
// time, in linear time: Knuth, Morris and Pratt's scan, whose state is
// how many of the phrase's words the last words read match.
type idPhrase struct {
	ids []int32
	// fail[k] is the state after a mismatch in state k+1: the longest
	// proper prefix of ids[:k+1] that is also its suffix.
	fail []int
}

func newIDPhrase(ids []int32) *idPhrase {
	fail := make([]int, len(ids))
	for k, n := 1, 0; k < len(ids); k++ {
		for n > 0 && ids[k] != ids[n] {
			n = fail[n-1]
		}
		if ids[k] == ids[n] {
			n++
		}
		fail[k] = n
	}
	return &idPhrase{ids: ids, fail: fail}
}

func (p *idPhrase) len() int { return len(p.ids) }

// step is the state after the word id, from state; len() is a match (the
// next step starts from the longest match that overlaps it). An id no
// word of the phrase has (-1) returns to 0.
func (p *idPhrase) step(state int, id int32) int {
	if len(p.ids) == 0 {
		return 0
	}
	if state == len(p.ids) {
		state = p.fail[state-1]
	}
	for state > 0 && p.ids[state] != id {
		state = p.fail[state-1]
	}
	if p.ids[state] == id {
		state++
	}
	return state
}
