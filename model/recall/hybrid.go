package recall

import (
	"math"
	"slices"
	"strings"
)

// Settings are the ranking settings OpenClaw resolves for an agent.
type Settings struct {
	MaxResults   int
	MinScore     float64
	VectorWeight float64
	TextWeight   float64
	// Multiplier is the hybrid candidate multiplier (candidates per leg:
	// min(200, max(200, MaxResults) × Multiplier)).
	Multiplier   float64
	MMR          bool
	MMRLambda    float64
	Decay        bool
	HalfLifeDays float64
}

// Candidates is how many chunks each leg brings.
func (s Settings) Candidates() int {
	universe := max(CandidateLimit, s.MaxResults)
	return min(CandidateLimit, max(1, int(math.Floor(float64(universe)*s.Multiplier))))
}

// Entry is a chunk through the merge: its parts, what each step did to
// its score, and where it ended up. Explain reads it.
type Entry struct {
	Hit
	HasVector, HasKeyword bool
	// RankingScore is the keyword leg's ranking score (boosted body score,
	// path score).
	KeywordRanking float64
	// KeywordScore is the keyword part of the content score.
	KeywordScore float64
	// ContentScore is vectorWeight × vector + textWeight × keyword.
	ContentScore float64
	// LexicalRank orders body matches without an FTS score.
	LexicalRank float64
	// BaseScore is the score before decay and importance.
	BaseScore float64
	// Decay: Dated is the date of a daily note (or an mtime) it decayed
	// from; AgeDays and DecayFactor what it did. Evergreen files keep 1.
	Decayed     bool
	AgeDays     float64
	DecayFactor float64
	// ImportanceFactor is the curated importance multiplier (1 without).
	ImportanceFactor float64
	// Ranking is the score after decay and importance (the order before
	// MMR); Score what memory_search returns.
	Ranking float64
	// PreMMR is the 0-based position before maximal marginal relevance;
	// Position after it. SimilarTo names the already chosen chunk it
	// resembled most when MMR placed it (Similarity, Jaccard).
	PreMMR, Position int
	SimilarTo        string
	Similarity       float64
	// RankPassing is the 1-based rank among the entries at or above the
	// minimum score, RankPassingNoMMR the same without MMR (MarkRanks).
	RankPassing, RankPassingNoMMR int
}

// Timestamps says how old each candidate's content is: what OpenClaw
// reads for decay besides the path (a daily note's date).
type Timestamps struct {
	NowMs float64
	// FileMtimeMs holds the mtime of memory files that are neither dated
	// nor evergreen (OpenClaw stats them at query time), by path.
	FileMtimeMs map[string]float64
}

// Merge is OpenClaw's mergeHybridResults: the two legs by chunk, content
// score from the weights, decay, importance, then exact-path tiers (3, 2,
// 1, each reranked by MMR and scored 1) before the rest by score, reranked
// by MMR.
func Merge(query string, vector, keyword []Hit, s Settings, ts Timestamps) []*Entry {
	entries := joinLegs(query, vector, keyword)
	for _, e := range entries {
		scoreEntry(e, s)
		decay(e, s, ts)
		e.ImportanceFactor = importanceFactor(e.Meta.Importance)
		e.Score *= e.ImportanceFactor
	}
	entries = slices.DeleteFunc(entries, invalidProject)
	for _, e := range entries {
		e.Ranking = e.Score
		switch {
		case e.Specificity > 0:
			e.Score = 1
		case e.ContentScore == 0:
			e.Score = 0
		}
	}
	var out []*Entry
	for spec := 3; spec >= 1; spec-- {
		out = append(out, exactTier(entries, spec, s, len(out))...)
	}
	var rest []*Entry
	for _, e := range entries {
		if e.Specificity == 0 {
			rest = append(rest, e)
		}
	}
	slices.SortStableFunc(rest, func(a, b *Entry) int {
		if c := cmpDesc(a.Score, b.Score); c != 0 {
			return c
		}
		return compareRanking(a, b)
	})
	out = append(out, rerank(rest, s, false, len(out))...)
	for i, e := range out {
		e.Position = i
	}
	return out
}

