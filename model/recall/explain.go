package recall

import (
	"fmt"
	"slices"
	"strings"
)

// Why a memory is, or is not, among what memory_search returns: one
// reason with its numbers, per file.

// Explanation codes.
const (
	Returned         = "returned"
	NotIndexed       = "not-indexed"
	NotMemory        = "not-a-memory-file"
	NoSuchFile       = "no-such-file"
	NotRegular       = "not-a-regular-file"
	NoChunks         = "no-chunks"
	Unavailable      = "provider-unavailable"
	IdentityMismatch = "identity-mismatch"
	NotCandidate     = "not-a-candidate"
	BelowMinScore    = "below-min-score"
	DecayedBelow     = "decayed-below-min-score"
	DroppedByMMR     = "dropped-by-mmr"
	BeyondCount      = "beyond-result-count"
)

// FileFacts is what is known of one file for its explanation.
type FileFacts struct {
	Path string
	// OnDisk: the file exists in the workspace; Eligible: OpenClaw's
	// memory sources include it.
	OnDisk, Eligible bool
	// NotRegular says what is there instead of a regular file ("is a
	// symbolic link, not a regular file"), "" when nothing or a file is.
	NotRegular string
	// Indexed: it has a memory_index_sources row; Changed: its content
	// differs from what was indexed.
	Indexed, Changed bool
	Chunks           []ChunkFacts
}

// ChunkFacts is one chunk of the file.
type ChunkFacts struct {
	ID                 string
	StartLine, EndLine int
	// Vector is its (approximate, float32) cosine with the query when the
	// vector leg ran; VectorRank its place among the chunks the leg reads.
	Vector                 float64
	HasVector              bool
	VectorRank, VectorOf   int
	KeywordMatch           bool
	Entry                  *Entry
	ResultRank             int // 1-based place in the results, 0 when not returned
	ExcludedSource, Hidden bool
}

// Scene is the search the files are explained against.
type Scene struct {
	// Status is "ok" or "keyword-only" when the results are the agent's;
	// Unavailable or IdentityMismatch when memory_search gives none.
	Status, StatusReason string
	Settings             Settings
	Results              []*Entry
	Candidates           int
	// Describe names a chunk (path:start-end) by id.
	Describe func(id string) string
}

// Explanation is the verdict on one file.
type Explanation struct {
	Path   string        `json:"path"`
	Code   string        `json:"code"`
	Reason string        `json:"reason"`
	Notes  []string      `json:"notes,omitempty"`
	Chunk  *ChunkNumbers `json:"chunk,omitempty"`
}

// ChunkNumbers are the scores of the chunk an explanation is about.
type ChunkNumbers struct {
	StartLine    int      `json:"startLine"`
	EndLine      int      `json:"endLine"`
	Score        float64  `json:"score"`
	VectorScore  float64  `json:"vectorScore"`
	TextScore    float64  `json:"textScore"`
	KeywordScore float64  `json:"keywordScore"`
	ContentScore float64  `json:"contentScore"`
	DecayFactor  float64  `json:"decayFactor"`
	AgeDays      *float64 `json:"ageDays,omitempty"`
	Importance   float64  `json:"importanceFactor"`
	Rank         int      `json:"rank,omitempty"`
	RankNoMMR    int      `json:"rankWithoutMMR,omitempty"`
	SimilarTo    string   `json:"similarTo,omitempty"`
	Similarity   float64  `json:"similarity,omitempty"`
}

