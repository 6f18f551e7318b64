package jscompat

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// JSRegexp is a JavaScript regular expression (no u flag) run by Go's
// regexp. ClawVault's rules are written as JavaScript regular expressions;
// keeping their source text as written, and translating the few places
// where the two dialects disagree, makes each rule easy to check against
// ClawVault's code:
//   - \s and . follow JavaScript (\s knows Unicode white space; . stops at
//     \r, U+2028 and U+2029 as well as \n);
//   - with the i flag, Go folds ſ into s and the Kelvin sign into k, which
//     JavaScript does not: such runes are masked before matching.
//
// \b, \w and \d are ASCII in both. Look-arounds and back-references are
// not supported (none of ClawVault's rules use them).
type JSRegexp struct {
	src, flags string // as written in JavaScript
	fold       bool   // the i flag
	// re is compiled on first use (see MustJSRegexp).
	once sync.Once
	re   *regexp.Regexp
	// need, when set, lists lower-case ASCII words one of which every
	// match contains: a text without any of them is not matched, without
	// running the expression (see Needs). needIDs number them in needWords.
	need    []string
	needIDs []int
}

// Needs declares words one of which every match must contain (compared
// ASCII-case-insensitively, as JavaScript's /i compares ASCII letters). The
// observer runs each rule on every message; most messages contain none of a
// rule's words, and a substring search is far cheaper than Go's regexp. A
// differential test checks each declaration against the bare expression.
func (r *JSRegexp) Needs(words ...string) *JSRegexp {
	r.need = words
	for _, w := range words {
		id, ok := needWordIDs[w]
		if !ok {
			id = len(needWords)
			needWordIDs[w] = id
			needWords = append(needWords, w)
		}
		r.needIDs = append(r.needIDs, id)
	}
	return r
}

var (
	// declared are the expressions of MustJSRegexp, which a test compiles.
	declared []*JSRegexp
	// needWords are the declared words of every rule: a Text finds all of
	// them in one pass (Text.scan), and each rule then looks up its own.
	needWords   []string
	needWordIDs = map[string]int{}
	wordTable   struct {
		once    sync.Once
		byFirst [256][]int // word ids by first byte
		n       int        // words covered
	}
)

// mayMatch applies the declared words to a text.
func (r *JSRegexp) mayMatch(s string) bool {
	if r.need == nil {
		return true
	}
	return r.mayMatchLower(asciiLower(s))
}

