package search

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseQuery(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text   string
		typing bool
		want   Query
	}{
		{"postgres migration", false, Query{Want: Clauses{Terms: []Term{{Text: "postgres"}, {Text: "migration"}}}}},
		{`"credit notes" -draft -"old plan"`, false, Query{Want: Clauses{Terms: []Term{{Text: "credit notes", Phrase: true}}},
			Not: Clauses{Terms: []Term{{Text: "draft"}, {Text: "old plan", Phrase: true}}}}},
		{"path:Decisions -path:ledger/archive", false, Query{Want: Clauses{Paths: []string{"decisions"}}, Not: Clauses{Paths: []string{"ledger/archive"}}}},
		{`path:"my notes/x"`, false, Query{Want: Clauses{Paths: []string{"my notes/x"}}}},
		{"type:decision,LESSON -type:todo", false, Query{Want: Clauses{Types: []string{"decision", "lesson"}}, Not: Clauses{Types: []string{"todo"}}}},
		{"i>=0.8 c<0.5 importance=1 -i<0.2", false, Query{Want: Clauses{Ranges: []Range{{"importance", ">=", 0.8}, {"confidence", "<", 0.5},
			{"importance", "=", 1}}}, Not: Clauses{Ranges: []Range{{"importance", "<", 0.2}}}}},
		{"tea.KeyPressMsg http://x.y/z", false, Query{Want: Clauses{Terms: []Term{{Text: "tea.KeyPressMsg"}, {Text: "http://x.y/z"}}}}},
		{"— !!! ok", false, Query{Want: Clauses{Terms: []Term{{Text: "ok"}}}}},
		// While typing: the last word is a prefix, from its second letter.
		{"postgres mig", true, Query{Want: Clauses{Terms: []Term{{Text: "postgres"}, {Text: "mig", Prefix: true}}}}},
		{"postgres m", true, Query{Want: Clauses{Terms: []Term{{Text: "postgres"}}}}},
		{"postgres mig ", true, Query{Want: Clauses{Terms: []Term{{Text: "postgres"}, {Text: "mig"}}}}},
		{"a", false, Query{Want: Clauses{Terms: []Term{{Text: "a"}}}}},
		{"-dra", true, Query{Not: Clauses{Terms: []Term{{Text: "dra"}}}}},
		{`"weekly bil`, true, Query{Want: Clauses{Terms: []Term{{Text: "weekly bil", Phrase: true, Prefix: true}}}}},
		{"type:dec", true, Query{Want: Clauses{Types: []string{"decision"}}}},
		{"type:co", true, Query{Want: Clauses{Types: []string{"commitment", "commitment-unresolved"}}}},
		{"x type:", true, Query{Want: Clauses{Terms: []Term{{Text: "x"}}}}},
		{"x path:", true, Query{Want: Clauses{Terms: []Term{{Text: "x"}}}}},
		{"x i>=", true, Query{Want: Clauses{Terms: []Term{{Text: "x"}}}}},
		{"x i>=0.", true, Query{Want: Clauses{Terms: []Term{{Text: "x"}}}}},
		{"x i>=0", true, Query{Want: Clauses{Terms: []Term{{Text: "x"}}}}},
		{"x i>=0.8", true, Query{Want: Clauses{Terms: []Term{{Text: "x"}}, Ranges: []Range{{"importance", ">=", 0.8}}}}},
		{"x i>=1", true, Query{Want: Clauses{Terms: []Term{{Text: "x"}}, Ranges: []Range{{"importance", ">=", 1}}}}},
		{"i>=0 xy", true, Query{Want: Clauses{Terms: []Term{{Text: "xy", Prefix: true}}, Ranges: []Range{{"importance", ">=", 0}}}}},
		{"x -", true, Query{Want: Clauses{Terms: []Term{{Text: "x"}}}}},
		{"   ", true, Query{}},
		{"mongo* -dra*", false, Query{Want: Clauses{Terms: []Term{{Text: "mongo", Prefix: true}}}, Not: Clauses{Terms: []Term{{Text: "dra", Prefix: true}}}}},
		{"m*", true, Query{}},
	}
	for _, c := range cases {
		got, err := ParseQuery(c.text, c.typing)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		c.want.Text = c.text
		if !reflect.DeepEqual(*got, c.want) {
			t.Errorf("%q (typing %v):\n got %+v\nwant %+v", c.text, c.typing, *got, c.want)
		}
	}
}

func TestParseQueryErrors(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		`"credit notes`:    `no closing "`,
		`path:"my notes`:   `no closing "`,
		"x -":              "a lone -",
		`""`:               "empty phrase",
		"path:":            "path: needs",
		"type:":            "type: needs",
		"type:decisoin":    `unknown observation type "decisoin"`,
		"i>=2":             "i>= needs a number from 0 to 1",
		"i>=high":          "i>= needs a number",
		"c<1e-1":           "c< needs a number",
		"x type:decision,": "type: needs",
		"m*":               "m* would match most of memory",
	}
	for text, want := range cases {
		_, err := ParseQuery(text, false)
		var qe *QueryError
		if !errors.As(err, &qe) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", text, err, want)
		}
	}
	// Typing cannot make type:xyz valid, so it is an error at once.
	if _, err := ParseQuery("type:xyz", true); err == nil || !strings.Contains(err.Error(), `no observation type starts with "xyz"`) {
		t.Errorf("typing type:xyz: %v", err)
	}
	if _, err := ParseQuery("  type:decisoin", false); err == nil || !strings.Contains(err.Error(), "column 3") {
		t.Errorf("the column: %v", err)
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{`"a b" -c path:d type:decision i>=0.8`, `-"`, `path:"x`, "type:co,", "i>", "c=1.0000", "\x00-\"", "ü -ü"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, typing bool) {
		q, err := ParseQuery(text, typing)
		if err != nil {
			var qe *QueryError
			if !errors.As(err, &qe) || qe.Column < 1 {
				t.Fatalf("%q: error %v is not a *QueryError with a column", text, err)
			}
			return
		}
		for _, r := range append(q.Want.Ranges, q.Not.Ranges...) {
			if r.Value < 0 || r.Value > 1 {
				t.Fatalf("%q: range %+v", text, r)
			}
		}
	})
}

