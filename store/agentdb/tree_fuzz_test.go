package agentdb

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzParseFactText: the fact rows' text parser never panics, and what it
// accepts is exactly rows lines of increasing seqs that print back to the
// text.
func FuzzParseFactText(f *testing.F) {
	f.Add("3 1795262400000 {\"type\":\"custom\"}\n7 -1 {}", 2)
	f.Add("1 2 ", 1)
	f.Add("", 0)
	f.Add("5 5 {\n}", 1)
	f.Add("9 1 a b c\n8 1 x", 2)
	f.Fuzz(func(t *testing.T, text string, rows int) {
		out, ok := parseFactText(text, rows, nil)
		if !ok {
			if len(out) != 0 {
				t.Fatalf("refused, yet %d rows", len(out))
			}
			return
		}
		if len(out) != rows {
			t.Fatalf("%d rows, %d read", rows, len(out))
		}
		var lines []string
		for i, r := range out {
			if i > 0 && r.seq <= out[i-1].seq || !r.json.Valid || !r.createdAt.Valid {
				t.Fatalf("row %d: %+v", i, r)
			}
			lines = append(lines, strconv.FormatInt(r.seq, 10)+" "+strconv.FormatInt(r.createdAt.Int64, 10)+" "+r.json.String)
		}
		if rows > 0 && strings.Join(lines, "\n") != canonicalFactText(text) {
			t.Fatalf("%q read as %q", text, lines)
		}
	})
}

// canonicalFactText is text with each line's two numbers as SQLite prints
// them (the parser also reads "+1" or "007").
func canonicalFactText(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		f := strings.SplitN(line, " ", 3)
		if len(f) < 3 {
			return text
		}
		for j := range 2 {
			if n, err := strconv.ParseInt(f[j], 10, 64); err == nil {
				f[j] = strconv.FormatInt(n, 10)
			}
		}
		lines[i] = strings.Join(f, " ")
	}
	return strings.Join(lines, "\n")
}
