package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
)

// SearchOptions tune one search.
type SearchOptions struct {
	// Limit is the most hits returned (default 20).
	Limit int
	// AsYouType reads the query as typed so far (see ParseQuery).
	AsYouType bool
	// Roots keeps only hits under these root ids ("vault",
	// "workspace/main", …); empty keeps all.
	Roots []string
	// how chooses between ways to the same hits (tests compare them).
	how searchWays
}

// searchWays are the ways a search may take to its hits, which the tests
// hold to one another; the zero value is the usual way.
type searchWays struct {
	// bleveSortsTies: equal scores are ordered by bleve's sort by id
	// rather than by scoreThenID.
	bleveSortsTies bool
	// importance is how a query of filters only is ordered.
	importance importanceWay
}

// importanceWay is how a query of filters only is ordered: as the number
// of its matches says (maxSortedByImportance), by walking the importance
// values, or by bleve's sort.
type importanceWay uint8

const (
	importanceByCount importanceWay = iota
	importanceWalk
	importanceSort
)

// Results are the hits of one search, best first.
type Results struct {
	Query *Query
	Hits  []Hit
	// Total is how many sections matched, of which Hits are the first.
	Total uint64
	Took  time.Duration
}

// Hit is one matching section, pinned to its best line.
type Hit struct {
	// Path is the file, absolute; Root and Rel say where it is in the
	// index's terms ("vault", "ledger/observations/2026/11/20.md").
	Path, Root, Rel string
	Agent           string // the agent of a workspace or sessions root
	Kind            SectionKind
	// Line is the 1-based line of the file with the most query words; for
	// a transcript message, its JSONL line.
	Line int
	// SectionLine is where the section starts (its heading).
	SectionLine int
	Heading     string
	Score       float64
	// Snippet is the hit's line (or the part of it around the first match,
	// with … where it was cut); Highlights are the byte ranges in Snippet
	// of the words that matched.
	Snippet    string
	Highlights []Span
	// LineBytes is the length of the hit's line when it was longer than
	// the part of a line indexed (64 KiB), and cut there: the Snippet
	// then ends by saying so. 0 for a line indexed whole.
	LineBytes int
	// Observation is set when the hit is an observation line.
	Observation *model.Observation
	// SessionID and Seq place a hit in a SQLite-era session (Path is the
	// store, Line is Seq + 1: the line the event would be in JSONL).
	SessionID string
	Seq       int64
}

// Where names the hit's file as the search command and the Search screen
// show it: the vault's own path, "[agent] path" for a workspace file,
// "[agent transcript] path" for a transcript.
func (h Hit) Where() string {
	switch {
	case h.Kind == Message:
		return "[" + h.Agent + " transcript] " + h.Rel
	case h.Agent != "":
		return "[" + h.Agent + "] " + h.Rel
	}
	return h.Rel
}

// Place is where the hit is, as the search command and the Search screen
// show it: Where and the line ("MEMORY.md:12"), or for a hit in a
// SQLite-era session the session id and the event's seq ("[ops
// transcript] 0f3c… seq 41"), which `tree` and the Transcript screen go
// to: the store holds no file to open at a line.
func (h Hit) Place() string {
	if h.SessionID != "" {
		return fmt.Sprintf("[%s transcript] %s seq %d", h.Agent, h.SessionID, h.Seq)
	}
	return fmt.Sprintf("%s:%d", h.Where(), h.Line)
}

// Span is a byte range [Start, End).
type Span struct{ Start, End int }

