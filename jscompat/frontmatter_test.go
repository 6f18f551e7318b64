package jscompat

import (
	"errors"
	"testing"
)

// The expected texts are gray-matter 4.0.3 / js-yaml 3.15.2 output (run
// with Node on the same values).
func TestStringifyMatter(t *testing.T) {
	fm := NewFrontmatter()
	fm.Set("created", StringValue("2026-03-14T22:43:45.006Z"))
	fm.Set("source", StringValue("observer"))
	fm.Set("tags", StringsValue([]string{"open", "observer", "todo"}))
	got, err := StringifyMatter("# T\n\nbody", fm)
	if want := "---\ncreated: '2026-03-14T22:43:45.006Z'\nsource: observer\ntags:\n  - open\n  - observer\n  - todo\n---\n# T\n\nbody\n"; err != nil || got != want {
		t.Errorf("got %q, %v\nwant %q", got, err, want)
	}

	scalars := []struct {
		key, value, want string
	}{
		{"title", "yes", "title: 'yes'"},
		{"n", "12", "'n': '12'"},
		{"f", "1.5", "f: '1.5'"},
		{"t", "true", "t: 'true'"},
		{"nul", "null", "nul: 'null'"},
		{"d", "2026-01-02", "d: '2026-01-02'"},
		{"colon", "a: b", "colon: 'a: b'"},
		{"hash", "a #b", "hash: 'a #b'"},
		{"hash2", "a#b", "hash2: a#b"},
		{"q", "it's", "q: it's"},
		{"lead", "-x", "lead: '-x'"},
		{"sp", "x ", "sp: 'x '"},
		{"e", "", "e: ''"},
		{"tilde", "~", "tilde: '~'"},
		{"merge", "<<", "merge: '<<'"},
		{"sexa", "1:30", "sexa: '1:30'"},
		{"oct", "0o17", "oct: 0o17"},
		{"hex", "0x1F", "hex: '0x1F'"},
		{"under", "1_000", "under: '1_000'"},
		{"dotnum", ".5", "dotnum: '.5'"},
		{"inf", ".inf", "inf: '.inf'"},
		{"at", "@x", "at: '@x'"},
		{"pct", "%x", "pct: '%x'"},
		{"brack", "a[b]", "brack: 'a[b]'"},
		{"comma", "a, b", "comma: 'a, b'"},
		{"q2", `say "hi"`, `q2: say "hi"`},
		{"uni", "Zoë", "uni: Zoë"},
	}
	for _, s := range scalars {
		f := NewFrontmatter()
		f.Set(s.key, StringValue(s.value))
		got, err := DumpYAML(f)
		if err != nil || got != s.want+"\n" {
			t.Errorf("%s=%q: got %q, %v; want %q", s.key, s.value, got, err, s.want)
		}
	}
	other := NewFrontmatter()
	other.Set("emptyArr", FrontValue{Kind: FrontSeq})
	other.Set("num", FrontValue{Kind: FrontNumber, Num: 3})
	other.Set("fl", FrontValue{Kind: FrontNumber, Num: 0.5})
	other.Set("bool", FrontValue{Kind: FrontBool})
	other.Set("date", FrontValue{Kind: FrontTime, Time: 1767312000000})
	if got, err := DumpYAML(other); err != nil || got != "emptyArr: []\nnum: 3\nfl: 0.5\nbool: false\ndate: 2026-01-02T00:00:00.000Z\n" {
		t.Errorf("got %q, %v", got, err)
	}
	for _, v := range []string{"a\u00a0b", "tab\there", "emoji 😀", "line\nbreak",
		"a string longer than js-yaml's line width, which it would fold into a block scalar rather than quote"} {
		f := NewFrontmatter()
		f.Set("k", StringValue(v))
		if _, err := DumpYAML(f); !errors.Is(err, ErrFrontmatterUnsupported) {
			t.Errorf("%q should be refused, not written unlike js-yaml: %v", v, err)
		}
	}
}

func TestParseMatter(t *testing.T) {
	doc, err := ParseMatter("---\ntitle: Northwind\ndate: '2026-08-23'\ntype: project\nupdated: 2026-11-19T12:00:00.000Z\n" +
		"tags:\n  - billing\nk: [a, 'b', 3] # comment\nowner: '[[Jonas]]'\n---\n# Northwind\n\nBody")
	if err != nil {
		t.Fatal(err)
	}
	if doc.Content != "# Northwind\n\nBody" || doc.Data.GetString("title") != "Northwind" || doc.Data.GetString("date") != "2026-08-23" ||
		doc.Data.GetString("owner") != "[[Jonas]]" {
		t.Errorf("doc = %+v", doc)
	}
	if u, _ := doc.Data.Get("updated"); u.Kind != FrontTime || u.Time != 1795089600000 {
		t.Errorf("an unquoted timestamp is a Date to js-yaml: %+v", u)
	}
	if k, _ := doc.Data.Get("k"); len(k.Items) != 3 || k.Items[2].Kind != FrontNumber || k.Items[1].Str != "b" {
		t.Errorf("flow list: %+v", k)
	}
	if tags, _ := doc.Data.Get("tags"); len(tags.Strings()) != 1 {
		t.Errorf("block list: %+v", tags)
	}
	for _, raw := range []string{"---\nx:\n  nested: map\n---\n", "---\nx: |\n  block\n---\n", "---\nx: &a 1\n---\n", "---\nx: 1\nx: 2\n---\n"} {
		if _, err := ParseMatter(raw); err == nil {
			t.Errorf("%q should be refused", raw)
		}
	}
	if doc, err := ParseMatter("# no front matter"); err != nil || doc.Content != "# no front matter" || len(doc.Data.Keys()) != 0 {
		t.Errorf("plain document: %+v %v", doc, err)
	}
}

// Whatever ParseMatter accepts, StringifyMatter writes back in a form it
// reads again to the same values.
func FuzzFrontmatterRoundTrip(f *testing.F) {
	f.Add("---\ncreated: '2026-03-14T22:43:45.006Z'\nsource: observer\ntags:\n  - open\n---\n# T\n")
	f.Add("---\na: [x, 'y''s', 2]\nb: ~\n---\nbody")
	f.Fuzz(func(t *testing.T, raw string) {
		doc, err := ParseMatter(raw)
		if err != nil {
			return
		}
		out, err := StringifyMatter(doc.Content, doc.Data)
		if err != nil {
			return
		}
		again, err := ParseMatter(out)
		if err != nil {
			t.Fatalf("our own output does not read back: %v\n%q", err, out)
		}
		for _, k := range doc.Data.Keys() {
			a, _ := doc.Data.Get(k)
			b, _ := again.Data.Get(k)
			if a.Kind != b.Kind || a.Kind == FrontString && a.Str != b.Str {
				t.Fatalf("%s changed: %+v → %+v\n%q", k, a, b, out)
			}
		}
	})
}

// Keys returns the keys in order.
func (f *Frontmatter) Keys() []string { return append([]string(nil), f.keys...) }
