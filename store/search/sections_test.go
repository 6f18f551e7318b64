package search

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

type sectionWant struct {
	kind    SectionKind
	line    int
	heading string
	first   string // the section's first line, without its line ending
}

func TestSplitMarkdown(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text string
		want       []sectionWant
	}{
		{"headings", "intro\n# One\nbody\n\n## Two ##\nmore\n", []sectionWant{
			{Prose, 1, "", "intro"}, {Prose, 2, "One", "# One"}, {Prose, 5, "Two", "## Two ##"}}},
		{"a hash without a space is text", "#tag line\n#\n", []sectionWant{{Prose, 1, "", "#tag line"}, {Prose, 2, "", "#"}}},
		{"four spaces indent a code block, not a heading", "    # not a heading\n", []sectionWant{{Prose, 1, "", "    # not a heading"}}},
		{"headings and observations inside a fence are code", "# Runbook\n```bash\n# comment\n- [fact|c=0.5|i=0.5] x\n```\n## After\n", []sectionWant{
			{Prose, 1, "Runbook", "# Runbook"}, {Prose, 6, "After", "## After"}}},
		{"a longer fence closes only on its length", "~~~~\n~~~\n# still code\n~~~~\n# out\n", []sectionWant{
			{Prose, 1, "", "~~~~"}, {Prose, 5, "out", "# out"}}},
		{"an unclosed fence runs to the end", "```\n# code\n", []sectionWant{{Prose, 1, "", "```"}}},
		{"front matter", "---\ntitle: 'Use PostgreSQL'\ndate: '2026-03-14'\n---\nChose PostgreSQL.\n", []sectionWant{
			{FrontMatter, 1, "Use PostgreSQL", "---"}, {Prose, 5, "", "Chose PostgreSQL."}}},
		{"an unclosed front matter is a thematic break and text", "---\ntitle: x\n", []sectionWant{{Prose, 1, "", "---"}}},
		{"observations are sections of their own", "## 2026-03-14\n\n- [decision|c=0.95|i=0.90] 22:43 chose\n🔴 14:30 legacy\nnote\n", []sectionWant{
			{Prose, 1, "2026-03-14", "## 2026-03-14"}, {ObservationLine, 3, "2026-03-14", "- [decision|c=0.95|i=0.90] 22:43 chose"},
			{ObservationLine, 4, "2026-03-14", "🔴 14:30 legacy"}, {Prose, 5, "2026-03-14", "note"}}},
		{"CRLF", "# A\r\nx\r\n- [fact|c=0.5|i=0.5] y\r\n", []sectionWant{
			{Prose, 1, "A", "# A"}, {ObservationLine, 3, "A", "- [fact|c=0.5|i=0.5] y"}}},
		{"byte-order mark", "\ufeff# Title\nx\n", []sectionWant{{Prose, 1, "Title", "\ufeff# Title"}}},
		{"blank runs are dropped", "\n\n# A\n\n\n", []sectionWant{{Prose, 3, "A", "# A"}}},
		{"no trailing newline", "# A\nlast", []sectionWant{{Prose, 1, "A", "# A"}}},
		{"empty", "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := SplitMarkdown([]byte(c.text))
			checkSections(t, []byte(c.text), got)
			if len(got) != len(c.want) {
				t.Fatalf("%d sections, want %d: %+v", len(got), len(c.want), got)
			}
			for i, w := range c.want {
				g := got[i]
				first, _, _ := strings.Cut(g.Text, "\n")
				first = strings.TrimSuffix(first, "\r")
				if g.Kind != w.kind || g.Line != w.line || g.Heading != w.heading || first != w.first {
					t.Errorf("section %d = {%v %d %q %q}, want %+v", i, g.Kind, g.Line, g.Heading, first, w)
				}
			}
		})
	}
}

func TestSplitMarkdownCapsLongSections(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("# Long\n")
	for i := range 130 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	got := SplitMarkdown([]byte(b.String()))
	checkSections(t, []byte(b.String()), got)
	if len(got) != 3 || got[1].Line != 1+maxSectionLines || got[2].Line != 1+2*maxSectionLines || got[2].Heading != "Long" {
		t.Fatalf("sections start at %v", sectionLines(got))
	}
}

func sectionLines(ss []Section) []int {
	var out []int
	for _, s := range ss {
		out = append(out, s.Line)
	}
	return out
}

// checkSections holds for any input: sections are the file's own bytes, in
// order, without overlap, each at the line its offset is on.
func checkSections(t *testing.T, data []byte, ss []Section) {
	t.Helper()
	prevEnd, prevLine := 0, 0
	for _, s := range ss {
		if s.Offset < prevEnd || s.Offset+len(s.Text) > len(data) || string(data[s.Offset:s.Offset+len(s.Text)]) != s.Text {
			t.Fatalf("section at offset %d is not the file's bytes there", s.Offset)
		}
		if want := 1 + bytes.Count(data[:s.Offset], []byte("\n")); s.Line != want {
			t.Fatalf("section at offset %d says line %d, is on line %d", s.Offset, s.Line, want)
		}
		if s.Line <= prevLine {
			t.Fatalf("lines not increasing: %v", sectionLines(ss))
		}
		if strings.TrimSpace(s.Text) == "" {
			t.Fatalf("a blank section at line %d", s.Line)
		}
		prevEnd, prevLine = s.Offset+len(s.Text), s.Line
	}
}