// Search runs a query. A malformed query is a *QueryError; an empty one
// is an error too, except while typing, where it has no hits. A search
// that finds the index damaged (the search library panicked on it) is a
// *DamagedError, and the next sync sets the index aside and builds it
// again.
func (ix *Index) Search(ctx context.Context, text string, opt SearchOptions) (res *Results, err error) {
	start := time.Now()
	q, err := ParseQuery(text, opt.AsYouType)
	if err != nil {
		return nil, err
	}
	res = &Results{Query: q}
	if q.Empty() {
		if opt.AsYouType {
			return res, nil
		}
		return nil, &QueryError{1, `nothing to search for: give words, a "phrase", or a filter such as type:decision or path:memory`}
	}
	ix.idxMu.RLock()
	defer ix.idxMu.RUnlock()
	if ix.idx == nil {
		return nil, bleve.ErrorIndexClosed
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, ix.damagedBy(r)
		}
	}()
	if err := ix.runQuery(ctx, res, opt); err != nil {
		return nil, err
	}
	res.Took = time.Since(start)
	return res, nil
}

// runQuery finds res.Query's hits. The caller holds idxMu.
func (ix *Index) runQuery(ctx context.Context, res *Results, opt SearchOptions) error {
	q := res.Query
	limit := opt.Limit
	if limit <= 0 {
		limit = 20
	}
	bq := ix.bleveQuery(q, opt.Roots, opt.AsYouType)
	request := func(size int, sortBy ...string) *bleve.SearchRequest {
		req := bleve.NewSearchRequestOptions(bq, size, 0, false)
		req.Fields = hitFields
		req.SortBy(sortBy)
		return req
	}
	runIn := func(ctx context.Context, req *bleve.SearchRequest) (*bleve.SearchResult, error) {
		sr, err := ix.idx.SearchInContext(ctx, req)
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return nil, err
			}
			return nil, errors.New("search failed: " + err.Error())
		}
		return sr, nil
	}
	run := func(req *bleve.SearchRequest) (*bleve.SearchResult, error) { return runIn(ctx, req) }
	// Best first, equal scores by file and line: the same query gives the
	// same list whatever order the index was built in. bleve's sort by id
	// looks up the id of every candidate (5,541 for "postgresql" at scale
	// 100, a third of the query's time); scoreThenID looks up only those
	// of the hits that tie at the cut, in the one query.
	var sr *bleve.SearchResult
	var err error
	switch {
	case len(q.Want.Terms) == 0:
		// Filters only: the most important observations first.
		sr, err = ix.byImportance(bq, limit, opt.how, request, run)
	case opt.how.bleveSortsTies:
		sr, err = run(request(limit, "-_score", "_id"))
	default:
		sr, err = runIn(context.WithValue(ctx, search.MakeDocumentMatchHandlerKey, scoreThenID(limit)), request(limit, "-_score"))
		if err == nil {
			sortHits(sr.Hits)
		}
	}
	if err != nil {
		return err
	}
	res.Total = sr.Total
	loc := ix.newLocator(q)
	for _, m := range sr.Hits {
		if h, ok := ix.hit(m, loc); ok {
			res.Hits = append(res.Hits, h)
		}
	}
	return nil
}

// hitFields are the stored fields a hit is made of.
var hitFields = []string{fieldBody, fieldHeading, fieldDay, fieldCut}

