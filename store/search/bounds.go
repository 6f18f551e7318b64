package search

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"

	"clawvault-tui/model"
)

// The work of indexing one line, and of analysing one token, is bounded,
// whatever an agent writes into a memory file or a transcript: a token is
// cut to maxTokenBytes before any filter sees it, and a line of a section
// to maxLineBytes before the section reaches bleve. Before, one 10 MB
// token in a transcript line took 46 s and 8 GB: the filters copied it,
// and each segment's term dictionary (an FST) spent a node per byte of
// every term, in every build and merge.

// maxTokenBytes is the longest token indexed or searched for: a longer one
// is cut (at a character boundary) to its first maxTokenBytes bytes, in
// the documents and in queries alike, so that a word that long still
// finds itself. Lucene's standard analyzer stops at 255 characters.
const maxTokenBytes = 256

// capTerm cuts a token's term to maxTokenBytes, at a character boundary.
func capTerm(term []byte) []byte { return prefixOf(term, maxTokenBytes) }

// prefixOf is the longest prefix of s of at most n bytes that ends at a
// character boundary.
func prefixOf[T ~string | ~[]byte](s T, n int) T {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// capFilter is the first token filter of the English and the code
// analyzers: it cuts every token to maxTokenBytes, in place, so the
// filters after it (lower case, stemming, folding) and the index see at
// most that much of any token.
type capFilter struct{}

func (capFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	for _, t := range input {
		t.Term = capTerm(t.Term)
	}
	return input
}

// maxLineBytes is how much of one line of a section is indexed and kept
// for its snippet: the rest of a longer line is cut (cutLongLines), the
// hit on such a line says so, and so does the run's Stats.Problems. It
// bounds what a hit costs too: each is analysed again when it is returned
// (locate.go).
const maxLineBytes = 64 << 10

// lineCut records one line of a section that was cut: its index among
// the section's lines, and its length before the cut (line ending not
// counted).
type lineCut struct {
	index int
	bytes int
}

// cutLongLines returns s with each line longer than maxLineBytes cut to
// its first maxLineBytes bytes (at a character boundary), its line ending
// kept so that offsets still map to lines, and the cuts recorded.
func cutLongLines(s Section) Section {
	if len(s.Text) <= maxLineBytes {
		return s // no line can be over
	}
	var b strings.Builder
	rest, index := s.Text, 0
	for len(rest) > 0 {
		line, ending := rest, ""
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, ending = rest[:i], "\n"
		}
		rest = rest[len(line)+len(ending):]
		if len(line) > maxLineBytes {
			s.cuts = append(s.cuts, lineCut{index: index, bytes: len(line)})
			line = prefixOf(line, maxLineBytes)
		}
		b.WriteString(line)
		b.WriteString(ending)
		index++
	}
	if len(s.cuts) > 0 {
		s.Text = b.String()
	}
	return s
}

// encodeCuts stores a section's cuts (fieldCut): "index:bytes" each,
// separated by commas.
func encodeCuts(cuts []lineCut) []byte {
	var b []byte
	for i, c := range cuts {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(c.index), 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(c.bytes), 10)
	}
	return b
}

// cutOf reads the stored cuts of a hit's section and returns the length
// the line of index had before it was cut, or 0 when it was not cut (or
// the stored value is not what encodeCuts wrote).
func cutOf(stored string, index int) int {
	for _, c := range strings.Split(stored, ",") {
		i, n, ok := strings.Cut(c, ":")
		if !ok {
			continue
		}
		if ci, err := strconv.Atoi(i); err == nil && ci == index {
			if bytes, err := strconv.Atoi(n); err == nil && bytes > 0 {
				return bytes
			}
		}
	}
	return 0
}

// cutNote ends the snippet of a hit on a cut line.
func cutNote(lineBytes int) string {
	return fmt.Sprintf(" [line cut: %s, of which the first %s are searched]", model.Bytes(int64(lineBytes)), model.Bytes(maxLineBytes))
}
