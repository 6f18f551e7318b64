package search

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"clawvault-tui/model"
)

// Query is a parsed search:
//
//	postgres migration      every word must occur (in one section)
//	mongo*                  a word that starts so
//	"credit notes"          a phrase
//	-draft  -"old plan"     leave out sections with this word or phrase
//	path:decisions          files whose path, or a part of it after a /, starts so
//	type:decision,lesson    observations of these types
//	i>=0.8  c<0.5           observations by importance or confidence (>=, >, <=, <, =)
//
// Filters of one kind are alternatives (path:a path:b is either); all
// else must hold together. While typing, the last word is a prefix, and
// an unfinished quote or filter is read as far as it goes.
type Query struct {
	Text string
	// Want must all hold; a section that matches any of Not is left out.
	Want, Not Clauses
}

// Clauses are the parts of a query on one side of the minus sign.
type Clauses struct {
	Terms []Term
	// Paths are lower-cased path prefixes, Types observation types: each
	// a list of alternatives.
	Paths, Types []string
	Ranges       []Range
}

func (c *Clauses) empty() bool {
	return len(c.Terms) == 0 && len(c.Paths) == 0 && len(c.Types) == 0 && len(c.Ranges) == 0
}

// Term is a word or a phrase.
type Term struct {
	Text   string
	Phrase bool
	// Prefix marks the word being typed: it matches any word it starts.
	Prefix bool
}

// Range is a bound on an observation's importance or confidence.
type Range struct {
	Field string // "importance" or "confidence"
	Op    string // >=, >, <=, <, =
	Value float64
}

// QueryError is a query that cannot be run, with the column (1-based, in
// characters) where the problem is.
type QueryError struct {
	Column int
	Msg    string
}

func (e *QueryError) Error() string { return fmt.Sprintf("%s (column %d)", e.Msg, e.Column) }

// Empty reports a query with nothing to look for.
func (q *Query) Empty() bool { return q.Want.empty() && q.Not.empty() }

// minPrefix is the shortest word being typed that is searched for.
const minPrefix = 2

// ParseQuery reads a query. With asYouType, the text is what the user has
// typed so far: the last word (when no space follows it) is a prefix, and
// an unfinished quote, filter or minus sign at the end is not an error.
func ParseQuery(text string, asYouType bool) (*Query, error) {
	q := &Query{Text: text}
	l := lexer{s: text}
	for {
		tok, ok := l.next()
		if !ok {
			break
		}
		// The token being typed: the last, with no space after it.
		typing := asYouType && l.i == len(l.s)
		if err := q.add(tok, typing); err != nil {
			return nil, err
		}
	}
	if l.err != nil && !(asYouType && l.errAtEnd) {
		return nil, l.err
	}
	q.Want.Terms, q.Not.Terms = distinctTerms(q.Want.Terms), distinctTerms(q.Not.Terms)
	return q, nil
}

// distinctTerms drops the repeats of a word or phrase: all must hold (or
// none may), so a repeat asks nothing more, and each would cost a search
// of its own.
func distinctTerms(terms []Term) []Term {
	if len(terms) < 2 {
		return terms
	}
	seen := make(map[Term]bool, len(terms))
	return slices.DeleteFunc(terms, func(t Term) bool {
		if seen[t] {
			return true
		}
		seen[t] = true
		return false
	})
}

// token is one lexed item.
type token struct {
	text    string
	negated bool
	phrase  bool
	column  int
	closed  bool // a phrase with its closing quote
}

func (q *Query) add(t token, typing bool) error {
	c := &q.Want
	if t.negated {
		c = &q.Not
	}
	if t.phrase {
		if strings.TrimSpace(t.text) == "" {
			if typing || !t.closed {
				return nil
			}
			return &QueryError{t.column, `an empty phrase "" matches nothing: put words between the quotes`}
		}
		term := Term{Text: t.text, Phrase: true}
		if typing && !t.closed && !t.negated && !strings.HasSuffix(t.text, " ") {
			// An unfinished phrase: its last word is being typed.
			words := strings.Fields(t.text)
			if last := words[len(words)-1]; utf8.RuneCountInString(last) >= minPrefix {
				term.Prefix = true
			} else if len(words) == 1 {
				return nil
			} else {
				term.Text = strings.TrimSpace(strings.TrimSuffix(strings.TrimRightFunc(t.text, unicode.IsSpace), last))
			}
		}
		c.Terms = append(c.Terms, term)
		return nil
	}
	if t.text == "" { // a lone minus sign
		if typing {
			return nil
		}
		return &QueryError{t.column, "a lone - leaves nothing out: put it right before a word, as in -draft"}
	}
	name, value, isFilter := strings.Cut(t.text, ":")
	switch strings.ToLower(name) {
	case "path":
		if isFilter {
			return c.addPath(value, t, typing)
		}
	case "type":
		if isFilter {
			return c.addTypes(value, t, typing)
		}
	}
	if r, ok, err := parseRange(t, typing); ok || err != nil {
		if err != nil || r == nil {
			return err
		}
		c.Ranges = append(c.Ranges, *r)
		return nil
	}
	if !hasWordChar(t.text) {
		return nil // punctuation alone: nothing any analyzer indexes
	}
	prefix, star := typing && !t.negated, false
	if trimmed := strings.TrimRight(t.text, "*"); trimmed != t.text && hasWordChar(trimmed) {
		// mongo*: a prefix said so, typing or not (-draft* too).
		t.text, prefix, star = trimmed, true, true
	}
	if prefix && utf8.RuneCountInString(t.text) < minPrefix {
		// One letter would match most of memory, slowly: a word being
		// typed counts from its second letter on.
		if star && !typing {
			return &QueryError{t.column, fmt.Sprintf("%s* would match most of memory: give at least %d letters before the *", t.text, minPrefix)}
		}
		return nil
	}
	c.Terms = append(c.Terms, Term{Text: t.text, Prefix: prefix})
	return nil
}

