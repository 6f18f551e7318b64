package search

import (
	"bytes"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"
)

// buildAnalysis analyses the fields of a full build's documents: what
// TextField.Analyze gives them, for less. The token filters of the
// English and code analyzers (possessive, lower case, stop words, Porter
// stemmer; lower case, folding) each look at one token alone, so their
// work on a distinct token is done once and remembered: a vault's
// vocabulary is small next to its tokens. The English analyzer's
// tokenizer is asciiWords. The token frequencies of a
// field are allocated in one piece each rather than one per term.
// TestBuildAnalysisIsTextFieldAnalyze holds it to TextField.Analyze.
//
// Not safe for concurrent use: a build analyses in one goroutine.
type buildAnalysis struct {
	memo map[analysis.Analyzer]*memoAnalyzer
	// values remembers the analysis of the short fields other analyzers
	// read (path suffixes, facets, importance), by value: every line of a
	// file has the same path suffixes, and facets take few values. A
	// document only reads its fields' token frequencies, so documents
	// share them.
	values map[valueKey]analyzedValue
}

type valueKey struct {
	analyzer analysis.Analyzer
	options  index.FieldIndexingOptions
	value    string
}

type analyzedValue struct {
	length int
	freqs  index.TokenFrequencies
}

// maxMemoValues bounds values (a vault of more files than this analyses
// the rest each time).
const maxMemoValues = 1 << 16

func newBuildAnalysis(an analyzers) *buildAnalysis {
	ba := &buildAnalysis{memo: map[analysis.Analyzer]*memoAnalyzer{}, values: map[valueKey]analyzedValue{}}
	for _, a := range []analysis.Analyzer{an.english, an.code} {
		if m := newMemoAnalyzer(a); m != nil {
			ba.memo[a] = m
		}
	}
	return ba
}

// field analyses an indexed text field as its Analyze would.
func (ba *buildAnalysis) field(tf *document.TextField) analyzedField {
	var tokens analysis.TokenStream
	value := tf.Value()
	a := tf.Analyzer()
	if m := ba.memo[a]; m != nil {
		tokens = m.analyze(value)
		freqs := m.tokenFrequency(tokens, tf.ArrayPositions(), tf.Options())
		if freqs == nil {
			freqs = tokenFrequency(tokens, tf.ArrayPositions(), tf.Options())
		}
		return analyzedField{TextField: tf, length: len(tokens), freqs: freqs}
	}
	key := valueKey{analyzer: a, options: tf.Options(), value: string(value)}
	if len(tf.ArrayPositions()) == 0 {
		if v, ok := ba.values[key]; ok {
			return analyzedField{TextField: tf, length: v.length, freqs: v.freqs}
		}
	}
	if a == nil {
		tokens = analysis.TokenStream{&analysis.Token{Start: 0, End: len(value), Term: value, Position: 1, Type: analysis.AlphaNumeric}}
	} else {
		// Filters may change the bytes in place: the field's own stay as
		// they are, and the remembered terms are no one else's.
		tokens = a.Analyze(bytes.Clone(value))
	}
	v := analyzedValue{length: len(tokens), freqs: tokenFrequency(tokens, tf.ArrayPositions(), tf.Options())}
	if len(tf.ArrayPositions()) == 0 && len(ba.values) < maxMemoValues {
		ba.values[key] = v
	}
	return analyzedField{TextField: tf, length: v.length, freqs: v.freqs}
}

// memoAnalyzer is a DefaultAnalyzer (no character filters) whose token
// filters' result for each distinct token is remembered.
type memoAnalyzer struct {
	tokenizer analysis.Tokenizer
	filters   []analysis.TokenFilter
	terms     map[string]memoTerm
	one       [1]*analysis.Token
	// tokens and stream are reused from one call to the next (the token
	// frequencies keep copies of the terms, not the tokens).
	tokens []analysis.Token
	stream analysis.TokenStream
	// tokenIDs are the kept tokens' term ids (memoTerm.id) of the last
	// call, -1 for a term past maxMemoTerms.
	tokenIDs []int32
	// maxTerms is maxMemoTerms (a test lowers it).
	maxTerms int
	// ids numbers the terms the filters give; keys are the terms by id,
	// as strings: the token frequencies of
	// every field share them as map keys instead of each converting its
	// terms. seen and record are by id too: seen[id] is the field
	// (fields counts them) whose record record[id] is the term's.
	ids    map[string]int32
	keys   []string
	seen   []uint32
	record []int32
	fields uint32
}

// tokenAppender is a tokenizer that can write its tokens into a slice
// given: false when it cannot for this input (and Tokenize must).
type tokenAppender interface {
	appendTokens(dst []analysis.Token, input []byte) ([]analysis.Token, bool)
}

// memoTerm is what the filters make of a token: its term, or nothing
// (a stop word).
type memoTerm struct {
	term []byte
	keep bool
	id   int32 // of the term kept, in memoAnalyzer.keys
}

// maxMemoTerms bounds the memory of a build's memo: tokens past it (a
// vault of hashes and numbers) are filtered each time, and the fields
// they are in counted by hashing their terms (tokenFrequency).
const maxMemoTerms = 1 << 18

func newMemoAnalyzer(a analysis.Analyzer) *memoAnalyzer {
	d, ok := a.(*analysis.DefaultAnalyzer)
	if !ok || len(d.CharFilters) > 0 {
		return nil
	}
	tokenizer := d.Tokenizer
	if _, ok := tokenizer.(*unicode.UnicodeTokenizer); ok {
		tokenizer = asciiWords{unicode: tokenizer}
	}
	return &memoAnalyzer{tokenizer: tokenizer, filters: d.TokenFilters, terms: map[string]memoTerm{}, ids: map[string]int32{}, maxTerms: maxMemoTerms}
}

