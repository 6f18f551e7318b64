package recall

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"clawvault-tui/jscompat"
)

const dayMs = 864e5

var (
	datedPathRE = jscompat.LazyRegexp(`(?:^|/)memory/(?:[^/]+/)*([0-9]{4})-([0-9]{2})-([0-9]{2})(?:-[^/]+)?\.md$`)
)

func normalizeMemoryPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if len(p) >= 2 && p[:2] == "./" {
		p = p[2:]
	}
	return p
}

// NoteDate is the date of a dated memory note (memory/…/YYYY-MM-DD[-x].md),
// midnight UTC, in ms.
func NoteDate(path string) (float64, bool) {
	m := datedPathRE().FindStringSubmatch(normalizeMemoryPath(path))
	if m == nil {
		return 0, false
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	d, _ := strconv.Atoi(m[3])
	if y < 100 { // Date.UTC reads years 0–99 as 1900–1999: never the same date
		return 0, false
	}
	t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
	if t.Year() != y || int(t.Month()) != mo || t.Day() != d {
		return 0, false
	}
	return float64(t.UnixMilli()), true
}

// Evergreen reports a memory file that never decays: MEMORY.md, USER.md
// and undated files under memory/.
func Evergreen(path string) bool {
	p := normalizeMemoryPath(path)
	if p == "MEMORY.md" || p == "USER.md" {
		return true
	}
	if len(p) < 7 || p[:7] != "memory/" {
		return false
	}
	return !datedPathRE().MatchString(p)
}

// NeedsFileTime reports a memory file whose age OpenClaw takes from its
// mtime at query time (neither dated nor evergreen: MEMORY.md's siblings,
// extra paths).
func NeedsFileTime(source, path string) bool {
	if source != "memory" {
		return false
	}
	_, dated := NoteDate(path)
	return !dated && !Evergreen(path)
}

// timestamp is when a chunk's content dates from, for decay.
func timestamp(h *Hit, ts Timestamps) (float64, bool) {
	if h.Source == "sessions" {
		return h.SourceMtime, h.HasSourceMtime && !math.IsNaN(h.SourceMtime) && !math.IsInf(h.SourceMtime, 0)
	}
	if d, ok := NoteDate(h.Path); ok {
		return d, true
	}
	if h.Source == "memory" && Evergreen(h.Path) {
		return 0, false
	}
	t, ok := ts.FileMtimeMs[h.Path]
	return t, ok
}

// decay halves a chunk's score every HalfLifeDays of its age.
func decay(e *Entry, s Settings, ts Timestamps) {
	if !s.Decay {
		return
	}
	t, ok := timestamp(&e.Hit, ts)
	if !ok {
		return
	}
	age := math.Max(0, (ts.NowMs-t)/dayMs)
	if math.IsNaN(s.HalfLifeDays) || math.IsInf(s.HalfLifeDays, 0) || s.HalfLifeDays <= 0 || math.IsInf(age, 0) || math.IsNaN(age) {
		return
	}
	e.Decayed, e.AgeDays = true, age
	e.DecayFactor = math.Exp(-(math.Ln2 / s.HalfLifeDays) * age)
	e.Score = e.Score * e.DecayFactor
}

// mmr is OpenClaw's mmrRerank: repeatedly the item with the best
// λ·relevance − (1−λ)·(its highest Jaccard similarity to an item already
// chosen), relevance being the score scaled to [0, 1].
func mmr(items []*Entry, lambda float64) []*Entry {
	if len(items) <= 1 {
		return items
	}
	l := math.Max(0, math.Min(1, lambda))
	if l == 1 {
		out := slices.Clone(items)
		slices.SortStableFunc(out, func(a, b *Entry) int { return cmpDesc(a.Score, b.Score) })
		return out
	}
	type prep struct {
		e         *Entry
		tokens    []int32 // interned, sorted
		emptyText string
		relevance float64
		maxSim    float64
	}
	ids := map[string]int32{}
	ps := make([]*prep, len(items))
	hi, lo := math.Inf(-1), math.Inf(1)
	for i, e := range items {
		p := &prep{e: e, tokens: internTokens(mmrTokens(e.Snippet), ids)}
		if len(p.tokens) == 0 {
			p.emptyText = lower(jscompat.JSTrim(e.Snippet))
		}
		ps[i] = p
		hi, lo = math.Max(hi, e.Score), math.Min(lo, e.Score)
	}
	for _, p := range ps {
		p.relevance = 1
		if hi-lo != 0 {
			p.relevance = (p.e.Score - lo) / (hi - lo)
		}
	}
	out := make([]*Entry, 0, len(items))
	remaining := slices.Clone(ps)
	for len(remaining) > 0 {
		best, bestScore := -1, math.Inf(-1)
		for i, c := range remaining {
			score := l*c.relevance - (1-l)*c.maxSim
			if score > bestScore || (score == bestScore && best >= 0 && c.e.Score > remaining[best].e.Score) {
				best, bestScore = i, score
			}
		}
		chosen := remaining[best]
		out = append(out, chosen.e)
		remaining = slices.Delete(remaining, best, best+1)
		for _, c := range remaining {
			var sim float64
			if len(c.tokens) == 0 && len(chosen.tokens) == 0 {
				if c.emptyText == chosen.emptyText {
					sim = 1
				}
			} else {
				sim = jaccardSorted(c.tokens, chosen.tokens)
			}
			if sim > c.maxSim {
				c.maxSim = sim
				c.e.SimilarTo, c.e.Similarity = chosen.e.ID, sim
			}
		}
	}
	return out
}

// mmrTokens is OpenClaw's MMR tokenizer: ASCII word runs of the
// lower-cased text, and CJK characters with their adjacent pairs.
func mmrTokens(text string) map[string]bool {
	low := lower(jscompat.JSTrim(text))
	tokens := map[string]bool{}
	hasCJK := false
	for i := 0; i < len(low); {
		c := low[i]
		if !isMMRWordByte(c) {
			if c >= utf8.RuneSelf {
				r, size := utf8.DecodeRuneInString(low[i:])
				hasCJK = hasCJK || isCJK(r)
				i += size
				continue
			}
			i++
			continue
		}
		j := i + 1
		for j < len(low) && isMMRWordByte(low[j]) {
			j++
		}
		tokens[low[i:j]] = true
		i = j
	}
	if !hasCJK {
		return tokens
	}
	prev := ""
	var unigrams []string
	for _, r := range low {
		if !isCJK(r) {
			prev = ""
			continue
		}
		c := string(r)
		if prev != "" {
			tokens[prev+c] = true
		}
		unigrams = append(unigrams, c)
		prev = c
	}
	for _, u := range unigrams {
		tokens[u] = true
	}
	return tokens
}

// isMMRWordByte is [a-z0-9_].
func isMMRWordByte(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' }

// isCJK is OpenClaw's CJK_RE: kana, CJK ideographs (and extension A),
// Hangul syllables and jamo.
func isCJK(r rune) bool {
	return (r >= 0x3040 && r <= 0x30ff) || (r >= 0x3400 && r <= 0x4dbf) || (r >= 0x4e00 && r <= 0x9fff) ||
		(r >= 0xac00 && r <= 0xd7af) || (r >= 0x1100 && r <= 0x11ff)
}

// internTokens numbers a token set (ids shared by one MMR run), sorted,
// so that Jaccard is a merge of two short slices.
func internTokens(tokens map[string]bool, ids map[string]int32) []int32 {
	out := make([]int32, 0, len(tokens))
	for t := range tokens {
		id, ok := ids[t]
		if !ok {
			id = int32(len(ids))
			ids[t] = id
		}
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// jaccardSorted is jaccard over interned sorted sets.
func jaccardSorted(a, b []int32) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// SelectHybrid is OpenClaw's selectHybridSearchResults: the entries at or
// above minScore in order, up to limit; when fewer, keyword matches
// without a vector part that fell below it fill up, in order (all keyword
// matches with a score, when nothing reached it).
func SelectHybrid(merged []*Entry, keyword []Hit, limit int, minScore float64) []*Entry {
	var strict []*Entry
	for _, e := range merged {
		if e.Score >= minScore {
			strict = append(strict, e)
		}
	}
	selected := strict[:min(len(strict), limit):min(len(strict), limit)]
	if len(keyword) == 0 || len(selected) == limit {
		return selected
	}
	keys := map[string]bool{}
	for _, k := range keyword {
		keys[rangeKey(k.Source, k.Path, k.StartLine, k.EndLine)] = true
	}
	key := func(e *Entry) string { return rangeKey(e.Source, e.Path, e.StartLine, e.EndLine) }
	if len(strict) == 0 {
		var out []*Entry
		for _, e := range merged {
			if e.Score >= 0 && keys[key(e)] && len(out) < limit {
				out = append(out, e)
			}
		}
		return out
	}
	seen := map[string]bool{}
	for _, e := range selected {
		seen[key(e)] = true
	}
	for _, e := range merged {
		if len(selected) == limit {
			break
		}
		k := key(e)
		if e.Score < minScore && e.VectorScore == 0 && keys[k] && !seen[k] {
			seen[k] = true
			selected = append(selected, e)
		}
	}
	return selected
}

// KeywordOnly is OpenClaw's finalizeKeywordOnlyResults, for an agent
// without an embedding provider: keyword hits decayed (an exact path at
// its tie score), weighted by importance, ordered as keyword hits, exact
// paths scored 1; those at or above minScore up to limit, else any.
func KeywordOnly(hits []Hit, s Settings, ts Timestamps, limit int) []*Entry {
	entries := make([]*Entry, 0, len(hits))
	for _, h := range hits {
		e := &Entry{Hit: h, HasKeyword: true, KeywordRanking: h.Score, DecayFactor: 1}
		if s.Decay && e.Specificity > 0 {
			content := 0.0
			if e.HasBody {
				content = e.Score
			}
			e.Score = exactTie(content)
		}
		e.BaseScore = e.Score
		decay(e, s, ts)
		e.ImportanceFactor = importanceFactor(e.Meta.Importance)
		e.Score *= e.ImportanceFactor
		entries = append(entries, e)
	}
	entries = slices.DeleteFunc(entries, invalidProject)
	slices.SortStableFunc(entries, func(a, b *Entry) int { return compareKeywordHits(&a.Hit, &b.Hit, !s.Decay) })
	for i, e := range entries {
		e.Ranking = e.Score
		if e.Specificity > 0 {
			e.Score = 1
		}
		e.PreMMR, e.Position = i, i
	}
	var strict []*Entry
	for _, e := range entries {
		if e.Score >= s.MinScore {
			strict = append(strict, e)
		}
	}
	if len(strict) == 0 {
		for _, e := range entries {
			if e.Score >= 0 {
				strict = append(strict, e)
			}
		}
	}
	return strict[:min(len(strict), limit)]
}

// VectorOnly is OpenClaw's ranking without a keyword index: cosine
// scores decayed and weighted, those at or above minScore by score.
func VectorOnly(hits []Hit, s Settings, ts Timestamps, limit int) []*Entry {
	var out []*Entry
	for _, h := range hits {
		e := &Entry{Hit: h, HasVector: true, DecayFactor: 1}
		e.VectorScore = h.Score
		e.BaseScore = e.Score
		decay(e, s, ts)
		e.ImportanceFactor = importanceFactor(e.Meta.Importance)
		e.Score *= e.ImportanceFactor
		e.Ranking = e.Score
		if !invalidProject(e) && e.Score >= s.MinScore {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b *Entry) int { return cmp.Or(cmpDesc(a.Score, b.Score), comparePlace(a, b)) })
	for i, e := range out {
		e.PreMMR, e.Position = i, i
	}
	return out[:min(len(out), limit)]
}

func itoa(n int) string { return strconv.Itoa(n) }
