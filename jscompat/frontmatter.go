package jscompat

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// ClawVault reads and writes Markdown documents with YAML front matter
// through gray-matter 4 and js-yaml 3 (backlog items, tasks, projects). The
// observer needs a small part of that: read a flat mapping of scalars and
// lists of scalars, and write one back exactly as js-yaml's safeDump would.
// Front matter outside that subset (nested mappings, block scalars,
// anchors, strings js-yaml would fold or escape) is reported as
// unsupported rather than guessed at.

// ErrFrontmatterUnsupported marks front matter outside the YAML subset.
var ErrFrontmatterUnsupported = errors.New("front matter outside the YAML subset clawvault-tui reads and writes")

// FrontKind is the YAML type of a front matter value.
type FrontKind uint8

const (
	FrontString FrontKind = iota
	FrontNull
	FrontBool
	FrontNumber
	FrontTime // an unquoted timestamp, which js-yaml turns into a Date
	FrontSeq
)

// FrontValue is one front matter value.
type FrontValue struct {
	Kind FrontKind
	// Str is the string's value, or the scalar as written.
	Str   string
	Num   float64 // FrontNumber
	Bool  bool    // FrontBool
	Time  int64   // FrontTime: milliseconds since the epoch (UTC)
	Items []FrontValue
}

// StringValue is a string value.
func StringValue(s string) FrontValue { return FrontValue{Kind: FrontString, Str: s} }

// StringsValue is a list of strings.
func StringsValue(items []string) FrontValue {
	v := FrontValue{Kind: FrontSeq, Items: []FrontValue{}}
	for _, s := range items {
		v.Items = append(v.Items, StringValue(s))
	}
	return v
}

// IsString is typeof value === "string".
func (v FrontValue) IsString() bool { return v.Kind == FrontString }

// Strings returns the string items of a list (others are skipped).
func (v FrontValue) Strings() []string {
	var out []string
	for _, it := range v.Items {
		if it.Kind == FrontString {
			out = append(out, it.Str)
		}
	}
	return out
}

// DateMillis is new Date(value).getTime(): a Date's time, a number as
// milliseconds, a string as Date.parse reads ISO times; ok is false for NaN.
func (v FrontValue) DateMillis() (int64, bool) {
	switch v.Kind {
	case FrontTime:
		return v.Time, true
	case FrontNumber:
		return Int64Of(v.Num)
	case FrontString:
		return ParseISOTime(v.Str)
	}
	return 0, false
}

// Frontmatter is a front matter mapping in its key order.
type Frontmatter struct {
	keys   []string
	values map[string]FrontValue
}

// NewFrontmatter returns an empty mapping.
func NewFrontmatter() *Frontmatter { return &Frontmatter{values: map[string]FrontValue{}} }

// Get returns a value.
func (f *Frontmatter) Get(key string) (FrontValue, bool) {
	v, ok := f.values[key]
	return v, ok
}

// GetString returns a string value, or "" when the key is absent or not a
// string.
func (f *Frontmatter) GetString(key string) string {
	if v, ok := f.values[key]; ok && v.Kind == FrontString {
		return v.Str
	}
	return ""
}

// Set adds or replaces a value; a new key goes last.
func (f *Frontmatter) Set(key string, v FrontValue) {
	if _, ok := f.values[key]; !ok {
		f.keys = append(f.keys, key)
	}
	f.values[key] = v
}

// Clone copies the mapping.
func (f *Frontmatter) Clone() *Frontmatter {
	c := NewFrontmatter()
	for _, k := range f.keys {
		c.Set(k, f.values[k])
	}
	return c
}

// MatterDoc is a Markdown document split as gray-matter splits it.
type MatterDoc struct {
	Data    *Frontmatter
	Content string
}

// ParseMatter is gray-matter's matter(raw) with the YAML subset: a leading
// "---" line opens the front matter, the next line starting with "---"
// closes it, and the rest is the content.
func ParseMatter(raw string) (MatterDoc, error) {
	raw = strings.TrimPrefix(raw, "\uFEFF")
	doc := MatterDoc{Data: NewFrontmatter(), Content: raw}
	if !strings.HasPrefix(raw, "---") {
		return doc, nil
	}
	if len(raw) > 3 && raw[3] == '-' {
		return doc, nil
	}
	str := raw[3:]
	first, _, _ := strings.Cut(str, "\n")
	if strings.TrimSpace(first) != "" {
		return doc, fmt.Errorf("%w: text after the opening ---", ErrFrontmatterUnsupported)
	}
	closeIndex := strings.Index(str, "\n---")
	if closeIndex < 0 {
		closeIndex = len(str)
	}
	block := str[:closeIndex]
	if closeIndex == len(str) {
		doc.Content = ""
	} else {
		doc.Content = str[closeIndex+4:]
		doc.Content = strings.TrimPrefix(doc.Content, "\r")
		doc.Content = strings.TrimPrefix(doc.Content, "\n")
	}
	if strings.TrimSpace(commentLineRE().ReplaceAllString(block, "")) == "" {
		return doc, nil
	}
	data, err := parseYAMLMapping(block)
	if err != nil {
		return doc, err
	}
	doc.Data = data
	return doc, nil
}

