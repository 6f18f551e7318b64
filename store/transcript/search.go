package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"unicode/utf8"
)

// Search returns the positions of the entries whose line contains needle,
// ignoring ASCII case. The needle is matched as JSON writes text (quotes,
// backslashes and newlines escaped), so "say \"hi\"" finds what the
// transcript holds. It reads the file in blocks and reports progress.
func (ix *Index) Search(ctx context.Context, r io.ReaderAt, needle string, progress func(done, total int64)) ([]int32, error) {
	pattern := lowerASCII([]byte(jsonText(needle)))
	if len(pattern) == 0 || len(ix.Entries) == 0 {
		return nil, nil
	}
	var matches []int32
	var buf, lower []byte
	total := ix.Entries[len(ix.Entries)-1].Offset
	for i := 0; i < len(ix.Entries); {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		first := ix.Entries[i]
		j := i
		for j < len(ix.Entries) && ix.Entries[j].Offset-first.Offset < int64(chunkSize) {
			j++
		}
		last := ix.Entries[j-1]
		span := last.Offset + int64(last.Length) - first.Offset
		buf = append(buf[:0], make([]byte, span)...)
		if n, err := r.ReadAt(buf, first.Offset); int64(n) < span {
			return matches, err
		}
		lower = lowerASCII(append(lower[:0], buf...))
		for k := i; k < j; k++ {
			e := ix.Entries[k]
			line := lower[e.Offset-first.Offset : e.Offset-first.Offset+int64(e.Length)]
			if bytes.Contains(line, pattern) {
				matches = append(matches, int32(k))
			}
		}
		if progress != nil {
			progress(last.Offset-ix.Entries[0].Offset, total)
		}
		i = j
	}
	return matches, nil
}

// jsonText is s as it appears inside a JSON string written by
// JSON.stringify (no quotes around it).
func jsonText(s string) string {
	if !utf8.ValidString(s) {
		return s
	}
	b, _ := json.Marshal(s)
	b = bytes.ReplaceAll(b, []byte(`\u003c`), []byte("<"))
	b = bytes.ReplaceAll(b, []byte(`\u003e`), []byte(">"))
	b = bytes.ReplaceAll(b, []byte(`\u0026`), []byte("&"))
	return string(b[1 : len(b)-1])
}

func lowerASCII(b []byte) []byte {
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}

// Matcher returns the test Search applies to each line: it contains needle
// as JSON writes text, ignoring ASCII case. For transcripts that are not a
// file (a SQLite-era session's events); nil when needle is empty.
func Matcher(needle string) func(line []byte) bool {
	pattern := lowerASCII([]byte(jsonText(needle)))
	if len(pattern) == 0 {
		return nil
	}
	var buf []byte
	return func(line []byte) bool {
		buf = lowerASCII(append(buf[:0], line...))
		return bytes.Contains(buf, pattern)
	}
}
