package model

import (
	"fmt"
	"strings"
	"unicode"

	"clawvault-tui/jscompat"
)

// Curating MEMORY.md by hand: a line from an observation, a daily note or a
// search hit becomes a clean sentence, and goes into a section of
// MEMORY.md once.

// CleanLine strips a line of memory down to its sentence: the list bullet
// and a task checkbox, an observation's [type|c=…|i=…] bracket or legacy
// emoji, a leading HH:MM, the source tag ([main], [telegram-dm]) and the
// role ("user:", "assistant:") the observer put in front, and wiki-link
// brackets ([[Northwind]] is Northwind, [[a|b]] is b). What the person said
// is left as it is.
func CleanLine(line string) string {
	s := strings.TrimSpace(strings.TrimPrefix(line, "\ufeff"))
	if _, text, ok := ATXHeading(s); ok {
		s = text
	}
	s = trimBullet(s)
	if o, ok := ParseObservationLine(jscompat.JSTrim(s), ""); ok {
		s = o.Content
	}
	s = trimBullet(s) // "- [ ] …" after an emoji line's marker is rare but harmless
	s = trimClock(s)
	s = trimSourceTag(s)
	s = trimRole(s)
	s = UnwikiLinks(s)
	return jscompat.CollapseRuns(strings.TrimSpace(s), unicode.IsSpace)
}

// trimBullet removes a list marker ("- ", "* ", "+ ", "1. ") and a task
// checkbox ("[ ] ", "[x] ").
func trimBullet(s string) string {
	switch {
	case strings.HasPrefix(s, "- "), strings.HasPrefix(s, "* "), strings.HasPrefix(s, "+ "):
		s = strings.TrimSpace(s[2:])
	default:
		i := 0
		for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
			s = strings.TrimSpace(s[i+2:])
		}
	}
	for _, box := range []string{"[ ] ", "[x] ", "[X] "} {
		if rest, ok := strings.CutPrefix(s, box); ok {
			return strings.TrimSpace(rest)
		}
	}
	return s
}

// trimClock removes a leading "HH:MM " (the time the observer or the agent
// wrote in front).
func trimClock(s string) string {
	if len(s) > 6 && isDigitByte(s[0]) && isDigitByte(s[1]) && s[2] == ':' && isDigitByte(s[3]) && isDigitByte(s[4]) && s[5] == ' ' {
		return strings.TrimSpace(s[6:])
	}
	return s
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// trimSourceTag removes a leading "[label] " source tag of the observer
// (letters, digits, - and _ between brackets; not a checkbox or a link).
func trimSourceTag(s string) string {
	if !strings.HasPrefix(s, "[") || strings.HasPrefix(s, "[[") {
		return s
	}
	end := strings.IndexByte(s, ']')
	if end < 2 || end+1 >= len(s) || s[end+1] != ' ' {
		return s
	}
	for _, r := range s[1:end] {
		if !(r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return s
		}
	}
	return strings.TrimSpace(s[end+1:])
}

// trimRole removes the "user: " or "assistant: " the observer puts before
// a message's text.
func trimRole(s string) string {
	for _, role := range []string{"user:", "assistant:"} {
		if len(s) > len(role) && strings.EqualFold(s[:len(role)], role) && s[len(role)] == ' ' {
			return strings.TrimSpace(s[len(role)+1:])
		}
	}
	return s
}

// UnwikiLinks turns [[target]] into target and [[target|alias]] into alias
// (and [[target#heading]] into target#heading).
func UnwikiLinks(s string) string {
	if !strings.Contains(s, "[[") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "[[")
		if i < 0 {
			break
		}
		j := strings.Index(s[i+2:], "]]")
		if j < 0 {
			break
		}
		inner := s[i+2 : i+2+j]
		if k := strings.LastIndexByte(inner, '|'); k >= 0 {
			inner = inner[k+1:]
		}
		b.WriteString(s[:i])
		b.WriteString(inner)
		s = s[i+2+j+2:]
	}
	b.WriteString(s)
	return b.String()
}