var commentLineRE = LazyRegexp(`(?m)^\s*#[^\n]+`)

// StringifyMatter is gray-matter's matter.stringify(content, data): the
// front matter as js-yaml's safeDump writes it between --- lines, then the
// content with a trailing newline.
func StringifyMatter(content string, data *Frontmatter) (string, error) {
	// matter.stringify parses a string argument first: front matter inside
	// the content would be merged in, which the observer never writes.
	if strings.HasPrefix(strings.TrimPrefix(content, "\uFEFF"), "---") {
		return "", fmt.Errorf("%w: content that itself starts with ---", ErrFrontmatterUnsupported)
	}
	content = strings.TrimPrefix(content, "\uFEFF")
	yaml, err := DumpYAML(data)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if yaml = strings.TrimSpace(yaml); yaml != "{}" {
		b.WriteString("---\n" + yaml + "\n---\n")
	}
	b.WriteString(content)
	if !strings.HasSuffix(content, "\n") {
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// parseYAMLMapping reads a flat mapping of scalars and lists of scalars.
func parseYAMLMapping(block string) (*Frontmatter, error) {
	lines := strings.Split(block, "\n")
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	f := NewFrontmatter()
	unsupported := func(i int, why string) error {
		return fmt.Errorf("%w: line %d: %s", ErrFrontmatterUnsupported, i+1, why)
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if isBlankOrComment(line) {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			return nil, unsupported(i, "an indented line outside a list")
		}
		key, rest, ok := splitYAMLKey(line)
		if !ok {
			return nil, unsupported(i, "not a `key: value` line")
		}
		if _, dup := f.values[key]; dup {
			return nil, fmt.Errorf("duplicated mapping key %q", key)
		}
		rest = stripYAMLComment(rest)
		if rest != "" {
			v, err := parseYAMLInline(rest)
			if err != nil {
				return nil, unsupported(i, err.Error())
			}
			if i+1 < len(lines) && !isBlankOrComment(lines[i+1]) && (lines[i+1][0] == ' ' || lines[i+1][0] == '\t') {
				return nil, unsupported(i+1, "a value continued on the next line")
			}
			f.Set(key, v)
			continue
		}
		// A block list may follow, at any indentation (even none).
		seq := FrontValue{Kind: FrontSeq, Items: []FrontValue{}}
		j := i + 1
		for ; j < len(lines); j++ {
			l := lines[j]
			if isBlankOrComment(l) {
				continue
			}
			t := strings.TrimLeft(l, " ")
			if t != "-" && !strings.HasPrefix(t, "- ") {
				break
			}
			item := stripYAMLComment(strings.TrimPrefix(strings.TrimPrefix(t, "-"), " "))
			if strings.HasPrefix(item, "- ") || item == "-" {
				return nil, unsupported(j, "a nested list")
			}
			v := FrontValue{Kind: FrontNull}
			if item != "" {
				var err error
				if v, err = parseYAMLInline(item); err != nil {
					return nil, unsupported(j, err.Error())
				}
			}
			seq.Items = append(seq.Items, v)
		}
		if len(seq.Items) == 0 {
			if j < len(lines) && (lines[j][0] == ' ' || lines[j][0] == '\t') {
				return nil, unsupported(j, "a nested mapping")
			}
			f.Set(key, FrontValue{Kind: FrontNull})
			continue
		}
		f.Set(key, seq)
		i = j - 1
	}
	return f, nil
}

func isBlankOrComment(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return t == "" || t[0] == '#'
}

// splitYAMLKey splits "key: rest" (or "key:" at the end of the line); the
// key may be quoted, as js-yaml quotes keys such as '12' or 'n'.
func splitYAMLKey(line string) (key, rest string, ok bool) {
	if line[0] == '\'' || line[0] == '"' {
		end := closingQuote(line)
		if end < 0 || end+1 >= len(line) || line[end+1] != ':' || end+2 < len(line) && line[end+2] != ' ' && line[end+2] != '\t' {
			return "", "", false
		}
		v, err := parseYAMLScalar(line[:end+1], false)
		if err != nil {
			return "", "", false
		}
		return v.Str, strings.Trim(line[end+2:], " \t"), true
	}
	if line[0] == '?' || line[0] == '-' || line[0] == '[' || line[0] == '{' {
		return "", "", false
	}
	for i := 0; i < len(line); i++ {
		if line[i] == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
			key = strings.TrimRight(line[:i], " \t")
			if key == "" || strings.Contains(key, " #") {
				return "", "", false
			}
			return key, strings.Trim(line[i+1:], " \t"), true
		}
	}
	return "", "", false
}

// closingQuote returns the index of the quote closing the string that
// opens s, or -1.
func closingQuote(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// stripYAMLComment removes a " #" comment after a plain or quoted scalar.
func stripYAMLComment(s string) string {
	if s == "" {
		return s
	}
	inQuote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inQuote == 0 && (c == '\'' || c == '"') && i == 0:
			inQuote = c
		case inQuote == '\'' && c == '\'':
			if i+1 < len(s) && s[i+1] == '\'' {
				i++
			} else {
				inQuote = 0
			}
		case inQuote == '"' && c == '\\':
			i++
		case inQuote == '"' && c == '"':
			inQuote = 0
		case inQuote == 0 && c == '#' && i > 0 && (s[i-1] == ' ' || s[i-1] == '\t'):
			return strings.TrimRight(s[:i], " \t")
		}
	}
	return s
}

