package recall

import (
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strings"
)

// FTSQuery is OpenClaw's buildFtsQuery: every word of the query, quoted,
// joined by AND (FTS5 syntax). ok is false when the query has no word.
func FTSQuery(raw string) (string, bool) {
	return matchQuery(wordRuns(raw, false))
}

func matchQuery(terms []string) (string, bool) {
	if len(terms) == 0 {
		return "", false
	}
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = `"` + strings.ReplaceAll(t, `"`, "") + `"`
	}
	return strings.Join(quoted, " AND "), true
}

// RankToScore maps an FTS5 bm25 rank (negative: lower is better) to a
// score in (0, 1): |r|/(1+|r|) for negative ranks, 1/(1+r) otherwise,
// 0.001 for a rank that is not a number.
func RankToScore(rank float64) float64 {
	if math.IsNaN(rank) || math.IsInf(rank, 0) {
		return 1.0 / 1e3
	}
	if rank < 0 {
		relevance := -rank
		return relevance / (1 + relevance)
	}
	return 1 / (1 + rank)
}

// Plan is one FTS query over a table: a MATCH expression (empty for
// none) and the terms every row must contain as substrings (the words
// FTS5's trigram tokenizer cannot match, shorter than three characters,
// or non-ASCII words in a path).
type Plan struct {
	Query     string // the text the plan came from
	Match     string
	Substring []string
}

// Empty reports a plan that selects nothing.
func (p Plan) Empty() bool { return p.Match == "" && len(p.Substring) == 0 }

// BodyPlan is how OpenClaw queries the chunks' text for a query: the
// unicode61 tokenizer gets every word in a MATCH; trigram gets words of
// three characters or more in the MATCH and shorter ones as substrings.
func BodyPlan(query, tokenizer string) Plan {
	return keywordPlan(query, tokenizer, false)
}

func keywordPlan(query, tokenizer string, withMarks bool) Plan {
	if tokenizer != "trigram" {
		m, _ := FTSQuery(query)
		return Plan{Query: query, Match: m}
	}
	p := Plan{Query: query}
	var terms []string
	for _, t := range wordRuns(query, withMarks) {
		if len([]rune(t)) < 3 {
			p.Substring = append(p.Substring, t)
			continue
		}
		terms = append(terms, t)
	}
	p.Match, _ = matchQuery(terms)
	return p
}

// PathPlans are the queries OpenClaw runs over the indexed paths, in its
// order, without repeats: the keyword plan of the query (and of its NFD
// form with trigram), then, with unicode61, plans that match the ASCII
// words and require the others as substrings (NFC and NFD forms).
func PathPlans(query, tokenizer string) []Plan {
	var plans []Plan
	seen := map[string]bool{}
	add := func(p Plan) {
		key, _ := json.Marshal([]any{p.Match, p.Substring})
		if !seen[string(key)] {
			seen[string(key)] = true
			plans = append(plans, p)
		}
	}
	forms := []string{query}
	if tokenizer == "trigram" {
		forms = uniqueStrings([]string{nfc(query), nfd(query)})
	}
	for _, q := range forms {
		add(keywordPlan(q, tokenizer, true))
	}
	if tokenizer == "trigram" {
		return plans
	}
	for _, q := range uniqueStrings([]string{nfc(query), nfd(query)}) {
		var ascii, other []string
		for _, t := range wordRuns(q, true) {
			if isASCII(t) {
				ascii = append(ascii, t)
			} else {
				other = append(other, t)
			}
		}
		if len(other) > 0 {
			m, _ := matchQuery(ascii)
			add(Plan{Query: q, Match: m, Substring: other})
		}
	}
	return plans
}

// ContainsFold is the substring test of a plan's terms: the NFC form of
// term, case-insensitively, in the NFC form of value.
type ContainsFold struct{ res map[string]*regexp.Regexp }

// Contains reports whether value contains term.
func (c *ContainsFold) Contains(value, term string) bool {
	if c.res == nil {
		c.res = map[string]*regexp.Regexp{}
	}
	re := c.res[term]
	if re == nil {
		re = literalMatcher(term, false)
		c.res[term] = re
	}
	return re.MatchString(nfc(value))
}

// FallbackWords are the words of a conversational query worth searching
// alone (OpenClaw's extractKeywords, its first six), without the query
// itself.
func FallbackWords(query, tokenizer string) []string {
	whole := lower(strings.TrimSpace(query))
	var out []string
	for _, k := range ExtractKeywords(query, tokenizer) {
		if k != whole {
			out = append(out, k)
		}
	}
	if len(out) > 6 {
		out = out[:6]
	}
	return out
}

// SameKeywordQuery reports whether the fallback words would run the same
// FTS query as the whole query (then OpenClaw does not run them).
func SameKeywordQuery(query string, words []string) bool {
	a, okA := FTSQuery(query)
	b, okB := FTSQuery(strings.Join(words, " "))
	return okA == okB && lower(a) == lower(b)
}

// queryMatcher is one word of the ranking query: as a whole token of a
// chunk (OpenClaw's case-insensitive whole-string match, which is simple
// case folding: strings.EqualFold), and anywhere in its path.
type queryMatcher struct {
	word      string
	substring *regexp.Regexp
}

