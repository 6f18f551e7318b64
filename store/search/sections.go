package search

import (
	"bytes"
	"strings"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
)

// SectionKind says what a section of a file is.
type SectionKind uint8

const (
	// Prose is a Markdown section: a heading and what follows it up to the
	// next heading (at most maxSectionLines lines).
	Prose SectionKind = iota
	// FrontMatter is the YAML block at the top of a note.
	FrontMatter
	// ObservationLine is one line of ClawVault's observation syntax: it is
	// a document of its own, so that type and importance filter exactly.
	ObservationLine
	// Message is the user or assistant text of one transcript line.
	Message
)

var sectionKindNames = [...]string{Prose: "section", FrontMatter: "front-matter", ObservationLine: "observation", Message: "message"}

func (k SectionKind) String() string {
	if int(k) < len(sectionKindNames) {
		return sectionKindNames[k]
	}
	return "section"
}

// Section is one document of the index: a run of lines of one file.
type Section struct {
	Kind SectionKind
	// Line is the 1-based line of the file the section starts on. For a
	// message it is the transcript line the text came from.
	Line int
	// Offset is the byte offset of Line in the file.
	Offset int
	// Heading is the text of the nearest heading above (or the front
	// matter's title, or a message's role).
	Heading string
	// Text is the section's bytes exactly as in the file, line endings
	// included, so that a byte offset in it maps back to a line. For a
	// message it is the extracted text.
	Text string
	// Observation is set for an ObservationLine.
	Observation model.Observation
	// cuts are the lines of Text cut at maxLineBytes before indexing
	// (cutLongLines).
	cuts []lineCut
}

// maxSectionLines caps a prose section: long sections dilute ranking and
// make "all words in one section" too loose (measured elsewhere:
// heading-split sections of at most 60 lines as the best unit).
const maxSectionLines = 60

// SplitMarkdown cuts a Markdown file into sections: the front matter, one
// section per heading (ATX headings outside code fences; setext headings
// are rare in memory files and read as prose), long sections in chunks of
// at most maxSectionLines lines, and each observation line on its own.
// Blank runs are dropped. It never fails: any bytes split into sections
// whose Text, concatenated with the dropped blank lines, is the input.
func SplitMarkdown(data []byte) []Section {
	var out []Section
	var (
		heading   string
		start     = -1 // byte offset of the open prose section, -1 if none
		startLine int
		lines     int  // lines in the open section
		blank     bool // the open section holds only blank lines so far
		fence     model.Fence
	)
	flush := func(end int) {
		if start >= 0 && !blank {
			out = append(out, Section{Kind: Prose, Line: startLine, Offset: start, Heading: heading, Text: string(data[start:end])})
		}
		start = -1
	}
	open := func(off, line int) {
		start, startLine, lines, blank = off, line, 0, true
	}
	// prose adds a line to the open section, opening one if needed and
	// cutting at maxSectionLines.
	prose := func(off, line int, text string) {
		if start >= 0 && lines >= maxSectionLines {
			flush(off)
		}
		if start < 0 {
			open(off, line)
		}
		lines++
		if strings.TrimSpace(text) != "" {
			blank = false
		}
	}

	off, line := 0, 1
	if fmEnd, fmLines, title, ok := frontMatter(data); ok {
		out = append(out, Section{Kind: FrontMatter, Line: 1, Heading: title, Text: string(data[:fmEnd])})
		off, line = fmEnd, 1+fmLines
	}
	for off < len(data) {
		end := len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			end = off + i + 1
		}
		text := string(bytes.TrimRight(data[off:end], "\r\n"))
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		switch {
		case fence.Inside():
			fence.Next(text)
			prose(off, line, text)
		case fence.Opens(text):
			prose(off, line, text)
		default:
			if h, ok := atxHeading(text); ok {
				flush(off)
				heading = h
				open(off, line)
				prose(off, line, text)
			} else if o, ok := model.ParseObservationLine(jscompat.JSTrim(text), ""); ok {
				flush(off)
				out = append(out, Section{Kind: ObservationLine, Line: line, Offset: off, Heading: heading, Text: string(data[off:end]), Observation: o})
			} else {
				prose(off, line, text)
			}
		}
		off, line = end, line+1
	}
	flush(len(data))
	return out
}

// frontMatter finds a YAML front matter block: a first line `---` and a
// closing `---` or `...`. It returns the byte length of the block, its line
// count, and the title it names, if any.
func frontMatter(data []byte) (end, lines int, title string, ok bool) {
	body := bytes.TrimPrefix(data, []byte("\ufeff"))
	skip := len(data) - len(body)
	first, rest, found := bytes.Cut(body, []byte("\n"))
	if !found || string(bytes.TrimRight(first, " \t\r")) != "---" {
		return 0, 0, "", false
	}
	off := skip + len(first) + 1
	lines = 1
	for len(rest) > 0 {
		l, next, _ := bytes.Cut(rest, []byte("\n"))
		n := len(l) + 1
		if n > len(rest) {
			n = len(rest)
		}
		off += n
		lines++
		trimmed := string(bytes.TrimRight(l, " \t\r"))
		if trimmed == "---" || trimmed == "..." {
			return off, lines, title, true
		}
		if t, ok := strings.CutPrefix(trimmed, "title:"); ok && title == "" {
			title = strings.Trim(strings.TrimSpace(t), `"'`)
		}
		rest = next
	}
	return 0, 0, "", false
}

// atxHeading is model.ATXHeading's text.
func atxHeading(line string) (string, bool) {
	_, text, ok := model.ATXHeading(line)
	return text, ok
}