// parseYAMLInline reads a scalar or a flow list of scalars on one line.
func parseYAMLInline(s string) (FrontValue, error) {
	switch s[0] {
	case '[':
		if !strings.HasSuffix(s, "]") {
			return FrontValue{}, errors.New("a flow list that does not close on its line")
		}
		seq := FrontValue{Kind: FrontSeq, Items: []FrontValue{}}
		body := strings.TrimSpace(s[1 : len(s)-1])
		if body == "" {
			return seq, nil
		}
		for _, part := range splitFlowItems(body) {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if strings.ContainsAny(part[:1], "[{") {
				return FrontValue{}, errors.New("a nested flow collection")
			}
			v, err := parseYAMLScalar(part, true)
			if err != nil {
				return FrontValue{}, err
			}
			seq.Items = append(seq.Items, v)
		}
		return seq, nil
	case '{':
		return FrontValue{}, errors.New("a flow mapping")
	}
	return parseYAMLScalar(s, false)
}

func splitFlowItems(s string) []string {
	var out []string
	start, q := 0, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q == 0 && (c == '\'' || c == '"'):
			q = c
		case q == '"' && c == '\\':
			i++
		case q != 0 && c == q:
			if q == '\'' && i+1 < len(s) && s[i+1] == '\'' {
				i++
			} else {
				q = 0
			}
		case q == 0 && c == ',':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func parseYAMLScalar(s string, inFlow bool) (FrontValue, error) {
	switch s[0] {
	case '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' {
			return FrontValue{}, errors.New("an unterminated quoted string")
		}
		body := s[1 : len(s)-1]
		if strings.Contains(strings.ReplaceAll(body, "''", ""), "'") {
			return FrontValue{}, errors.New("text after a quoted string")
		}
		return StringValue(strings.ReplaceAll(body, "''", "'")), nil
	case '"':
		v, err := strconv.Unquote(s)
		if err != nil || strings.Contains(s, `\x`) || strings.Contains(s, `\U`) {
			return FrontValue{}, errors.New("a double-quoted string with escapes outside the subset")
		}
		return StringValue(v), nil
	case '|', '>', '&', '*', '!', '%', '@', '`':
		return FrontValue{}, fmt.Errorf("a value starting with %q", s[0])
	}
	if strings.Contains(s, ": ") || strings.HasSuffix(s, ":") || inFlow && strings.ContainsAny(s, "[]{}") {
		return FrontValue{}, errors.New("a plain scalar with a mapping indicator")
	}
	return resolvePlainScalar(s), nil
}

// resolvePlainScalar applies js-yaml's implicit types (the default safe
// schema) to a plain scalar.
func resolvePlainScalar(s string) FrontValue {
	switch {
	case yamlIsNull(s):
		return FrontValue{Kind: FrontNull, Str: s}
	case yamlIsBool(s):
		return FrontValue{Kind: FrontBool, Str: s, Bool: s[0] == 't' || s[0] == 'T'}
	case yamlIsInt(s), yamlIsFloat(s):
		return FrontValue{Kind: FrontNumber, Str: s, Num: yamlNumber(s)}
	}
	if ms, ok := yamlTimestamp(s); ok {
		return FrontValue{Kind: FrontTime, Str: s, Time: ms}
	}
	return StringValue(s)
}

func yamlIsNull(s string) bool {
	return s == "~" || s == "null" || s == "Null" || s == "NULL"
}

func yamlIsBool(s string) bool {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return true
	}
	return false
}