// Booster adds OpenClaw's lexical boost to a body hit's FTS score: the
// share of the query's words the chunk has as tokens (0.45), their
// density among its distinct tokens (0.2), 0.18 per word in its path, and
// up to 0.18 for its length; capped at 1.
type Booster struct{ matchers []queryMatcher }

// NewBooster prepares the boost for a ranking query.
func NewBooster(rankingQuery string) *Booster {
	b := &Booster{}
	for _, t := range uniqueStrings(searchTokens(rankingQuery)) {
		b.matchers = append(b.matchers, queryMatcher{nfc(t), literalMatcher(t, false)})
	}
	return b
}

// searchTokens is OpenClaw's normalizeSearchTokens: NFC, word runs,
// lower-cased.
func searchTokens(s string) []string {
	runs := wordRuns(nfc(s), false)
	for i, r := range runs {
		runs[i] = lower(r)
	}
	return runs
}

// Score is the boosted score of a chunk with path and text whose FTS
// score is fts.
func (b *Booster) Score(path, text string, fts float64) float64 {
	if len(b.matchers) == 0 {
		return fts
	}
	tokens := searchTokens(text)
	distinct := map[string]bool{}
	for _, t := range tokens {
		distinct[t] = true
	}
	overlap := 0
	for _, m := range b.matchers {
		if slices.ContainsFunc(tokens, func(t string) bool { return strings.EqualFold(t, m.word) }) {
			overlap++
		}
	}
	unique := float64(overlap) / float64(len(b.matchers))
	density := float64(overlap) / float64(max(len(distinct), 1))
	p := nfc(path)
	pathBoost := 0.0
	for _, m := range b.matchers {
		if m.substring.MatchString(p) {
			pathBoost += .18
		}
	}
	lengthBoost := math.Min(float64(utf16Len(text))/160, .18)
	lexical := unique*.45 + density*.2 + pathBoost + lengthBoost
	return math.Min(1, fts+lexical)
}

// ExactPath is OpenClaw's exact-path matcher for a query: 3 when the
// query is the path, 2 its file name, 1 its name without the extension
// (the last two only for a query without a folder), else 0. Case, NFC,
// backslashes and a leading ./ aside.
type ExactPath struct {
	query  string
	hasDir bool
}

// NewExactPath prepares the matcher.
func NewExactPath(query string) ExactPath {
	q := pathIdentifier(query)
	if q == "." {
		q = ""
	}
	return ExactPath{q, strings.Contains(q, "/")}
}

func pathIdentifier(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), `\`, "/")
	s = strings.TrimPrefix(s, "./")
	return lower(nfc(s))
}

// Specificity scores a path.
func (e ExactPath) Specificity(path string) int {
	if e.query == "" {
		return 0
	}
	p := pathIdentifier(path)
	if p == e.query {
		return 3
	}
	if e.hasDir {
		return 0
	}
	base := p[strings.LastIndex(p, "/")+1:]
	if base == e.query {
		return 2
	}
	stem := base
	if dot := strings.LastIndex(base, "."); dot > 0 {
		stem = base[:dot]
	}
	if stem == e.query {
		return 1
	}
	return 0
}

// ExactPathPatterns are the SQL LIKE patterns (escape \) that preselect
// the paths a query could name exactly.
func ExactPathPatterns(query string) []string {
	q := strings.TrimPrefix(strings.ReplaceAll(strings.TrimSpace(query), `\`, "/"), "./")
	if q == "" || q == "." {
		return nil
	}
	forms := uniqueStrings([]string{nfc(q), nfd(q)})
	if !isASCII(q) {
		for _, f := range forms[:len(forms):len(forms)] {
			forms = append(forms, lower(f), upperJS(f))
		}
		forms = uniqueStrings(forms)
	}
	var patterns []string
	for _, f := range forms {
		e := likeEscape(f)
		if strings.Contains(q, "/") {
			patterns = append(patterns, e)
			continue
		}
		patterns = append(patterns, e, e+".%", "%/"+e, "%/"+e+".%")
	}
	if !isASCII(q) {
		anchors := asciiAnchorRE().FindAllString(lower(nfd(q)), -1)
		if len(anchors) > 0 {
			longest := anchors[0]
			for _, a := range anchors[1:] {
				if len(a) > len(longest) {
					longest = a
				}
			}
			patterns = append(patterns, "%"+likeEscape(longest)+"%")
		}
		if lower(q) != upperJS(q) {
			for _, a := range unicodeAnchors(q) {
				patterns = append(patterns, "%"+likeEscape(a)+"%")
			}
		}
	}
	return uniqueStrings(patterns)
}

func likeEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, "%", `\%`)
	return strings.ReplaceAll(s, "_", `\_`)
}

// unicodeAnchors are the first non-ASCII character of s, lower and upper.
func unicodeAnchors(s string) []string {
	for _, r := range s {
		if r >= 0x80 {
			c := string(r)
			return uniqueStrings([]string{c, lower(c), upperJS(c)})
		}
	}
	return nil
}
