package search

import (
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"golang.org/x/text/unicode/norm"
)

// classTokenizer makes a token of every maximal run of characters isToken
// accepts. It replaces bleve's character tokenizer, which stops at the
// first invalid UTF-8 byte or U+FFFD (so the rest of such a text was never
// indexed) and allocates room for 1,024 tokens per call (gigabytes of
// garbage over a vault of small sections). Invalid bytes separate tokens
// here, and all tokens of a call share one allocation.
type classTokenizer struct {
	isToken func(rune) bool
}

func (t classTokenizer) Tokenize(input []byte) analysis.TokenStream {
	n := 0
	t.each(input, func(int, int) { n++ })
	if n == 0 {
		return nil
	}
	tokens := make([]analysis.Token, n)
	stream := make(analysis.TokenStream, n)
	i := 0
	t.each(input, func(start, end int) {
		tokens[i] = analysis.Token{Term: input[start:end], Start: start, End: end, Position: i + 1, Type: analysis.AlphaNumeric}
		stream[i] = &tokens[i]
		i++
	})
	return stream
}

func (t classTokenizer) appendTokens(dst []analysis.Token, input []byte) ([]analysis.Token, bool) {
	t.each(input, func(start, end int) {
		dst = append(dst, analysis.Token{Term: input[start:end], Start: start, End: end, Position: len(dst) + 1, Type: analysis.AlphaNumeric})
	})
	return dst, true
}

// each calls fn with the byte range of every token, in order.
func (t classTokenizer) each(input []byte, fn func(start, end int)) {
	start := -1
	for i := 0; i < len(input); {
		r, size := rune(input[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(input[i:])
		}
		// An invalid byte decodes as RuneError, which no class accepts.
		if r != utf8.RuneError && t.isToken(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			fn(start, i)
			start = -1
		}
		i += size
	}
	if start >= 0 {
		fn(start, len(input))
	}
}

// isWordRune is a letter, a digit or a combining mark (so that a letter
// written as e + U+0301 stays one word).
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

func isNotNewline(r rune) bool { return r != '\n' }

// foldFilter folds diacritics out of tokens (canonical decomposition, then
// the combining marks dropped), so that muller finds Müller and zoe finds
// Zoë. A token keeps the offsets of the text it came from, so highlights
// still cover "Müller". Letters that do not decompose (ø, ł, ß) stay.
type foldFilter struct{}

func (foldFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	for _, t := range input {
		t.Term = fold(t.Term)
	}
	return input
}

// fold returns b without combining marks after NFD; b itself when it is
// ASCII (almost always).
func fold(b []byte) []byte {
	ascii := true
	for _, c := range b {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return b
	}
	d := norm.NFD.Bytes(b)
	out := d[:0]
	for i := 0; i < len(d); {
		r, size := utf8.DecodeRune(d[i:])
		if !unicode.Is(unicode.Mn, r) {
			out = append(out, d[i:i+size]...)
		}
		i += size
	}
	return out
}

// asciiWords is bleve's unicode tokenizer (Unicode word segmentation,
// UAX#29, as the segment package implements it) made fast for text that
// is all ASCII, the common case; other text goes to the unicode tokenizer
// itself. Over ASCII the rules come down to these: a word is a run of
// letters, digits and underscores, where a colon, full stop or apostrophe
// between two letters, and a comma, semicolon, full stop or apostrophe
// between two digits, do not break it (`e.g`, `don't`, `a:b`, `3.14`,
// `1,000`); everything else separates words. A word without letters but
// with a digit is Numeric, any other AlphaNumeric. FuzzASCIIWords holds it
// to the unicode tokenizer. A full build uses it (buildAnalysis); queries
// keep the analyzer as registered.
type asciiWords struct{ unicode analysis.Tokenizer }

// ASCII classes of the word-break rules.
const (
	wbOther = iota
	wbLetter
	wbDigit
	wbUnderscore
	wbMidLetter // :
	wbMidNumLet // . '
	wbMidNum    // , ;
	wbNonASCII  // not ASCII: the input goes to the unicode tokenizer
)

var wbClass = func() (c [256]uint8) {
	for b := range 256 {
		switch {
		case b >= utf8.RuneSelf:
			c[b] = wbNonASCII
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z':
			c[b] = wbLetter
		case '0' <= b && b <= '9':
			c[b] = wbDigit
		case b == '_':
			c[b] = wbUnderscore
		case b == ':':
			c[b] = wbMidLetter
		case b == '.', b == '\'':
			c[b] = wbMidNumLet
		case b == ',', b == ';':
			c[b] = wbMidNum
		}
	}
	return c
}()

func (t asciiWords) Tokenize(input []byte) analysis.TokenStream {
	n := 0
	if !asciiWordRanges(input, func(int, int, bool) { n++ }) {
		tokens, ok := t.appendMixed(nil, input)
		if !ok {
			return t.unicode.Tokenize(input)
		}
		stream := make(analysis.TokenStream, len(tokens))
		for i := range tokens {
			stream[i] = &tokens[i]
		}
		return stream
	}
	if n == 0 {
		return analysis.TokenStream{}
	}
	tokens := make([]analysis.Token, n)
	stream := make(analysis.TokenStream, n)
	i := 0
	asciiWordRanges(input, func(start, end int, numeric bool) {
		tokens[i] = asciiWord(input, start, end, numeric, i+1)
		stream[i] = &tokens[i]
		i++
	})
	return stream
}

func (t asciiWords) appendTokens(dst []analysis.Token, input []byte) ([]analysis.Token, bool) {
	ok := asciiWordRanges(input, func(start, end int, numeric bool) {
		dst = append(dst, asciiWord(input, start, end, numeric, len(dst)+1))
	})
	if !ok {
		return t.appendMixed(dst, input)
	}
	return dst, ok
}

// appendMixed tokenizes text that is not all ASCII (a legacy observation
// line's emoji, a name with diacritics) piece by piece: the pieces are
// cut at ASCII white space, where word segmentation always breaks (before
// a space or tab, and around a line break), unless what follows a space
// or tab is a mark, a format character or anything else word
// segmentation may attach to it, or a piece is not valid UTF-8 (the
// segmenter reads an invalid byte together with what follows): then
// false, and the unicode tokenizer takes the whole input. ASCII pieces go through asciiWordRanges, the
// others through the unicode tokenizer, their offsets and positions
// shifted. The unicode segmenter was a twentieth of a full build's
// instructions at scale 10, on emoji lines that are ASCII but for one
// character.
func (t asciiWords) appendMixed(dst []analysis.Token, input []byte) ([]analysis.Token, bool) {
	first := len(dst)
	for i := 0; i < len(input); {
		if isASCIISpace(input[i]) {
			i++
			continue
		}
		start := i
		ascii := true
		for i < len(input) && !isASCIISpace(input[i]) {
			ascii = ascii && input[i] < utf8.RuneSelf
			i++
		}
		piece := input[start:i]
		if ascii {
			asciiWordRanges(piece, func(s, e int, numeric bool) {
				dst = append(dst, asciiWord(input, start+s, start+e, numeric, len(dst)-first+1))
			})
			continue
		}
		if r, _ := utf8.DecodeRune(piece); r >= utf8.RuneSelf && !startsPiece(r) || !utf8.Valid(piece) {
			return dst[:first], false
		}
		for _, tok := range t.unicode.Tokenize(piece) {
			c := *tok
			c.Start, c.End, c.Position = tok.Start+start, tok.End+start, len(dst)-first+1
			dst = append(dst, c)
		}
	}
	return dst, true
}

func isASCIISpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// startsPiece: a character that word segmentation never joins to a space
// or tab before it (letters, digits, punctuation, symbols other than
// modifiers; not marks, format characters, spaces or invalid UTF-8).
func startsPiece(r rune) bool {
	return r != utf8.RuneError && !unicode.Is(unicode.Sk, r) &&
		unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.So, unicode.Sm, unicode.Sc)
}