// Explain decides why a file is or is not returned.
func Explain(f FileFacts, sc Scene) Explanation {
	e := Explanation{Path: f.Path}
	switch {
	case !f.Indexed && f.NotRegular != "":
		return e.set(NotRegular, f.NotRegular+": OpenClaw indexes regular files only (it skips links, pipes and devices)")
	case !f.Indexed && !f.OnDisk:
		return e.set(NoSuchFile, "no such file in the workspace, and the index has none by that path")
	case !f.Indexed && !f.Eligible:
		return e.set(NotMemory, "not a file OpenClaw indexes: memory_search reads MEMORY.md, USER.md, memory/**/*.md and memory.search.extraPaths")
	case !f.Indexed:
		return e.set(NotIndexed, "not in the index (no memory_index_sources row): OpenClaw adds it on its next sync, or `openclaw memory index`")
	case len(f.Chunks) == 0:
		return e.set(NoChunks, "indexed without a single chunk (nothing to search: an empty file?)")
	}
	if f.Changed {
		e.Notes = append(e.Notes, "changed since it was indexed: memory_search searches the indexed version until OpenClaw's next sync")
	}
	if !f.OnDisk {
		e.Notes = append(e.Notes, "deleted since it was indexed: memory_search can still return it until OpenClaw's next sync")
	}
	switch sc.Status {
	case Unavailable:
		return e.set(Unavailable, "memory_search answers \"unavailable\" for every query: "+sc.StatusReason)
	case IdentityMismatch:
		return e.set(IdentityMismatch, "memory_search returns nothing for every query: "+sc.StatusReason)
	}
	if c := bestReturned(f.Chunks); c != nil {
		return e.returned(c, sc)
	}
	if c := bestCandidate(f.Chunks); c != nil {
		return e.candidate(c, sc)
	}
	return e.notCandidate(f.Chunks, sc)
}

func (e Explanation) set(code, reason string) Explanation {
	e.Code, e.Reason = code, reason
	return e
}

func bestReturned(cs []ChunkFacts) *ChunkFacts {
	var best *ChunkFacts
	for i := range cs {
		if c := &cs[i]; c.ResultRank > 0 && (best == nil || c.ResultRank < best.ResultRank) {
			best = c
		}
	}
	return best
}

func bestCandidate(cs []ChunkFacts) *ChunkFacts {
	var best *ChunkFacts
	for i := range cs {
		if c := &cs[i]; c.Entry != nil && (best == nil || c.Entry.Position < best.Entry.Position) {
			best = c
		}
	}
	return best
}

func numbers(c *ChunkFacts) *ChunkNumbers {
	en := c.Entry
	n := &ChunkNumbers{StartLine: c.StartLine, EndLine: c.EndLine, Score: en.Score, VectorScore: en.VectorScore,
		TextScore: en.TextScore, KeywordScore: en.KeywordScore, ContentScore: en.ContentScore, DecayFactor: en.DecayFactor,
		Importance: en.ImportanceFactor, Rank: en.Position + 1, RankNoMMR: en.PreMMR + 1, Similarity: en.Similarity}
	if en.Decayed {
		age := en.AgeDays
		n.AgeDays = &age
	}
	return n
}

// breakdown spells out how the chunk's score came about.
func breakdown(en *Entry, s Settings) string {
	var parts []string
	switch {
	case en.Specificity > 0:
		parts = append(parts, "the query names this file exactly (exact-path results come first, scored 1)")
	default:
		parts = append(parts, fmt.Sprintf("vector %.3f × %g + %s %.3f × %g = %.3f", en.VectorScore, s.VectorWeight,
			keywordLabel(en), en.KeywordScore, s.TextWeight, en.ContentScore))
	}
	if en.Decayed {
		parts = append(parts, fmt.Sprintf("decay ×%.3f (%.0f days old, half-life %g days)", en.DecayFactor, en.AgeDays, s.HalfLifeDays))
	} else if en.Specificity == 0 {
		parts = append(parts, "no decay ("+evergreenWhy(en.Path)+")")
	}
	if en.ImportanceFactor != 1 {
		parts = append(parts, fmt.Sprintf("importance ×%.2f", en.ImportanceFactor))
	}
	return strings.Join(parts, ", ")
}

func keywordLabel(en *Entry) string {
	switch {
	case en.TextScore > 0:
		return "keyword"
	case en.PathScore > 0:
		return "path match"
	}
	return "keyword"
}

func evergreenWhy(path string) string {
	if Evergreen(path) {
		return "evergreen file"
	}
	return "no date"
}

