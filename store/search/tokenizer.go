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