func (r *JSRegexp) mayMatchLower(lower string) bool {
	if r.need == nil {
		return true
	}
	for _, w := range r.need {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// Text is a string prepared for the many rules that test it: its
// ASCII-lower-cased form, and which declared words it holds (found in one
// pass, on first use).
type Text struct {
	S, Lower string
	present  []uint64
	scanned  bool
}

// NewText prepares a text for MatchText.
func NewText(s string) *Text { return &Text{S: s, Lower: asciiLower(s)} }

// scan finds every declared word in the text.
func (t *Text) scan() {
	wordTable.once.Do(func() {
		wordTable.n = len(needWords)
		for id, w := range needWords {
			wordTable.byFirst[w[0]] = append(wordTable.byFirst[w[0]], id)
		}
	})
	t.present = make([]uint64, (wordTable.n+63)/64)
	for i := 0; i < len(t.Lower); i++ {
		for _, id := range wordTable.byFirst[t.Lower[i]] {
			if strings.HasPrefix(t.Lower[i:], needWords[id]) {
				t.present[id/64] |= 1 << (id % 64)
			}
		}
	}
	t.scanned = true
}

func (t *Text) has(id int) bool {
	if !t.scanned {
		t.scan()
	}
	if id >= wordTable.n { // declared after the table was built
		return strings.Contains(t.Lower, needWords[id])
	}
	return t.present[id/64]&(1<<(id%64)) != 0
}

// MatchText is MatchString on a prepared text.
func (r *JSRegexp) MatchText(t *Text) bool {
	if r.need != nil {
		found := false
		for _, id := range r.needIDs {
			if t.has(id) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return r.compiled().MatchString(r.mask(t.S))
}

// asciiLower lower-cases ASCII letters only.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// jsSpaceClass is the content of a character class matching JavaScript's \s.
const jsSpaceClass = `\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`

// MustJSRegexp declares a JavaScript pattern with its flags ("i"; "g" is
// ignored: global replacing is a method here) for a package-level rule. It
// is translated and compiled on first use, so that the hundred-odd rules of
// the observer cost nothing to a command that never runs them (compiling
// them all took a few milliseconds of every start-up). It panics then on a
// pattern it cannot translate; a test compiles every declared pattern.
func MustJSRegexp(pattern, flags string) *JSRegexp {
	r := &JSRegexp{src: pattern, flags: flags, fold: strings.ContainsRune(flags, 'i')}
	declared = append(declared, r)
	return r
}

// compiled is the Go expression, compiled on first use.
func (r *JSRegexp) compiled() *regexp.Regexp {
	r.once.Do(func() {
		if r.re != nil { // from CompileJSRegexp
			return
		}
		re, err := compileJS(r.src, r.flags)
		if err != nil {
			panic(err)
		}
		r.re = re
	})
	return r.re
}

// CompileJSRegexp translates and compiles a JavaScript pattern now.
func CompileJSRegexp(pattern, flags string) (*JSRegexp, error) {
	re, err := compileJS(pattern, flags)
	if err != nil {
		return nil, err
	}
	return &JSRegexp{src: pattern, flags: flags, fold: strings.ContainsRune(flags, 'i'), re: re}, nil
}

// compileJS translates a JavaScript pattern and its flags to Go's syntax
// and compiles it.
func compileJS(pattern, flags string) (*regexp.Regexp, error) {
	goSrc, err := translateJSPattern(pattern)
	if err != nil {
		return nil, err
	}
	prefix := ""
	for _, f := range flags {
		switch f {
		case 'i':
			prefix += "i"
		case 'm':
			prefix += "m"
		case 's':
			prefix += "s"
		case 'g', 'y':
		default:
			return nil, fmt.Errorf("regular expression flag %q is not supported", f)
		}
	}
	if prefix != "" {
		goSrc = "(?" + prefix + ")" + goSrc
	}
	re, err := regexp.Compile(goSrc)
	if err != nil {
		return nil, fmt.Errorf("regular expression /%s/%s: %w", pattern, flags, err)
	}
	return re, nil
}

func translateJSPattern(p string) (string, error) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			i++
			e := p[i]
			switch e {
			case 's':
				if inClass {
					b.WriteString(jsSpaceClass)
				} else {
					b.WriteString("[" + jsSpaceClass + "]")
				}
			case 'S':
				if inClass {
					return "", fmt.Errorf("\\S inside a character class is not supported: %s", p)
				}
				b.WriteString("[^" + jsSpaceClass + "]")
			case 'u':
				if i+4 >= len(p) {
					return "", fmt.Errorf("bad \\u escape in %s", p)
				}
				b.WriteString(`\x{` + p[i+1:i+5] + `}`)
				i += 4
			case '/':
				b.WriteByte('/')
			case '1', '2', '3', '4', '5', '6', '7', '8', '9':
				return "", fmt.Errorf("back-references are not supported: %s", p)
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
			if i+1 < len(p) && p[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' { // a literal ] first
				b.WriteString(`\]`)
				i++
			}
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		case c == '.' && !inClass:
			b.WriteString(`[^\n\r\x{2028}\x{2029}]`)
		case c == '(' && !inClass && strings.HasPrefix(p[i:], "(?="), c == '(' && !inClass && strings.HasPrefix(p[i:], "(?!"),
			c == '(' && !inClass && strings.HasPrefix(p[i:], "(?<=") || c == '(' && !inClass && strings.HasPrefix(p[i:], "(?<!"):
			return "", fmt.Errorf("look-arounds are not supported: %s", p)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// mask replaces the runes Go folds but JavaScript does not (ſ U+017F and
// the Kelvin sign U+212A) with runes of the same UTF-8 length that match
// nothing a rule names, so that indexes into the result are indexes into s.
func (r *JSRegexp) mask(s string) string {
	// ſ is C5 BF and K E2 84 AA in UTF-8: look for their lead bytes first.
	if !r.fold || strings.IndexByte(s, 0xC5) < 0 && strings.IndexByte(s, 0xE2) < 0 || !strings.ContainsAny(s, "\u017f\u212a") {
		return s
	}
	return strings.NewReplacer("\u017f", "\u00b7", "\u212a", "\u2116").Replace(s)
}

// MatchString is RegExp.prototype.test.
func (r *JSRegexp) MatchString(s string) bool {
	return r.mayMatch(s) && r.compiled().MatchString(r.mask(s))
}

// FindStringSubmatch is String.prototype.match without the g flag: the
// first match and its groups (an unmatched group is "").
func (r *JSRegexp) FindStringSubmatch(s string) []string {
	if !r.mayMatch(s) {
		return nil
	}
	idx := r.compiled().FindStringSubmatchIndex(r.mask(s))
	if idx == nil {
		return nil
	}
	out := make([]string, len(idx)/2)
	for i := range out {
		if idx[2*i] >= 0 {
			out[i] = s[idx[2*i]:idx[2*i+1]]
		}
	}
	return out
}

// FindAllStringSubmatch returns every match (String.prototype.matchAll).
func (r *JSRegexp) FindAllStringSubmatch(s string) [][]string {
	all := r.compiled().FindAllStringSubmatchIndex(r.mask(s), -1)
	out := make([][]string, len(all))
	for k, idx := range all {
		m := make([]string, len(idx)/2)
		for i := range m {
			if idx[2*i] >= 0 {
				m[i] = s[idx[2*i]:idx[2*i+1]]
			}
		}
		out[k] = m
	}
	return out
}

// ReplaceFirst is String.prototype.replace with a pattern without the g
// flag: the first match only. The replacement is literal except for $1…$9
// and $& as in JavaScript.
func (r *JSRegexp) ReplaceFirst(s, repl string) string {
	if !r.mayMatch(s) {
		return s
	}
	idx := r.compiled().FindStringSubmatchIndex(r.mask(s))
	if idx == nil {
		return s
	}
	return s[:idx[0]] + expandJS(s, idx, repl) + s[idx[1]:]
}

// ReplaceAll is String.prototype.replace with the g flag.
func (r *JSRegexp) ReplaceAll(s, repl string) string {
	return r.ReplaceAllFunc(s, func(s string, idx []int) string { return expandJS(s, idx, repl) })
}

// ReplaceAllFunc replaces every match with fn(s, submatch indexes).
func (r *JSRegexp) ReplaceAllFunc(s string, fn func(s string, idx []int) string) string {
	if !r.mayMatch(s) {
		return s
	}
	all := r.compiled().FindAllStringSubmatchIndex(r.mask(s), -1)
	if all == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, idx := range all {
		b.WriteString(s[last:idx[0]])
		b.WriteString(fn(s, idx))
		last = idx[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// expandJS applies a JavaScript replacement string ($&, $1…$9, $$).
func expandJS(s string, idx []int, repl string) string {
	if !strings.Contains(repl, "$") {
		return repl
	}
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '$' || i+1 >= len(repl) {
			b.WriteByte(c)
			continue
		}
		n := repl[i+1]
		switch {
		case n == '$':
			b.WriteByte('$')
			i++
		case n == '&':
			b.WriteString(s[idx[0]:idx[1]])
			i++
		case n >= '1' && n <= '9' && int(n-'0') < len(idx)/2:
			g := int(n - '0')
			if idx[2*g] >= 0 {
				b.WriteString(s[idx[2*g]:idx[2*g+1]])
			}
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
