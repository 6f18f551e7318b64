// Package recall is OpenClaw 2026.9.6's memory_search, replayed: the
// keyword leg's query plans and lexical boost, the hybrid merge of the
// vector and keyword legs, temporal decay with its evergreen files, the
// importance multiplier, maximal marginal relevance, the minimum score and
// the result count, exact-path ranking first; and, for every chunk, why it
// is where it is. Pure functions over what store reads from the agent's
// index: no I/O.
package recall

import (
	"slices"
	"strings"
)

// SnippetChars is the longest snippet memory_search returns, in UTF-16
// units.
const SnippetChars = 700

// CandidateLimit is how many chunks each leg may bring (OpenClaw's
// candidate universe: max(200, results) × the multiplier, capped at 200).
const CandidateLimit = 200

// ExactPathLimit bounds the paths an exact-path query keeps.
const ExactPathLimit = 200

// Provenance is a chunk's memory_index_chunk_provenance row.
type Provenance struct {
	OriginClass   string `json:"originClass"`
	SessionKind   string `json:"sessionKind"`
	ObservedAt    int64  `json:"observedAt"`
	SupersedesKey string `json:"supersedesKey,omitempty"`
}

// Meta is a chunk's recall metadata (memory_index_chunk_recall_metadata
// and its provenance).
type Meta struct {
	// Importance is 1–10 when the curated entry was annotated.
	Importance *float64
	Triggers   string
	ProjectKey string
	Provenance *Provenance
}

// Hit is one chunk as a leg of the search found it, and as the merge
// carries it on.
type Hit struct {
	ID        string
	Path      string
	Source    string
	StartLine int
	EndLine   int
	Snippet   string

	// Score is the leg's ranking score: cosine similarity for the vector
	// leg; for the keyword leg the boosted body score, 1 for an exact
	// path, else the path score.
	Score       float64
	VectorScore float64
	TextScore   float64
	PathScore   float64
	// Specificity is the exact-path specificity of the chunk's path for
	// the query (3 the path, 2 its name, 1 its stem, 0 none).
	Specificity int
	// HasBody: the chunk's text matched (not only its path).
	HasBody bool
	Meta    Meta
	// SourceMtime is the indexed file's mtime in ms (sessions' decay).
	SourceMtime    float64
	HasSourceMtime bool
}

// BodyRow is one row of the chunks' full-text table for a plan.
type BodyRow struct {
	ID, Path, Source   string
	StartLine, EndLine int
	Text               string
	Rank               float64
}

// BodyHits turns the rows of a body query into hits: textScore from the
// rank when MATCH ran (0 after its substring fallback), the score boosted
// against rankingQuery.
func BodyHits(rows []BodyRow, usedMatch bool, rankingQuery string) []Hit {
	boost := NewBooster(rankingQuery)
	out := make([]Hit, len(rows))
	for i, r := range rows {
		text := 0.0
		if usedMatch {
			text = RankToScore(r.Rank)
		}
		out[i] = Hit{
			ID: r.ID, Path: r.Path, Source: r.Source, StartLine: r.StartLine, EndLine: r.EndLine,
			Snippet: truncateUTF16(r.Text, SnippetChars), Score: boost.Score(r.Path, r.Text, text),
			TextScore: text, HasBody: true,
		}
	}
	return out
}

// compareKeywordHits is OpenClaw's order of keyword hits: exact paths
// first (those whose text matched before those named only), then score,
// text score, path score, path, line, id.
func compareKeywordHits(a, b *Hit, preferBody bool) int {
	if d := b.Specificity - a.Specificity; d != 0 {
		return d
	}
	if preferBody && a.Specificity > 0 {
		if d := boolInt(b.HasBody) - boolInt(a.HasBody); d != 0 {
			return d
		}
	}
	if c := cmpDesc(a.Score, b.Score); c != 0 {
		return c
	}
	if c := cmpDesc(a.TextScore, b.TextScore); c != 0 {
		return c
	}
	if a.Specificity == 0 {
		if c := cmpDesc(a.PathScore, b.PathScore); c != 0 {
			return c
		}
	}
	return tieBreak(a.Path, b.Path, a.StartLine, b.StartLine, a.ID, b.ID)
}

func tieBreak(pathA, pathB string, lineA, lineB int, idA, idB string) int {
	if c := localeCompare(pathA, pathB); c != 0 {
		return c
	}
	if lineA != lineB {
		return lineA - lineB
	}
	return localeCompare(idA, idB)
}