func joinLegs(query string, vector, keyword []Hit) []*Entry {
	exact := NewExactPath(query)
	byID := map[string]*Entry{}
	var order []*Entry
	for _, v := range vector {
		e := &Entry{Hit: v, HasVector: true}
		e.VectorScore, e.Score, e.TextScore, e.PathScore, e.HasBody = v.Score, 0, 0, 0, false
		e.Specificity = exact.Specificity(v.Path)
		byID[v.ID] = e
		order = append(order, e)
	}
	for _, k := range keyword {
		if e := byID[k.ID]; e != nil {
			e.TextScore, e.HasBody, e.KeywordRanking, e.PathScore = k.TextScore, k.HasBody, k.Score, k.PathScore
			e.Specificity = max(e.Specificity, k.Specificity)
			e.HasKeyword = true
			if e.Meta.Importance == nil {
				e.Meta.Importance = k.Meta.Importance
			}
			e.Meta.Triggers = cmpOr(e.Meta.Triggers, k.Meta.Triggers)
			e.Meta.ProjectKey = cmpOr(e.Meta.ProjectKey, k.Meta.ProjectKey)
			if e.Meta.Provenance == nil {
				e.Meta.Provenance = k.Meta.Provenance
			}
			if k.Snippet != "" {
				e.Snippet = k.Snippet
			}
			continue
		}
		e := &Entry{Hit: k, HasKeyword: true, KeywordRanking: k.Score}
		e.VectorScore = 0
		byID[k.ID] = e
		order = append(order, e)
	}
	return order
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// scoreEntry sets the content score and the score decay starts from.
func scoreEntry(e *Entry, s Settings) {
	switch {
	case e.TextScore > 0:
		e.KeywordScore = e.KeywordRanking
	case e.Specificity > 0:
		e.KeywordScore = 0
	default:
		e.KeywordScore = e.PathScore
	}
	e.ContentScore = s.VectorWeight*e.VectorScore + s.TextWeight*e.KeywordScore
	if e.HasBody && e.TextScore == 0 {
		e.LexicalRank = e.KeywordRanking
	}
	switch {
	case e.Specificity > 0 && s.Decay:
		e.Score = exactTie(e.ContentScore)
	case e.Specificity > 0 && e.ContentScore > 0:
		e.Score = e.ContentScore
	case e.Specificity > 0:
		e.Score = 1
	case e.ContentScore == 0:
		e.Score = e.LexicalRank
	default:
		e.Score = e.ContentScore
	}
	e.BaseScore = e.Score
	e.DecayFactor, e.ImportanceFactor = 1, 1
}

// exactTie is how an exact path ranks within its tier when decay is on.
func exactTie(content float64) float64 { return (1 + math.Max(0, math.Min(1, content))) / 2 }

func invalidProject(e *Entry) bool {
	for _, k := range strings.Split(e.Meta.ProjectKey, ";") {
		if strings.TrimSpace(k) == "!invalid-project-annotation" {
			return true
		}
	}
	return false
}

// importanceFactor is 0.75 + 0.05 × importance (1–10), 1 without one.
func importanceFactor(importance *float64) float64 {
	if importance == nil {
		return 1
	}
	return .75 + math.Max(1, math.Min(10, math.Floor(*importance)))*.05
}

// compareRanking is OpenClaw's compareRankingScores.
func compareRanking(a, b *Entry) int {
	if c := cmpDesc(a.Ranking, b.Ranking); c != 0 {
		return c
	}
	if c := cmpDesc(a.LexicalRank, b.LexicalRank); c != 0 {
		return c
	}
	return comparePlace(a, b)
}

// comparePlace orders by path (localeCompare), start and end line.
func comparePlace(a, b *Entry) int {
	if c := localeCompare(a.Path, b.Path); c != 0 {
		return c
	}
	if a.StartLine != b.StartLine {
		return a.StartLine - b.StartLine
	}
	return a.EndLine - b.EndLine
}

func exactTier(entries []*Entry, spec int, s Settings, offset int) []*Entry {
	var tier []*Entry
	for _, e := range entries {
		if e.Specificity == spec {
			tier = append(tier, e)
		}
	}
	slices.SortStableFunc(tier, compareRanking)
	if s.Decay {
		return rerank(tier, s, true, offset)
	}
	var backed, pathOnly []*Entry
	for _, e := range tier {
		if e.ContentScore > 0 || e.LexicalRank > 0 {
			backed = append(backed, e)
		} else {
			pathOnly = append(pathOnly, e)
		}
	}
	backed = rerank(backed, s, true, offset)
	return append(backed, rerank(pathOnly, s, true, offset+len(backed))...)
}

// rerank applies MMR when it is on. An exact-path tier is reranked on its
// ranking scores and keeps the score 1. offset is where the group starts
// in the whole list.
func rerank(entries []*Entry, s Settings, exact bool, offset int) []*Entry {
	for i, e := range entries {
		e.PreMMR = offset + i
	}
	if !s.MMR {
		return entries
	}
	if exact {
		for _, e := range entries {
			e.Score = e.Ranking
		}
	}
	out := mmr(entries, s.MMRLambda)
	if exact {
		for _, e := range out {
			e.Score = 1
		}
	}
	return out
}