// yamlIsInt is js-yaml 3's resolveYamlInteger.
func yamlIsInt(s string) bool {
	if s == "" {
		return false
	}
	i := 0
	if s[0] == '-' || s[0] == '+' {
		i++
	}
	if i >= len(s) {
		return false
	}
	digitsIn := func(rest string, ok func(byte) bool) bool {
		has := false
		last := byte(0)
		for j := 0; j < len(rest); j++ {
			last = rest[j]
			if last == '_' {
				continue
			}
			if !ok(last) {
				return false
			}
			has = true
		}
		return has && last != '_'
	}
	if s[i] == '0' {
		if i+1 == len(s) {
			return true
		}
		switch s[i+1] {
		case 'b':
			return digitsIn(s[i+2:], func(c byte) bool { return c == '0' || c == '1' })
		case 'x':
			return digitsIn(s[i+2:], func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' })
		}
		return digitsIn(s[i+1:], func(c byte) bool { return c >= '0' && c <= '7' })
	}
	if s[i] == '_' {
		return false
	}
	has := false
	last := byte(0)
	j := i
	for ; j < len(s); j++ {
		last = s[j]
		if last == '_' {
			continue
		}
		if last == ':' {
			break
		}
		if last < '0' || last > '9' {
			return false
		}
		has = true
	}
	if !has || last == '_' {
		return false
	}
	if last != ':' {
		return true
	}
	return sexagesimalRE().MatchString(s[j:])
}

var (
	sexagesimalRE  = LazyRegexp(`^(:[0-5]?[0-9])+$`)
	yamlFloatRE    = LazyRegexp(`^(?:[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	yamlDateRE     = LazyRegexp(`^([0-9][0-9][0-9][0-9])-([0-9][0-9])-([0-9][0-9])$`)
	yamlDateTimeRE = LazyRegexp(`^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?$`)
)

func yamlIsFloat(s string) bool {
	return yamlFloatRE().MatchString(s) && s[len(s)-1] != '_'
}

// yamlNumber is the value js-yaml constructs; it only matters for sorting
// and for writing it back, so sexagesimal and exotic forms are approximate.
func yamlNumber(s string) float64 {
	t := strings.ToLower(strings.ReplaceAll(s, "_", ""))
	switch strings.TrimLeft(t, "+-") {
	case ".inf":
		if strings.HasPrefix(t, "-") {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case ".nan":
		return math.NaN()
	}
	if n, err := strconv.ParseInt(t, 0, 64); err == nil {
		return float64(n)
	}
	f, _ := strconv.ParseFloat(t, 64)
	return f
}

// yamlTimestamp is js-yaml 3's timestamp type: a date is UTC midnight; a
// time without a zone is UTC.
func yamlTimestamp(s string) (int64, bool) {
	if m := yamlDateRE().FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		return time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC).UnixMilli(), true
	}
	m := yamlDateTimeRE().FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	ms := 0
	if frac := m[7]; frac != "" {
		frac = (frac + "00")[:3]
		ms, _ = strconv.Atoi(frac)
	}
	t := time.Date(n(1), time.Month(n(2)), n(3), n(4), n(5), n(6), ms*int(time.Millisecond), time.UTC)
	if m[9] != "" {
		off := time.Duration(n(10))*time.Hour + time.Duration(n(11))*time.Minute
		if m[9] == "-" {
			off = -off
		}
		t = t.Add(-off)
	}
	return t.UnixMilli(), true
}

// DumpYAML writes a mapping as js-yaml 3's safeDump with its defaults
// (indent 2, line width 80) writes it, for the subset ParseMatter reads.
func DumpYAML(f *Frontmatter) (string, error) {
	if len(f.keys) == 0 {
		return "{}\n", nil
	}
	var b strings.Builder
	for _, k := range f.keys {
		key, err := dumpYAMLString(k, true)
		if err != nil {
			return "", err
		}
		b.WriteString(key)
		v := f.values[k]
		if v.Kind == FrontSeq && len(v.Items) > 0 {
			b.WriteString(":")
			for _, it := range v.Items {
				s, err := dumpYAMLScalar(it)
				if err != nil {
					return "", err
				}
				b.WriteString("\n  - " + s)
			}
			b.WriteByte('\n')
			continue
		}
		s, err := dumpYAMLScalar(v)
		if err != nil {
			return "", err
		}
		b.WriteString(": " + s + "\n")
	}
	return b.String(), nil
}

func dumpYAMLScalar(v FrontValue) (string, error) {
	switch v.Kind {
	case FrontNull:
		return "null", nil
	case FrontBool:
		if v.Bool {
			return "true", nil
		}
		return "false", nil
	case FrontNumber:
		switch {
		case math.IsNaN(v.Num):
			return ".nan", nil
		case math.IsInf(v.Num, 1):
			return ".inf", nil
		case math.IsInf(v.Num, -1):
			return "-.inf", nil
		}
		s := string(AppendJSNumber(nil, v.Num))
		if v.Num != math.Trunc(v.Num) && strings.Contains(s, "e") && !strings.Contains(s, ".") {
			s = strings.Replace(s, "e", ".e", 1)
		}
		return s, nil
	case FrontTime:
		t := time.UnixMilli(v.Time).UTC()
		if t.Year() < 0 || t.Year() > 9999 {
			// JavaScript writes such years with six digits and a sign.
			return "", fmt.Errorf("%w: a date outside the years 0–9999", ErrFrontmatterUnsupported)
		}
		return FormatISOTime(t), nil
	case FrontSeq:
		if len(v.Items) == 0 {
			return "[]", nil
		}
		return "", fmt.Errorf("%w: a list inside a list", ErrFrontmatterUnsupported)
	}
	return dumpYAMLString(v.Str, false)
}

// yamlDeprecatedBooleans are quoted by js-yaml for YAML 1.1 readers.
var yamlDeprecatedBooleans = map[string]bool{"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "on": true, "On": true, "ON": true,
	"n": true, "N": true, "no": true, "No": true, "NO": true, "off": true, "Off": true, "OFF": true}

// dumpYAMLString is js-yaml 3's writeScalar for the plain and single-quoted
// styles; strings that would need another style are unsupported.
func dumpYAMLString(s string, isKey bool) (string, error) {
	if s == "" {
		return "''", nil
	}
	if yamlDeprecatedBooleans[s] {
		return "'" + s + "'", nil
	}
	// The widest line js-yaml allows at the levels the observer writes.
	const lineWidth = 78
	if !isKey && UTF16Len(s) > lineWidth && s[0] != ' ' {
		return "", fmt.Errorf("%w: a string js-yaml would fold (%d characters)", ErrFrontmatterUnsupported, UTF16Len(s))
	}
	plain := true
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	if !yamlPlainSafeFirst(first) || last == ' ' || last == '\t' {
		plain = false
	}
	prev := rune(-1)
	for _, r := range s {
		if !yamlPrintable(r) || r == '\n' {
			return "", fmt.Errorf("%w: a string js-yaml would escape or write as a block", ErrFrontmatterUnsupported)
		}
		if plain && !yamlPlainSafe(r, prev) {
			plain = false
		}
		prev = r
	}
	if plain && !yamlAmbiguous(s) {
		return s, nil
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'", nil
}

// yamlPrintable is js-yaml's isPrintable on UTF-16 code units: characters
// outside the Basic Multilingual Plane are surrogates, hence not printable.
func yamlPrintable(r rune) bool {
	return r >= 0x20 && r <= 0x7e || r >= 0xa1 && r <= 0xd7ff && r != 0x2028 && r != 0x2029 || r >= 0xe000 && r <= 0xfffd && r != 0xfeff
}

func yamlPlainSafe(r, prev rune) bool {
	switch r {
	case 0xfeff, ',', '[', ']', '{', '}', ':':
		return false
	case '#':
		return prev >= 0 && yamlPrintable(prev) && prev != ' ' && prev != '\t' && prev != 0xfeff
	}
	return yamlPrintable(r)
}

func yamlPlainSafeFirst(r rune) bool {
	if !yamlPrintable(r) || r == 0xfeff || r == ' ' || r == '\t' {
		return false
	}
	return !strings.ContainsRune("-?:,[]{}#&*!|=>'\"%@`", r)
}

// yamlAmbiguous is testImplicitResolving: would the plain string read back
// as another type?
func yamlAmbiguous(s string) bool {
	if yamlIsNull(s) || yamlIsBool(s) || yamlIsInt(s) || yamlIsFloat(s) || s == "<<" {
		return true
	}
	_, ok := yamlTimestamp(s)
	return ok
}
