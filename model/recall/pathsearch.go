package recall

import (
	"cmp"
	"slices"
	"strings"
)

// PathRow is one indexed file (memory_index_paths_fts) with the first of
// its chunks, as a path query returned it.
type PathRow struct {
	Path, Source string
	// Rank is the row's bm25 rank for the plan (0 without a MATCH).
	Rank               float64
	ChunkID            string
	StartLine, EndLine int
}

// PlanRows is what one path plan selected: every live file the plan
// matches (no limit: the selection below applies OpenClaw's).
type PlanRows struct {
	Plan Plan
	Rows []PathRow
	// UsedMatch: the rows came from the MATCH (false after FTS5 refused
	// the expression and the plan's words were matched as substrings).
	UsedMatch bool
}

// PathSearch is OpenClaw's searchPathKeyword, given the rows its SQL
// selects: files whose path is the query (or its name or stem) first, then
// files whose path matches the query's words, by bm25.
type PathSearch struct {
	ExactQuery string
	Limit      int
	// Plans are the rows of PathPlans(query) in order.
	Plans []PlanRows
	// Live are every file with a chunk, for the exact-path candidates when
	// the first plan cannot preselect them.
	Live []PathRow
	// FirstPlanFailed: FTS5 refused the first plan's MATCH.
	FirstPlanFailed bool
}

// NeedsLive reports whether the exact-path candidates come from Live (the
// first plan cannot preselect them).
func (s PathSearch) NeedsLive() bool {
	return len(ExactPathPatterns(s.ExactQuery)) > 0 &&
		!(len(s.Plans) > 0 && isASCII(s.ExactQuery) && !s.Plans[0].Plan.Empty() && !s.FirstPlanFailed)
}

// Hits selects the path hits (snippets are filled in by the caller).
func (s PathSearch) Hits() []Hit {
	match := NewExactPath(s.ExactQuery)
	exact := s.exactRows(match)
	byKey := map[string]*Hit{}
	var order []*Hit
	for _, r := range exact {
		h := &Hit{ID: r.ChunkID, Path: r.Path, Source: r.Source, StartLine: r.StartLine, EndLine: r.EndLine,
			Specificity: match.Specificity(r.Path)}
		byKey[r.ChunkID] = h
		order = append(order, h)
	}
	if !slices.ContainsFunc(s.Plans, func(p PlanRows) bool { return !p.Plan.Empty() }) {
		return derefHits(order)
	}
	lexical := s.lexicalHits(match)
	slices.SortStableFunc(lexical, comparePathHits)
	nonExact := 0
	for _, h := range lexical {
		if h.Specificity > 0 {
			if e := byKey[h.ID]; e != nil {
				e.PathScore = max(e.PathScore, h.PathScore)
				e.Score = max(e.Score, h.Score)
				e.Specificity = max(e.Specificity, h.Specificity)
			}
			continue
		}
		if nonExact >= s.Limit {
			continue
		}
		if _, dup := byKey[h.ID]; !dup {
			order = append(order, h)
		}
		byKey[h.ID] = h
		nonExact++
	}
	out := derefHits(order)
	slices.SortStableFunc(out, func(a, b Hit) int { return comparePathHits(&a, &b) })
	if len(out) > ExactPathLimit+s.Limit {
		out = out[:ExactPathLimit+s.Limit]
	}
	return out
}

func derefHits(hs []*Hit) []Hit {
	out := make([]Hit, len(hs))
	for i, h := range hs {
		out[i] = *h
	}
	return out
}

// exactRows are the files the query names, most specific first.
func (s PathSearch) exactRows(match ExactPath) []PathRow {
	patterns := ExactPathPatterns(s.ExactQuery)
	if len(patterns) == 0 {
		return nil
	}
	candidates := s.Live
	if !s.NeedsLive() {
		candidates = s.Plans[0].Rows
	}
	var out []PathRow
	for _, r := range candidates {
		if match.Specificity(r.Path) > 0 && slices.ContainsFunc(patterns, func(p string) bool { return Like(p, r.Path) }) {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b PathRow) int {
		if d := match.Specificity(b.Path) - match.Specificity(a.Path); d != 0 {
			return d
		}
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Source, b.Source))
	})
	if len(out) > ExactPathLimit {
		out = out[:ExactPathLimit]
	}
	return out
}

// lexicalHits are every plan's files, in each plan's two partitions
// (exact paths up to ExactPathLimit, others up to Limit, by rank), merged
// by chunk keeping the best scores.
func (s PathSearch) lexicalHits(match ExactPath) []*Hit {
	byID := map[string]*Hit{}
	var order []*Hit
	for _, p := range s.Plans {
		if p.Plan.Empty() {
			continue
		}
		for _, r := range planPartitions(p.Rows, match, s.Limit) {
			score := 1.0
			if p.UsedMatch {
				score = RankToScore(r.Rank)
			}
			spec := match.Specificity(r.Path)
			if e := byID[r.ChunkID]; e != nil {
				e.PathScore = max(e.PathScore, score)
				e.Score = max(e.Score, score)
				e.Specificity = max(e.Specificity, spec)
				continue
			}
			h := &Hit{ID: r.ChunkID, Path: r.Path, Source: r.Source, StartLine: r.StartLine, EndLine: r.EndLine,
				Score: score, PathScore: score, Specificity: spec}
			byID[r.ChunkID] = h
			order = append(order, h)
		}
	}
	return order
}

func planPartitions(rows []PathRow, match ExactPath, limit int) []PathRow {
	var exact, other []PathRow
	for _, r := range rows {
		if match.Specificity(r.Path) > 0 {
			exact = append(exact, r)
		} else {
			other = append(other, r)
		}
	}
	byRank := func(a, b PathRow) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), strings.Compare(a.Path, b.Path), strings.Compare(a.Source, b.Source))
	}
	slices.SortStableFunc(exact, byRank)
	slices.SortStableFunc(other, byRank)
	if len(exact) > ExactPathLimit {
		exact = exact[:ExactPathLimit]
	}
	if len(other) > limit {
		other = other[:limit]
	}
	return append(exact, other...)
}

func comparePathHits(a, b *Hit) int {
	if d := b.Specificity - a.Specificity; d != 0 {
		return d
	}
	if a.Specificity == 0 {
		if c := cmpDesc(a.PathScore, b.PathScore); c != 0 {
			return c
		}
	}
	return tieBreak(a.Path, b.Path, a.StartLine, b.StartLine, a.ID, b.ID)
}

// Like is SQLite's LIKE with ESCAPE '\': % any run, _ any one character,
// ASCII letters without case.
func Like(pattern, s string) bool {
	p, t := []rune(pattern), []rune(s)
	var match func(i, j int) bool
	match = func(i, j int) bool {
		for i < len(p) {
			switch c := p[i]; {
			case c == '%':
				for i < len(p) && p[i] == '%' {
					i++
				}
				if i == len(p) {
					return true
				}
				for k := j; k <= len(t); k++ {
					if match(i, k) {
						return true
					}
				}
				return false
			case c == '_':
				if j >= len(t) {
					return false
				}
			default:
				if c == '\\' && i+1 < len(p) {
					i++
					c = p[i]
				}
				if j >= len(t) || foldRune(c) != foldRune(t[j]) {
					return false
				}
			}
			i++
			j++
		}
		return j == len(t)
	}
	return match(0, 0)
}

func foldRune(r rune) rune {
	if r >= 'A' && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}