func asciiWord(input []byte, start, end int, numeric bool, position int) analysis.Token {
	typ := analysis.AlphaNumeric
	if numeric {
		typ = analysis.Numeric
	}
	return analysis.Token{Term: input[start:end], Start: start, End: end, Position: position, Type: typ}
}

// asciiWordRanges calls fn with each word of input; false (before any
// call) when input is not all ASCII.
func asciiWordRanges(input []byte, fn func(start, end int, numeric bool)) bool {
	for _, b := range input {
		if b >= utf8.RuneSelf {
			return false
		}
	}
	for i := 0; i < len(input); {
		c := wbClass[input[i]]
		if c != wbLetter && c != wbDigit && c != wbUnderscore {
			i++
			continue
		}
		start, letters, digits := i, false, false
	word:
		for ; i < len(input); i++ {
			c := wbClass[input[i]]
			switch c {
			case wbLetter:
				letters = true
			case wbDigit:
				digits = true
			case wbUnderscore:
			default:
				if i+1 < len(input) {
					prev, next := wbClass[input[i-1]], wbClass[input[i+1]]
					if prev == next && (prev == wbLetter && (c == wbMidLetter || c == wbMidNumLet) ||
						prev == wbDigit && (c == wbMidNum || c == wbMidNumLet)) {
						i++ // past the mark and (the loop) the letter or digit after it
						continue
					}
				}
				break word
			}
		}
		fn(start, i, !letters && digits)
	}
	return true
}