// analyze tokenizes input (which it does not change) and replaces each
// token's term by the filters' result, dropping those they drop. The
// stream is good until the next call.
func (m *memoAnalyzer) analyze(input []byte) analysis.TokenStream {
	var tokens analysis.TokenStream
	if ta, ok := m.tokenizer.(tokenAppender); ok {
		if m.tokens, ok = ta.appendTokens(m.tokens[:0], input); ok {
			m.stream = m.stream[:0]
			for i := range m.tokens {
				m.stream = append(m.stream, &m.tokens[i])
			}
			tokens = m.stream
		}
	}
	if tokens == nil {
		tokens = m.tokenizer.Tokenize(input)
	}
	kept := tokens[:0]
	m.tokenIDs = m.tokenIDs[:0]
	for _, t := range tokens {
		// Capped as the first filter caps it (capFilter): a key of the
		// memo is never longer than maxTokenBytes.
		t.Term = capTerm(t.Term)
		mt, ok := m.terms[string(t.Term)]
		if !ok {
			mt = m.filter(t)
			mt.id = -1
			if len(m.terms) < m.maxTerms {
				if mt.keep {
					mt.id = m.termID(mt.term)
				}
				m.terms[string(t.Term)] = mt
			}
		}
		if mt.keep {
			t.Term = mt.term
			kept = append(kept, t)
			m.tokenIDs = append(m.tokenIDs, mt.id)
		}
	}
	return kept
}

// termID is the id of a term the filters keep: tokens that differ
// (Ledger, ledger) may give the same term.
func (m *memoAnalyzer) termID(term []byte) int32 {
	if id, ok := m.ids[string(term)]; ok {
		return id
	}
	id := int32(len(m.keys))
	m.ids[string(term)] = id
	m.keys = append(m.keys, string(term))
	m.seen = append(m.seen, 0)
	m.record = append(m.record, 0)
	return id
}

// tokenFrequency is tokenFrequency for the stream the last analyze
// returned, sized to its distinct terms, which it finds by id rather
// than by hashing: nil when a term has no id (past maxMemoTerms).
func (m *memoAnalyzer) tokenFrequency(tokens analysis.TokenStream, arrayPositions []uint64, options index.FieldIndexingOptions) index.TokenFrequencies {
	m.fields++
	if m.fields == 0 { // wrapped: no id was seen in field 0
		clear(m.seen)
		m.fields = 1
	}
	distinct := 0
	for _, id := range m.tokenIDs {
		if id < 0 {
			return nil
		}
		if m.seen[id] != m.fields {
			m.seen[id] = m.fields
			m.record[id] = int32(distinct)
			distinct++
		}
	}
	rv := make(index.TokenFrequencies, distinct)
	records := make([]index.TokenFreq, distinct)
	for i, id := range m.tokenIDs {
		r := &records[m.record[id]]
		if r.Term == nil {
			r.Term = tokens[i].Term
			rv[m.keys[id]] = r
		}
		r.SetFrequency(r.Frequency() + 1)
	}
	placeTokens(records, tokens, arrayPositions, options, func(i int) *index.TokenFreq { return &records[m.record[m.tokenIDs[i]]] })
	return rv
}

// filter runs the filters on a copy of one token.
func (m *memoAnalyzer) filter(t *analysis.Token) memoTerm {
	c := *t
	c.Term = bytes.Clone(t.Term)
	m.one[0] = &c
	stream := analysis.TokenStream(m.one[:])
	for _, f := range m.filters {
		stream = f.Filter(stream)
	}
	if len(stream) != 1 {
		return memoTerm{}
	}
	return memoTerm{term: stream[0].Term, keep: true}
}

// tokenFrequency is analysis.TokenFrequency with the term records and
// locations of a field allocated in one piece each.
func tokenFrequency(tokens analysis.TokenStream, arrayPositions []uint64, options index.FieldIndexingOptions) index.TokenFrequencies {
	rv := make(index.TokenFrequencies, len(tokens))
	records := make([]index.TokenFreq, 0, len(tokens))
	// Count each term's tokens (with term vectors, to give each term its
	// part of one slice of locations: placeTokens).
	for _, t := range tokens {
		tf := rv[string(t.Term)]
		if tf == nil {
			records = append(records, index.TokenFreq{Term: t.Term})
			tf = &records[len(records)-1]
			rv[string(t.Term)] = tf
		}
		tf.SetFrequency(tf.Frequency() + 1)
	}
	placeTokens(records, tokens, arrayPositions, options, func(i int) *index.TokenFreq { return rv[string(tokens[i].Term)] })
	return rv
}

// placeTokens finishes the records of a field's terms, counted: with term
// vectors, each term is given its part of one slice of locations, in
// token order (recordOf is token i's record); a field without
// frequencies keeps none.
func placeTokens(records []index.TokenFreq, tokens analysis.TokenStream, arrayPositions []uint64, options index.FieldIndexingOptions, recordOf func(i int) *index.TokenFreq) {
	if options.IncludeTermVectors() {
		locations := make([]index.TokenLocation, len(tokens))
		pointers := make([]*index.TokenLocation, len(tokens))
		next := 0
		for i := range records {
			n := records[i].Frequency()
			records[i].Locations = pointers[next : next : next+n]
			next += n
		}
		for i, t := range tokens {
			locations[i] = index.TokenLocation{ArrayPositions: arrayPositions, Start: t.Start, End: t.End, Position: t.Position}
			r := recordOf(i)
			r.Locations = append(r.Locations, &locations[i])
		}
	}
	if options.SkipFreqNorm() {
		for i := range records {
			records[i].SetFrequency(0)
		}
	}
}