// MatchKey is what two memory lines share when they say the same thing:
// the clean sentence (CleanLine) without emphasis and code marks, lower
// case, spaces collapsed, without trailing punctuation. "- **Ship** it."
// and "ship it" have the same key.
func MatchKey(line string) string {
	s := CleanLine(line)
	s = strings.NewReplacer("**", "", "__", "", "`", "", "*", "", "~~", "").Replace(s)
	s = strings.ToLower(jscompat.CollapseRuns(s, unicode.IsSpace))
	return strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(".;:!,", r) })
}

// Heading is a Markdown ATX heading of a file and the lines it rules.
type Heading struct {
	Level int
	Title string
	// Line is the heading's 1-based line; BodyEnd is the line before the
	// next heading of any level (the heading's own text), End the line
	// before the next heading of the same or a higher level (its
	// subsections included). Both are inclusive, 1-based.
	Line, BodyEnd, End int
}

// Headings lists the ATX headings of a Markdown text outside code fences
// and YAML front matter, in file order.
func Headings(text string) []Heading {
	lines := SplitLines(text)
	var out []Heading
	var fence Fence
	start := frontMatterLines(lines)
	for i := start; i < len(lines); i++ {
		l := bareLine(lines, i)
		if fence.Code(l) {
			continue
		}
		if level, title, ok := ATXHeading(l); ok {
			out = append(out, Heading{Level: level, Title: title, Line: i + 1})
		}
	}
	for i := range out {
		out[i].BodyEnd, out[i].End = len(lines), len(lines)
		if i+1 < len(out) {
			out[i].BodyEnd = out[i+1].Line - 1
		}
		for _, next := range out[i+1:] {
			if next.Level <= out[i].Level {
				out[i].End = next.Line - 1
				break
			}
		}
	}
	return out
}

// bareLine is line i without its ending, and the first line without a
// byte-order mark: an editor that writes one puts it before the first
// heading, which must still count as a heading.
func bareLine(lines []string, i int) string {
	l := strings.TrimRight(lines[i], "\r\n")
	if i == 0 {
		l = strings.TrimPrefix(l, "\ufeff")
	}
	return l
}

// frontMatterLines is the number of lines of a leading YAML front matter
// block (--- … --- or ...), 0 without one.
func frontMatterLines(lines []string) int {
	if len(lines) == 0 || strings.TrimRight(strings.TrimPrefix(lines[0], "\ufeff"), " \t\r\n") != "---" {
		return 0
	}
	for i := 1; i < len(lines); i++ {
		if t := strings.TrimRight(lines[i], " \t\r\n"); t == "---" || t == "..." {
			return i + 1
		}
	}
	return 0
}

// FindHeading returns the first heading titled title (case and spaces
// ignored).
func FindHeading(hs []Heading, title string) (Heading, bool) {
	want := strings.ToLower(jscompat.CollapseRuns(strings.TrimSpace(title), unicode.IsSpace))
	for _, h := range hs {
		if strings.ToLower(jscompat.CollapseRuns(h.Title, unicode.IsSpace)) == want {
			return h, true
		}
	}
	return Heading{}, false
}

// SplitLines cuts text into lines, each with its line ending ("\n" or
// "\r\n"; the last may have none). Joining them gives text back.
func SplitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// lineEnding is the ending a text's lines use: its first line's, else "\n".
func lineEnding(lines []string) string {
	for _, l := range lines {
		if strings.HasSuffix(l, "\r\n") {
			return "\r\n"
		}
		if strings.HasSuffix(l, "\n") {
			return "\n"
		}
	}
	return "\n"
}

// NoSectionError says a file has no section of that title.
type NoSectionError struct {
	Title string
	// Have are the titles it does have.
	Have []string
}

