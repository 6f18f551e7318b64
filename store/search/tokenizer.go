package search

import (
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
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