func (c *Clauses) addPath(value string, t token, typing bool) error {
	value = strings.ToLower(strings.Trim(value, `"`))
	value = strings.TrimPrefix(strings.ReplaceAll(value, `\`, "/"), "/")
	if value == "" {
		if typing {
			return nil
		}
		return &QueryError{t.column, "path: needs the start of a file or folder name, as in path:decisions or path:memory/2026"}
	}
	c.Paths = append(c.Paths, value)
	return nil
}

func (c *Clauses) addTypes(value string, t token, typing bool) error {
	var types []string
	for _, v := range strings.Split(value, ",") {
		v = strings.ToLower(strings.TrimSpace(v))
		switch {
		case v == "" && typing:
		case model.IsObservationType(v):
			types = append(types, v)
		case typing && v != "":
			// The type being typed: every type it starts.
			n := len(types)
			for _, known := range model.ObservationTypes {
				if strings.HasPrefix(known, v) {
					types = append(types, known)
				}
			}
			if len(types) == n {
				return &QueryError{t.column, fmt.Sprintf("no observation type starts with %q (types: %s)", v, strings.Join(model.ObservationTypes, ", "))}
			}
		case v == "":
			return &QueryError{t.column, "type: needs an observation type, as in type:decision (types: " + strings.Join(model.ObservationTypes, ", ") + ")"}
		default:
			return &QueryError{t.column, fmt.Sprintf("unknown observation type %q (types: %s)", v, strings.Join(model.ObservationTypes, ", "))}
		}
	}
	c.Types = append(c.Types, types...)
	return nil
}

// parseRange reads i>=0.8 and friends (i, importance, c, confidence). ok
// is false for a word that is not a range at all; r is nil for an
// unfinished range while typing.
func parseRange(t token, typing bool) (r *Range, ok bool, err error) {
	s := strings.ToLower(t.text)
	i := strings.IndexAny(s, "<>=")
	if i <= 0 {
		return nil, false, nil
	}
	field := ""
	switch s[:i] {
	case "i", "importance":
		field = "importance"
	case "c", "confidence":
		field = "confidence"
	default:
		return nil, false, nil
	}
	op, value := s[i:], ""
	for _, o := range []string{">=", "<=", ">", "<", "="} {
		if strings.HasPrefix(op, o) {
			op, value = o, op[len(o):]
			break
		}
	}
	v, perr := strconv.ParseFloat(value, 64)
	if typing && v != 1 && !strings.Contains(strings.TrimRight(value, "."), ".") {
		// i>=0 is i>=0.8 being typed: every observation, for a key press.
		return nil, true, nil
	}
	if perr != nil || v < 0 || v > 1 || strings.ContainsAny(value, "eE_xXpP") {
		if typing {
			return nil, true, nil
		}
		return nil, true, &QueryError{t.column, fmt.Sprintf("%s%s needs a number from 0 to 1, as in %s>=0.8", s[:i], op, s[:i])}
	}
	return &Range{Field: field, Op: op, Value: v}, true, nil
}

func hasWordChar(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) >= 0
}

// lexer splits a query into tokens: words, "phrases", each maybe after a
// minus sign; a filter's value may be quoted (path:"my notes").
type lexer struct {
	s        string
	i        int // where the next token starts looking
	err      *QueryError
	errAtEnd bool // the error is an unfinished quote at the very end
}

func (l *lexer) column(byteOffset int) int { return utf8.RuneCountInString(l.s[:byteOffset]) + 1 }

func (l *lexer) next() (token, bool) {
	for l.i < len(l.s) {
		r, size := utf8.DecodeRuneInString(l.s[l.i:])
		if !unicode.IsSpace(r) {
			break
		}
		l.i += size
	}
	if l.i >= len(l.s) {
		return token{}, false
	}
	t := token{column: l.column(l.i)}
	if l.s[l.i] == '-' {
		t.negated = true
		l.i++
	}
	if l.i < len(l.s) && l.s[l.i] == '"' {
		t.phrase = true
		start := l.i + 1
		end := strings.IndexByte(l.s[start:], '"')
		if end < 0 {
			t.text = l.s[start:]
			l.i = len(l.s)
			l.fail(t.column, `this phrase has no closing ": add one after its last word`, true)
			return t, true
		}
		t.text, t.closed = l.s[start:start+end], true
		l.i = start + end + 1
		return t, true
	}
	start := l.i
	for l.i < len(l.s) {
		r, size := utf8.DecodeRuneInString(l.s[l.i:])
		if unicode.IsSpace(r) {
			break
		}
		if r == '"' && l.i > start && l.s[l.i-1] == ':' {
			// a quoted filter value: path:"my notes"
			end := strings.IndexByte(l.s[l.i+1:], '"')
			if end < 0 {
				l.i = len(l.s)
				l.fail(t.column, `this filter's value has no closing ": add one after it`, true)
				break
			}
			l.i += end + 2
			continue
		}
		l.i += size
	}
	t.text = l.s[start:l.i]
	return t, true
}

func (l *lexer) fail(column int, msg string, atEnd bool) {
	if l.err == nil {
		l.err, l.errAtEnd = &QueryError{column, msg}, atEnd
	}
}