func (e *NoSectionError) Error() string {
	if len(e.Have) == 0 {
		return fmt.Sprintf("there is no section %q (the file has no headings); create it on request", e.Title)
	}
	return fmt.Sprintf("there is no section %q; the sections are %s (or create it on request)", e.Title, quoteList(e.Have))
}

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// Insertion is the outcome of InsertItem.
type Insertion struct {
	Text string // the new text (the old one when nothing was added)
	// Line is the 1-based line of the item: where it was added, or where
	// it already was.
	Line int
	// Added is false when the item was already present.
	Added bool
	// Section is the title of the section the item is in; Created says
	// the section was made for it.
	Section string
	Created bool
}

// InsertItem puts "- item" at the end of a section's own text (before its
// subsections), unless a line with the same MatchKey is anywhere in the
// file already: then the text is unchanged and the line where it is, is
// reported. A missing section is an error, or with create a new level-2
// section at the end of the file. The file's line ending is kept, and a
// last line without one gets one before anything is added after it.
func InsertItem(text, section, item string, create bool) (Insertion, error) {
	item = CleanLine(item)
	if item == "" || strings.ContainsAny(item, "\r\n") {
		return Insertion{}, fmt.Errorf("nothing to add: the text is empty once its markup is stripped")
	}
	title := jscompat.CollapseRuns(strings.TrimSpace(section), unicode.IsSpace)
	if title == "" {
		return Insertion{}, fmt.Errorf("a section title is needed")
	}
	lines := SplitLines(text)
	hs := Headings(text)
	key := MatchKey(item)
	var fence Fence
	for i := frontMatterLines(lines); i < len(lines); i++ {
		l := bareLine(lines, i)
		if fence.Code(l) {
			continue
		}
		if _, _, heading := ATXHeading(l); !heading && MatchKey(l) == key {
			return Insertion{Text: text, Line: i + 1, Section: sectionAt(hs, i+1)}, nil
		}
	}
	eol := lineEnding(lines)
	newLine := "- " + item + eol
	h, found := FindHeading(hs, title)
	if !found {
		if !create {
			have := make([]string, len(hs))
			for i, h := range hs {
				have[i] = h.Title
			}
			return Insertion{}, &NoSectionError{Title: title, Have: have}
		}
		lines = endLast(lines, eol)
		if n := len(lines); n > 0 && strings.TrimSpace(lines[n-1]) != "" {
			lines = append(lines, eol)
		}
		lines = append(lines, "## "+title+eol, newLine)
		return Insertion{Text: strings.Join(lines, ""), Line: len(lines), Added: true, Section: title, Created: true}, nil
	}
	// After the last non-blank line of the section's own text.
	at := h.Line // 1-based line after which to insert
	for l := h.BodyEnd; l > h.Line; l-- {
		if strings.TrimSpace(lines[l-1]) != "" {
			at = l
			break
		}
	}
	if at == len(lines) {
		lines = endLast(lines, eol)
	}
	out := make([]string, 0, len(lines)+1)
	out = append(out, lines[:at]...)
	out = append(out, newLine)
	out = append(out, lines[at:]...)
	return Insertion{Text: strings.Join(out, ""), Line: at + 1, Added: true, Section: h.Title}, nil
}

// endLast gives the last line a line ending if it has none.
func endLast(lines []string, eol string) []string {
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		lines = append(lines[:n-1:n-1], lines[n-1]+eol)
	}
	return lines
}

// sectionAt is the title of the innermost heading above line ("" if none).
func sectionAt(hs []Heading, line int) string {
	title := ""
	for _, h := range hs {
		if h.Line <= line {
			title = h.Title
		}
	}
	return title
}

// LineAt returns the 1-based line n of text without its ending.
func LineAt(text string, n int) (string, bool) {
	for i := 1; n >= 1 && text != ""; i++ {
		j := strings.IndexByte(text, '\n')
		if i == n {
			if j >= 0 {
				text = text[:j]
			}
			return strings.TrimSuffix(text, "\r"), true
		}
		if j < 0 {
			break
		}
		text = text[j+1:]
	}
	return "", false
}