// cmpDesc orders larger first, as b - a does in a JavaScript comparator.
func cmpDesc(a, b float64) int {
	switch {
	case b > a:
		return 1
	case b < a:
		return -1
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// MergeKeywordHits is OpenClaw's mergeKeywordSearchHits: the hit sets of
// the body and path queries (and of the fallback words) as one list by
// chunk, each keeping its best text and path scores and the longest
// snippet of the kind that matched; a hit without a body match scores 1
// on an exact path, else its path score.
func MergeKeywordHits(sets [][]Hit, exactPathQuery string) []Hit {
	exact := NewExactPath(exactPathQuery)
	index := map[string]int{}
	var merged []Hit
	for _, set := range sets {
		for _, h := range set {
			i, ok := index[h.ID]
			if !ok {
				h.Specificity = exact.Specificity(h.Path)
				index[h.ID] = len(merged)
				merged = append(merged, h)
				continue
			}
			mergeKeywordHit(&merged[i], h)
		}
	}
	for i := range merged {
		if h := &merged[i]; !h.HasBody {
			h.Score = h.PathScore
			if h.Specificity > 0 {
				h.Score = 1
			}
		}
	}
	slices.SortStableFunc(merged, func(a, b Hit) int { return compareKeywordHits(&a, &b, true) })
	return merged
}

func mergeKeywordHit(e *Hit, h Hit) {
	eBody, hBody := 0.0, 0.0
	if e.HasBody {
		eBody = e.Score
	}
	if h.HasBody {
		hBody = h.Score
	}
	hadBody := e.HasBody
	e.TextScore = max(e.TextScore, h.TextScore)
	e.PathScore = max(e.PathScore, h.PathScore)
	e.HasBody = e.HasBody || h.HasBody
	if body := max(eBody, hBody); body > 0 {
		e.Score = body
	} else {
		e.Score = e.PathScore
	}
	if (h.HasBody && !hadBody) || (h.HasBody == hadBody && utf16Len(h.Snippet) > utf16Len(e.Snippet)) {
		e.Snippet = h.Snippet
	}
}

// LimitKeywordHits is OpenClaw's limitKeywordSearchHits: exact-path hits
// (those with a body match up to limit, then the path-only ones, of at
// most ExactPathLimit files), then up to limit others.
func LimitKeywordHits(hits []Hit, limit int) []Hit {
	ranked := slices.Clone(hits)
	slices.SortStableFunc(ranked, func(a, b Hit) int { return compareKeywordHits(&a, &b, true) })
	var exactBody, exactOnly, others []Hit
	for _, h := range ranked {
		switch {
		case h.Specificity > 0 && h.HasBody:
			exactBody = append(exactBody, h)
		case h.Specificity > 0:
			exactOnly = append(exactOnly, h)
		default:
			others = append(others, h)
		}
	}
	if len(exactBody) > limit {
		exactBody = exactBody[:limit]
	}
	bounded := append(exactBody, exactOnly...)
	slices.SortStableFunc(bounded, func(a, b Hit) int { return compareKeywordHits(&a, &b, true) })
	keys := map[string]bool{}
	for _, h := range bounded {
		keys[h.Source+":"+h.Path] = true
		if len(keys) == ExactPathLimit {
			break
		}
	}
	var out []Hit
	for _, h := range bounded {
		if keys[h.Source+":"+h.Path] {
			out = append(out, h)
		}
	}
	if len(others) > limit {
		others = others[:limit]
	}
	return append(out, others...)
}

// CountNonExact counts the hits that do not name an exact path.
func CountNonExact(hits []Hit) int {
	n := 0
	for _, h := range hits {
		if h.Specificity == 0 {
			n++
		}
	}
	return n
}

// rangeKey identifies a chunk by what the user sees of it.
func rangeKey(source, path string, start, end int) string {
	var b strings.Builder
	b.WriteString(source)
	b.WriteByte(':')
	b.WriteString(path)
	b.WriteByte(':')
	b.WriteString(itoa(start))
	b.WriteByte(':')
	b.WriteString(itoa(end))
	return b.String()
}

// Snippet is a chunk's text as memory_search shows it.
func Snippet(text string) string { return truncateUTF16(text, SnippetChars) }