func (e Explanation) returned(c *ChunkFacts, sc Scene) Explanation {
	en := c.Entry
	e.Chunk = numbers(c)
	e = e.set(Returned, fmt.Sprintf("returned at rank %d of %d, lines %d-%d, score %.3f: %s", c.ResultRank, len(sc.Results),
		c.StartLine, c.EndLine, scoreShown(en), breakdown(en, sc.Settings)))
	if en.Score < sc.Settings.MinScore && en.Specificity == 0 {
		if slices.ContainsFunc(sc.Results, func(r *Entry) bool { return r.Score >= sc.Settings.MinScore }) {
			e.Notes = append(e.Notes, fmt.Sprintf("below the minimum score %g, kept because keyword matches without a vector part fill the results up", sc.Settings.MinScore))
		} else {
			e.Notes = append(e.Notes, fmt.Sprintf("below the minimum score %g: nothing reached the minimum, so memory_search returns the keyword matches instead", sc.Settings.MinScore))
		}
	}
	return e
}

func scoreShown(en *Entry) float64 { return en.Score }

func (e Explanation) candidate(c *ChunkFacts, sc Scene) Explanation {
	en, s := c.Entry, sc.Settings
	e.Chunk = numbers(c)
	lines := fmt.Sprintf("its best chunk (lines %d-%d)", c.StartLine, c.EndLine)
	if en.Score < s.MinScore {
		undecayed := en.BaseScore * en.ImportanceFactor
		if en.Decayed && undecayed >= s.MinScore {
			return e.set(DecayedBelow, fmt.Sprintf("%s decayed below the minimum score %g: %.3f × %.3f (%.0f days old, half-life %g days) = %.3f",
				lines, s.MinScore, undecayed, en.DecayFactor, en.AgeDays, s.HalfLifeDays, en.Score))
		}
		return e.set(BelowMinScore, fmt.Sprintf("%s scores %.3f, below the minimum %g: %s", lines, en.Score, s.MinScore, breakdown(en, s)))
	}
	rank := en.RankPassing
	if en.RankPassingNoMMR < rank && en.SimilarTo != "" && en.RankPassingNoMMR <= s.MaxResults {
		return e.set(DroppedByMMR, fmt.Sprintf("%s scores %.3f but MMR moved it from rank %d to %d, beyond the %d returned: too similar to %s (Jaccard %.2f of their words)",
			lines, en.Score, en.RankPassingNoMMR, rank, s.MaxResults, sc.Describe(en.SimilarTo), en.Similarity))
	}
	return e.set(BeyondCount, fmt.Sprintf("%s scores %.3f and ranks %d, beyond the %d results returned: %s", lines, en.Score, rank, s.MaxResults, breakdown(en, s)))
}

// MarkRanks sets, for every entry at or above minScore, its rank among
// those entries (the list the results are cut from), with and without
// MMR's reordering.
func MarkRanks(merged []*Entry, minScore float64) {
	var passing []*Entry
	for _, e := range merged {
		if e.Score >= minScore {
			passing = append(passing, e)
		}
	}
	for i, e := range passing {
		e.RankPassing = i + 1
	}
	byPre := slices.Clone(passing)
	slices.SortStableFunc(byPre, func(a, b *Entry) int { return a.PreMMR - b.PreMMR })
	for i, e := range byPre {
		e.RankPassingNoMMR = i + 1
	}
}

func (e Explanation) notCandidate(cs []ChunkFacts, sc Scene) Explanation {
	var best *ChunkFacts
	for i := range cs {
		if c := &cs[i]; c.HasVector && (best == nil || c.Vector > best.Vector) {
			best = c
		}
	}
	kw := "no chunk contains every word of the query (the keyword search ANDs them) nor is named by it"
	if best == nil {
		return e.set(NotCandidate, "not a candidate: "+kw+", and no vector search ran")
	}
	return e.set(NotCandidate, fmt.Sprintf("not a candidate: %s, and its nearest chunk (lines %d-%d, similarity %.3f) ranks %d of %d by vector: only the %d nearest are considered",
		kw, best.StartLine, best.EndLine, best.Vector, best.VectorRank, best.VectorOf, sc.Candidates))
}