func FuzzSplitMarkdown(f *testing.F) {
	for _, s := range []string{"# A\nx\n", "---\ntitle: t\n---\nbody", "```\n# c\n```\n# d", "## 2026-01-01\n- [fact|c=1|i=1] x\r\n",
		"\ufeff---\n---\n", "🔴 12:00 a\n🟡 b", strings.Repeat("x\n", 200), "\xff\xfe# bad utf-8\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSections(t, data, SplitMarkdown(data))
	})
}

func TestSplitTranscript(t *testing.T) {
	t.Parallel()
	lines := []string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/w"}`,
		`{"type":"message","id":"a1","parentId":null,"message":{"role":"user","content":"Where is the SOC2 folder?"}}`,
		`not json at all`,
		`{"type":"message","id":"a2","parentId":"a1","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"In evidence/."},{"type":"toolCall","name":"ls"}]}}`,
		`{"type":"message","id":"a3","parentId":"a2","message":{"role":"toolResult","content":[{"type":"text","text":"ls output"}]}}`,
		`{"role":"user","content":[{"type":"text","text":"Zoë's bare line"},{"type":"text","text":42}]}`,
		`{"type":"message","message":{"role":"assistant","content":"   "}}`,
	}
	got := SplitTranscript([]byte(strings.Join(lines, "\n")+"\n"), 1, 0)
	want := []struct {
		line       int
		role, text string
	}{{2, "user", "Where is the SOC2 folder?"}, {4, "assistant", "In evidence/."}, {6, "user", "Zoë's bare line"}}
	if len(got) != len(want) {
		t.Fatalf("%d messages: %+v", len(got), got)
	}
	for i, w := range want {
		if got[i].Line != w.line || got[i].Heading != w.role || got[i].Text != w.text || got[i].Kind != Message {
			t.Errorf("message %d = %+v, want %+v", i, got[i], w)
		}
	}
}

func FuzzSplitTranscript(f *testing.F) {
	f.Add([]byte(`{"type":"message","message":{"role":"user","content":"x"}}` + "\n"))
	f.Add([]byte(`{"role":"assistant","content":[{"type":"text","text":"\ud800"}]}`))
	f.Add([]byte("\n\n{\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := 1 + bytes.Count(data, []byte("\n"))
		prev := 0
		for _, s := range SplitTranscript(data, 1, 0) {
			if s.Line <= prev || s.Line > lines || s.Kind != Message || !utf8.ValidString(s.Text) {
				t.Fatalf("bad message section %+v", s)
			}
			prev = s.Line
		}
	})
}

func TestClassTokenizer(t *testing.T) {
	t.Parallel()
	cases := map[string][]string{
		"tea.KeyPressMsg session_id v2.0.10": {"tea", "KeyPressMsg", "session", "id", "v2", "0", "10"},
		"Zoë Müller — naïve":                 {"Zoë", "Müller", "naïve"},
		"e\u0301té":                          {"e\u0301té"},
		"before\ufffdafter":                  {"before", "after"}, // bleve's character tokenizer stops at U+FFFD
		"bad\xffbytes":                       {"bad", "bytes"},
		"":                                   nil,
	}
	for in, want := range cases {
		var got []string
		for _, tok := range (classTokenizer{isWordRune}).Tokenize([]byte(in)) {
			got = append(got, string(tok.Term))
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}

// FuzzClassTokenizer: tokens are maximal runs of word characters, in
// order, with positions 1, 2, 3…
func FuzzClassTokenizer(f *testing.F) {
	f.Add([]byte("tea.KeyPressMsg v2.0.10"))
	f.Add([]byte("a\xffb\ufffdc"))
	f.Fuzz(func(t *testing.T, in []byte) {
		prevEnd := 0
		for i, tok := range (classTokenizer{isWordRune}).Tokenize(in) {
			if tok.Start < prevEnd || tok.Start >= tok.End || tok.End > len(in) || string(tok.Term) != string(in[tok.Start:tok.End]) || tok.Position != i+1 {
				t.Fatalf("bad token %+v", tok)
			}
			for _, r := range string(in[prevEnd:tok.Start]) {
				if r != utf8.RuneError && isWordRune(r) {
					t.Fatalf("word character %q left out before %q", r, tok.Term)
				}
			}
			for _, r := range string(tok.Term) {
				if r == utf8.RuneError || !isWordRune(r) {
					t.Fatalf("token %q holds %q", tok.Term, r)
				}
			}
			prevEnd = tok.End
		}
	})
}

func TestFold(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"müller": "muller", "zoë": "zoe", "café": "cafe", "e\u0301te\u0301": "ete",
		"søren": "søren", "plain": "plain", "日本": "日本", "\xff": "\xff"} {
		if got := string(fold([]byte(in))); got != want {
			t.Errorf("fold(%q) = %q, want %q", in, got, want)
		}
	}
}