// sortHits orders hits best first, equal scores by id (file and line).
func sortHits(hits search.DocumentMatchCollection) {
	slices.SortStableFunc(hits, func(a, b *search.DocumentMatch) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// byImportance answers a query of filters only: its hits by importance,
// highest first, then by id (file and line), and those without one (prose
// sections) last by id, as bleve's sort by (-importance, _id) would. That
// sort looks up the id of every match (48,874 for i>=0.8 at scale 100: a
// key press over its budget), so a query that matches many walks the
// distinct importance values down from the top instead: each step asks
// for the matches of one value sorted by id, and the walk stops once the
// page is full. Only the ids of the values on the page are looked up
// (8,255 for that query). The count comes from one query that neither
// scores nor sorts. The caller holds idxMu.
func (ix *Index) byImportance(bq *query.BooleanQuery, limit int, how searchWays, request func(int, ...string) *bleve.SearchRequest, run func(*bleve.SearchRequest) (*bleve.SearchResult, error)) (*bleve.SearchResult, error) {
	count := bleve.NewSearchRequestOptions(bq, 0, 0, false)
	count.Score = "none"
	counted, err := run(count)
	if err != nil {
		return nil, err
	}
	if how.importance == importanceSort || how.importance == importanceByCount && counted.Total <= maxSortedByImportance {
		return run(request(limit, "-"+fieldImportance, "_id"))
	}
	values, err := ix.importanceValues()
	if err != nil {
		return nil, err
	}
	sr := &bleve.SearchResult{Total: counted.Total}
	left := counted.Total // matches not yet walked
	// page adds the matches that also pass filter, by id: a filter keeps
	// the query's scores as they were.
	page := func(filter query.Query) error {
		fq := *bq
		fq.Filter = filter
		step, err := run(withQuery(request(limit-len(sr.Hits), "_id"), &fq))
		if err != nil {
			return err
		}
		sr.Hits = append(sr.Hits, step.Hits...)
		left -= min(left, step.Total)
		return nil
	}
	for _, v := range values {
		if len(sr.Hits) >= limit || left == 0 {
			return sr, nil
		}
		tq := bleve.NewTermQuery(v)
		tq.SetField(fieldImportance)
		if err := page(tq); err != nil {
			return nil, err
		}
	}
	if len(sr.Hits) < limit && left > 0 {
		// The rest have no importance: sections, not observation lines.
		yes := true
		scored := bleve.NewTermRangeInclusiveQuery(scoreText(0), scoreText(1), &yes, &yes)
		scored.SetField(fieldImportance)
		unscored := bleve.NewBooleanQuery()
		unscored.AddMustNot(scored)
		if err := page(unscored); err != nil {
			return nil, err
		}
	}
	return sr, nil
}

// maxSortedByImportance: a filter-only query that matches at most this
// many sections is sorted by bleve in one pass (a few ids to look up),
// whatever the number of distinct importance values (tests choose
// another: searchWays).
const maxSortedByImportance = 2048

// withQuery is req asking q instead.
func withQuery(req *bleve.SearchRequest, q query.Query) *bleve.SearchRequest {
	req.Query = q
	return req
}

// importanceValues are the distinct importance values in the index,
// highest first. The caller holds idxMu.
func (ix *Index) importanceValues() ([]string, error) {
	dict, err := ix.idx.FieldDict(fieldImportance)
	if err != nil {
		return nil, errors.New("search failed: " + err.Error())
	}
	defer dict.Close()
	var values []string
	for {
		e, err := dict.Next()
		if err != nil {
			return nil, errors.New("search failed: " + err.Error())
		}
		if e == nil {
			break
		}
		values = append(values, e.Term)
	}
	slices.Reverse(values)
	return values, nil
}

// bleveQuery turns a parsed query into bleve's: a conjunction of the
// terms and the filters, minus the exclusions.
func (ix *Index) bleveQuery(q *Query, roots []string, typing bool) *query.BooleanQuery {
	must := ix.clauseQueries(q.Want, typing)
	if len(roots) > 0 {
		must = append(must, facetQuery(rootFacet, roots))
	}
	not := ix.clauseQueries(q.Not, typing)
	if len(must) == 0 {
		must = append(must, bleve.NewMatchAllQuery())
	}
	b := bleve.NewBooleanQuery()
	b.AddMust(must...)
	if len(not) > 0 {
		b.AddMustNot(not...)
	}
	return b
}

// clauseQueries are the bleve queries of one side of a query, each of
// which must hold (or, excluded, none of which may).
func (ix *Index) clauseQueries(c Clauses, typing bool) []query.Query {
	var qs []query.Query
	for _, t := range c.Terms {
		qs = append(qs, ix.termQuery(t, typing))
	}
	if len(c.Paths) > 0 {
		qs = append(qs, pathQuery(c.Paths))
	}
	if len(c.Types) > 0 {
		qs = append(qs, facetQuery(typeFacet, c.Types))
	}
	for _, r := range c.Ranges {
		qs = append(qs, rangeQuery(r))
	}
	return qs
}

// termQuery matches a word in the prose (English analyzer: stems, so
// "decided" finds "decide") or in the code view of the text (`keypressmsg`
// finds `tea.KeyPressMsg`), a word in a heading scoring higher; a phrase
// or a prefix in the code view.
func (ix *Index) termQuery(t Term, typing bool) query.Query {
	codeTokens := ix.codeTokens(t.Text)
	if t.Phrase && !t.Prefix {
		// Exactly these words in a row (in any case, with any punctuation
		// between them): the code field has the positions.
		return codeSequence(codeTokens)
	}
	if t.Prefix && len(codeTokens) > 0 {
		limit := 0
		if typing {
			limit = maxPrefixTerms
		}
		last := ix.prefixQuery(codeTokens[len(codeTokens)-1], limit)
		if len(codeTokens) == 1 {
			return last
		}
		return bleve.NewConjunctionQuery(codeSequence(codeTokens[:len(codeTokens)-1]), last)
	}
	prose := bleve.NewMatchQuery(t.Text)
	prose.SetField(fieldBody)
	prose.Analyzer = englishAnalyzer
	prose.SetOperator(query.MatchQueryOperatorAnd)
	heading := bleve.NewMatchQuery(t.Text)
	heading.SetField(fieldHeading)
	heading.Analyzer = englishAnalyzer
	heading.SetOperator(query.MatchQueryOperatorAnd)
	heading.SetBoost(2)
	return bleve.NewDisjunctionQuery(prose, codeSequence(codeTokens), heading)
}

// maxPrefixTerms bounds what a word being typed stands for: bleve runs a
// disjunction of more than 10 terms on a heap, several times slower, and
// a short prefix in a large vault stands for hundreds of words.
const maxPrefixTerms = 10

// prefixQuery matches the words that start with prefix in the code field:
// all of them, or (limit > 0) the limit most frequent ones: what the user
// is most likely typing, and the next letter narrows the rest. The caller
// holds idxMu.
func (ix *Index) prefixQuery(prefix string, limit int) query.Query {
	type word struct {
		term  string
		count uint64
	}
	var words []word
	if dict, err := ix.idx.FieldDictPrefix(fieldCode, []byte(prefix)); err == nil {
		for e, err := dict.Next(); e != nil && err == nil; e, err = dict.Next() {
			words = append(words, word{e.Term, e.Count})
		}
		dict.Close()
	}
	slices.SortFunc(words, func(a, b word) int {
		if a.count != b.count {
			return cmp.Compare(b.count, a.count)
		}
		return strings.Compare(a.term, b.term)
	})
	if limit > 0 && len(words) > limit {
		words = words[:limit]
	}
	var qs []query.Query
	for _, w := range words {
		tq := bleve.NewTermQuery(w.term)
		tq.SetField(fieldCode)
		qs = append(qs, tq)
	}
	if len(qs) == 0 {
		return bleve.NewMatchNoneQuery()
	}
	return bleve.NewDisjunctionQuery(qs...)
}

// codeSequence matches code tokens next to each other in the code field
// (codePhraseQuery).
func codeSequence(tokens []string) query.Query {
	switch len(tokens) {
	case 0:
		return bleve.NewMatchNoneQuery()
	case 1:
		tq := bleve.NewTermQuery(tokens[0])
		tq.SetField(fieldCode)
		return tq
	}
	return &codePhraseQuery{terms: tokens}
}

func (ix *Index) codeTokens(text string) []string {
	var out []string
	for _, tok := range ix.an.code.Analyze([]byte(text)) {
		out = append(out, string(tok.Term))
	}
	return out
}

func pathQuery(prefixes []string) query.Query { return &pathTailQuery{prefixes: prefixes} }

// pathTailQuery matches the documents of the files whose path, or a tail
// of it after a /, starts with one of prefixes: the path field holds one
// term per document (the whole path), and the query reads the field's
// terms (one per file) to find those that match. Scored as bleve's
// prefix query scores the terms it finds.
type pathTailQuery struct {
	prefixes []string
}

func (q *pathTailQuery) Searcher(ctx context.Context, i index.IndexReader, _ mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	dict, err := i.FieldDict(fieldPath)
	if err != nil {
		return nil, err
	}
	var terms []string
	for e, err := dict.Next(); e != nil || err != nil; e, err = dict.Next() {
		if err != nil {
			dict.Close()
			return nil, err
		}
		if slices.ContainsFunc(q.prefixes, func(p string) bool { return pathMatches(e.Term, p) }) {
			terms = append(terms, e.Term)
		}
	}
	if err := dict.Close(); err != nil {
		return nil, err
	}
	if len(terms) == 1 {
		return searcher.NewTermSearcher(ctx, i, terms[0], fieldPath, 1, options)
	}
	return searcher.NewMultiTermSearcher(ctx, i, terms, fieldPath, 1, options, false)
}

func facetQuery(facet func(string) string, values []string) query.Query {
	var qs []query.Query
	for _, v := range values {
		tq := bleve.NewTermQuery(facet(v))
		tq.SetField(fieldFacets)
		qs = append(qs, tq)
	}
	return bleve.NewDisjunctionQuery(qs...)
}

// rangeQuery bounds importance (its own field) or confidence (a facet);
// both are written with four decimals, so a term range is a number range.
func rangeQuery(r Range) query.Query {
	field, prefix := fieldImportance, ""
	if r.Field == "confidence" {
		field, prefix = fieldFacets, "c:"
	}
	v := prefix + scoreText(r.Value)
	lowest, highest := prefix, prefix+scoreText(1)
	yes, no := true, false
	var tq *query.TermRangeQuery
	switch r.Op {
	case ">=":
		tq = bleve.NewTermRangeInclusiveQuery(v, highest, &yes, &yes)
	case ">":
		tq = bleve.NewTermRangeInclusiveQuery(v, highest, &no, &yes)
	case "<=":
		tq = bleve.NewTermRangeInclusiveQuery(lowest, v, &yes, &yes)
	case "<":
		tq = bleve.NewTermRangeInclusiveQuery(lowest, v, &yes, &no)
	default:
		tq = bleve.NewTermRangeInclusiveQuery(v, v, &yes, &yes)
	}
	tq.SetField(field)
	return tq
}

// hit turns a bleve match into a Hit: the file, the line with the most
// query terms (from their locations in the text), the snippet and its
// highlights.
func (ix *Index) hit(m *search.DocumentMatch, loc *locator) (Hit, bool) {
	key, sectionLine, ok := parseDocID(m.ID)
	if !ok {
		return Hit{}, false
	}
	rootID, rel, _ := strings.Cut(key, ":")
	root := ix.roots[rootID]
	if root == nil {
		return Hit{}, false
	}
	body, _ := m.Fields[fieldBody].(string)
	heading, _ := m.Fields[fieldHeading].(string)
	if day, ok := m.Fields[fieldDay].(string); ok {
		heading = day
	}
	h := Hit{Path: filepath.Join(root.Dir, filepath.FromSlash(rel)), Root: root.ID, Rel: rel, Agent: root.Agent,
		SectionLine: sectionLine, Line: sectionLine, Heading: heading, Score: m.Score}
	matches := loc.find(body)
	lineStart, lineEnd, lineIndex := bestLine(body, matches)
	spans := make([]Span, len(matches))
	for i, mt := range matches {
		spans[i] = mt.Span
	}
	h.Snippet, h.Highlights = snippet(body[lineStart:lineEnd], clipSpans(mergeSpans(spans), lineStart, lineEnd), sectionLine == 1 && lineIndex == 0)
	if cuts, ok := m.Fields[fieldCut].(string); ok {
		if h.LineBytes = cutOf(cuts, lineIndex); h.LineBytes > 0 {
			h.Snippet += cutNote(h.LineBytes)
		}
	}
	switch {
	case root.Kind == SessionsRoot:
		h.Kind = Message
	case root.Kind == SQLiteRoot:
		h.Kind, h.Path = Message, root.Store
		h.SessionID, h.Seq = strings.TrimSuffix(rel, ".jsonl"), int64(sectionLine-1)
	case !strings.Contains(strings.TrimRight(body, "\r\n"), "\n"):
		h.Line = sectionLine + lineIndex
		if o, ok := model.ParseObservationLine(jscompat.JSTrim(body), ""); ok {
			h.Kind, h.Observation = ObservationLine, &o
		}
	default:
		h.Line = sectionLine + lineIndex
		if end, _, _, ok := frontMatter([]byte(body)); ok && sectionLine == 1 && end == len(body) {
			h.Kind = FrontMatter
		}
	}
	return h, true
}

// mergeSpans sorts spans and merges overlapping ones (the English and the
// code field often report the same word).
func mergeSpans(spans []Span) []Span {
	slices.SortFunc(spans, func(a, b Span) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return a.End - b.End
	})
	out := spans[:0]
	for _, s := range spans {
		if n := len(out); n > 0 && s.Start < out[n-1].End {
			out[n-1].End = max(out[n-1].End, s.End)
			continue
		}
		out = append(out, s)
	}
	return out
}

// clipSpans keeps the spans inside [start, end), relative to start.
func clipSpans(spans []Span, start, end int) []Span {
	var out []Span
	for _, s := range spans {
		if s.End <= start || s.Start >= end {
			continue
		}
		out = append(out, Span{max(s.Start, start) - start, min(s.End, end) - start})
	}
	return out
}

// maxSnippet is the longest snippet in bytes; longer lines are cut around
// their first match.
const maxSnippet = 240

// snippet trims a line for display: no indentation (nor a byte-order mark
// on a file's first line), and at most maxSnippet bytes around the first
// highlight, cut at character boundaries, with … where it was cut.
func snippet(line string, spans []Span, firstOfFile bool) (string, []Span) {
	cut := 0
	if firstOfFile {
		cut = len(line) - len(strings.TrimPrefix(line, "\ufeff"))
	}
	cut += len(line[cut:]) - len(strings.TrimLeft(line[cut:], " \t"))
	if len(line)-cut > maxSnippet {
		from := cut
		if len(spans) > 0 && spans[0].Start-60 > cut {
			from = spans[0].Start - 60
			if sp := strings.IndexByte(line[from:min(from+20, len(line))], ' '); sp >= 0 {
				from += sp + 1 // start at a word
			}
		}
		for from < len(line) && !runeStart(line[from]) {
			from++
		}
		to := min(len(line), from+maxSnippet)
		for to < len(line) && !runeStart(line[to]) {
			to--
		}
		prefix, suffix := "", ""
		if from > cut {
			prefix = "…"
		}
		if to < len(line) {
			suffix = "…"
		}
		out := prefix + line[from:to] + suffix
		return out, shiftSpans(spans, from, to, len(prefix))
	}
	return line[cut:], shiftSpans(spans, cut, len(line), 0)
}

// shiftSpans moves spans inside [from, to) to start at offset.
func shiftSpans(spans []Span, from, to, offset int) []Span {
	out := []Span{}
	for _, s := range clipSpans(spans, from, to) {
		out = append(out, Span{s.Start + offset, s.End + offset})
	}
	return out
}

func runeStart(b byte) bool { return b&0xC0 != 0x80 }
