package recall

import (
	"strings"
	"sync"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"clawvault-tui/jscompat"
)

// OpenClaw's query expansion (extractKeywords): the words of a
// conversational query that are worth a keyword search of their own, with
// stop words of seven languages dropped and Chinese, Japanese and Korean
// split the way it splits them.

var (
	segmentSplitRE = jscompat.LazyRegexp(`[\s\x{0B}\x{FEFF}\p{Zs}\x{2028}\x{2029}\p{P}]+`)
	japaneseRE     = jscompat.LazyRegexp(`[\x{3040}-\x{30ff}]`)
	japanesePartRE = jscompat.LazyRegexp(`[a-z0-9_]+|[\x{30a0}-\x{30ff}ー]+|[\x{4e00}-\x{9fff}]+|[\x{3040}-\x{309f}]{2,}`)
	hanOnlyRE      = jscompat.LazyRegexp(`^[\x{4e00}-\x{9fff}]+$`)
	hanRE          = jscompat.LazyRegexp(`[\x{4e00}-\x{9fff}]`)
	koreanRE       = jscompat.LazyRegexp(`[\x{ac00}-\x{d7af}\x{3131}-\x{3163}]`)
	hangulRE       = jscompat.LazyRegexp(`[\x{ac00}-\x{d7af}]`)
	asciiWordRE    = jscompat.LazyRegexp(`^(?i)[a-z0-9_]+$`)
	asciiAnchorRE  = jscompat.LazyRegexp(`[a-z0-9_]+`)
	lettersRE      = jscompat.LazyRegexp(`^[a-zA-Z]+$`)
	digitsRE       = jscompat.LazyRegexp(`^[0-9]+$`)
	symbolsRE      = jscompat.LazyRegexp(`^[\p{P}\p{S}]+$`)
)

var (
	stopOnce             sync.Once
	stopWords, koreanSet map[string]bool
)

func stopSets() (all, korean map[string]bool) {
	stopOnce.Do(func() {
		stopWords = make(map[string]bool, len(queryStopWords)+len(koreanStopWords))
		koreanSet = make(map[string]bool, len(koreanStopWords))
		for _, w := range queryStopWords {
			stopWords[w] = true
		}
		for _, w := range koreanStopWords {
			stopWords[w], koreanSet[w] = true, true
		}
	})
	return stopWords, koreanSet
}

// ExtractKeywords is OpenClaw's extractKeywords: the query's tokens in
// order, once each, without stop words, short Latin words and numbers.
func ExtractKeywords(query, tokenizer string) []string {
	all, _ := stopSets()
	var out []string
	seen := map[string]bool{}
	for _, t := range expansionTokens(query, tokenizer == "trigram") {
		if all[t] || !validKeyword(t) || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

func validKeyword(t string) bool {
	if t == "" {
		return false
	}
	if lettersRE().MatchString(t) && utf16Len(t) < 3 {
		return false
	}
	return !digitsRE().MatchString(t) && !symbolsRE().MatchString(t)
}

func expansionTokens(text string, trigram bool) []string {
	var tokens []string
	for _, seg := range segmentSplitRE().Split(lower(jscompat.JSTrim(text)), -1) {
		switch {
		case seg == "":
		case japaneseRE().MatchString(seg):
			tokens = append(tokens, japaneseTokens(seg, trigram)...)
		case hanRE().MatchString(seg):
			tokens = append(tokens, hanTokens(seg, trigram)...)
		case koreanRE().MatchString(seg):
			tokens = append(tokens, koreanTokens(seg)...)
		default:
			tokens = append(tokens, seg)
		}
	}
	return tokens
}

func japaneseTokens(seg string, trigram bool) []string {
	var out []string
	for _, part := range japanesePartRE().FindAllString(seg, -1) {
		out = append(out, part)
		if hanOnlyRE().MatchString(part) && !trigram {
			out = append(out, bigrams([]rune(part))...)
		}
	}
	return out
}

func hanTokens(seg string, trigram bool) []string {
	var chars []rune
	for _, r := range seg {
		if r >= 0x4e00 && r <= 0x9fff {
			chars = append(chars, r)
		}
	}
	if trigram {
		if len(chars) == 0 {
			return nil
		}
		return []string{string(chars)}
	}
	out := make([]string, 0, 2*len(chars))
	for _, r := range chars {
		out = append(out, string(r))
	}
	return append(out, bigrams(chars)...)
}

func bigrams(r []rune) []string {
	var out []string
	for i := 0; i+1 < len(r); i++ {
		out = append(out, string(r[i:i+2]))
	}
	return out
}

func koreanTokens(seg string) []string {
	_, ko := stopSets()
	stem, stripped := stripKoreanParticle(seg)
	var out []string
	if !ko[seg] && !(stripped && ko[stem]) {
		out = append(out, seg)
	}
	if stripped && stem != "" && !ko[stem] && usefulKoreanStem(stem) {
		out = append(out, stem)
	}
	return out
}

func stripKoreanParticle(token string) (string, bool) {
	for _, p := range koreanParticles {
		if utf16Len(token) > utf16Len(p) && strings.HasSuffix(token, p) {
			return strings.TrimSuffix(token, p), true
		}
	}
	return "", false
}

func usefulKoreanStem(stem string) bool {
	if hangulRE().MatchString(stem) {
		return utf16Len(stem) >= 2
	}
	return asciiWordRE().MatchString(stem)
}

func utf16Len(s string) int { return jscompat.UTF16Len(s) }

// upperJS is toUpperCase: the full mapping (ß becomes SS).
func upperJS(s string) string {
	if isASCII(s) {
		return strings.ToUpper(s)
	}
	return cases.Upper(language.Und).String(s) // a Caser is not safe to share
}