func TestManifestRoundTrip(t *testing.T) {
	t.Parallel()
	m := manifest{
		"vault:ledger/observations/2026/11/20.md": {Size: 1200, MTime: 1_700_000_000_123_456_789, Indexed: 1200, Hash: [16]byte{1, 2, 3}, Docs: []docRef{{1, 7}, {3, 1 << 63}, {4, 0}, {40, 9}}},
		"workspace/main:MEMORY.md":                {Size: 0, MTime: -5, Docs: []docRef{}},
		"sessions/main:s.jsonl":                   {Size: 900, Indexed: 850, Docs: []docRef{{2, 1}, {4, 2}}},
	}
	got, err := decodeManifest(m.encode())
	if err != nil {
		t.Fatal(err)
	}
	// Read back, an entry encodes as it was read, documents still encoded.
	if again, err := decodeManifest(got.encode()); err != nil || len(again) != len(m) {
		t.Fatalf("re-encoding what was read: %v", err)
	}
	for _, f := range m {
		f.enc = nil
	}
	for k, f := range got {
		if _, err := f.docList(); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		f.enc = nil
	}
	if !reflect.DeepEqual(got, m) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, m)
	}
	for _, bad := range [][]byte{nil, []byte("CVTM\x03"), append(m.encode(), 0), m.encode()[:20]} {
		if _, err := decodeManifest(bad); err == nil {
			t.Errorf("%q decodes", bad)
		}
	}
	// A file listed twice does not decode (the scan alone lets it by).
	twice := append(m.encode()[:len(manifestMagic)], 2)
	entry := manifest{"vault:a.md": {Size: 3, Indexed: 3, Docs: []docRef{}}}.encode()[len(manifestMagic)+1:]
	twice = append(append(twice, entry...), entry...)
	if _, err := decodeManifest(twice); err == nil {
		t.Error("a file listed twice decodes")
	}
	if n, err := scanManifest(twice, nil, func(*manifestEntry) bool { return true }); err != nil || n != 2 {
		t.Errorf("scanning a file listed twice: %d entries, %v", n, err)
	}
	// A damaged document list is found when the documents are needed:
	// two documents on one line.
	one := manifest{"vault:a.md": {Size: 3, Indexed: 3, Docs: []docRef{{1, 5}, {1, 6}}}}
	read, err := decodeManifest(one.encode())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := read["vault:a.md"].docList(); err == nil {
		t.Error("two documents on one line decode")
	}
}

// FuzzDecodeManifest: any bytes decode without panicking, and what decodes
// encodes back to a manifest that decodes the same.
func FuzzDecodeManifest(f *testing.F) {
	f.Add(manifest{"vault:a.md": {Size: 3, Indexed: 3, Docs: []docRef{{1, 5}, {2, 6}}}}.encode())
	f.Add([]byte(manifestMagic + "\x01\x01a\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeManifest(data)
		// The scan a quiet sync reads the manifest with accepts what
		// decodes, and only that (a key listed twice aside).
		_, serr := scanManifest(data, nil, func(*manifestEntry) bool { return true })
		if twice := err != nil && strings.Contains(err.Error(), "listed twice"); (serr == nil) != (err == nil || twice) {
			t.Fatalf("the scan says %v, the decoder %v", serr, err)
		}
		if err != nil {
			return
		}
		again, err := decodeManifest(m.encode())
		if err != nil || len(again) != len(m) {
			t.Fatalf("re-encoding: %v", err)
		}
		for k, f := range m {
			g := again[k]
			if g == nil || g.Size != f.Size || g.MTime != f.MTime || g.Indexed != f.Indexed || g.Hash != f.Hash {
				t.Fatalf("%q: %+v became %+v", k, f, g)
			}
			fd, ferr := f.docList()
			gd, gerr := g.docList()
			if (ferr == nil) != (gerr == nil) || !reflect.DeepEqual(fd, gd) {
				t.Fatalf("%q: documents %v (%v) became %v (%v)", k, fd, ferr, gd, gerr)
			}
			if ferr == nil {
				// Decoded, they encode to what decodes the same.
				f.enc = nil
				m2, err := decodeManifest(manifest{k: f}.encode())
				if err != nil {
					t.Fatalf("%q: %v", k, err)
				}
				if d2, err := m2[k].docList(); err != nil || !reflect.DeepEqual(d2, fd) {
					t.Fatalf("%q: documents %v became %v (%v)", k, fd, d2, err)
				}
			}
		}
		if !bytes.HasPrefix(data, []byte(manifestMagic)) {
			t.Fatal("decoded without the magic")
		}
	})
}
