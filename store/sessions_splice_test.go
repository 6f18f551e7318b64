package store

import (
	"strings"
	"testing"
)

func TestSpliceOutRows(t *testing.T) {
	t.Parallel()
	// The store as JSON.stringify(store, null, 2) writes it.
	store := "{\n" +
		"  \"a\": {\n    \"sessionId\": \"1\"\n  },\n" +
		"  \"b\": {\n    \"sessionId\": \"2\",\n    \"x\": [\n      1\n    ]\n  },\n" +
		"  \"c\": {}\n}"
	for _, tc := range []struct {
		remove  []string
		want    string
		removed int
	}{
		{nil, store, 0},
		{[]string{"zzz"}, store, 0},
		{[]string{"a"}, "{\n  \"b\": {\n    \"sessionId\": \"2\",\n    \"x\": [\n      1\n    ]\n  },\n  \"c\": {}\n}", 1},
		{[]string{"b"}, "{\n  \"a\": {\n    \"sessionId\": \"1\"\n  },\n  \"c\": {}\n}", 1},
		{[]string{"c"}, "{\n  \"a\": {\n    \"sessionId\": \"1\"\n  },\n  \"b\": {\n    \"sessionId\": \"2\",\n    \"x\": [\n      1\n    ]\n  }\n}", 1},
		{[]string{"a", "c"}, "{\n  \"b\": {\n    \"sessionId\": \"2\",\n    \"x\": [\n      1\n    ]\n  }\n}", 2},
		{[]string{"a", "b", "c"}, "{}", 3},
	} {
		remove := map[string]bool{}
		for _, k := range tc.remove {
			remove[k] = true
		}
		got, n, err := SpliceOutRows([]byte(store), remove)
		if err != nil || string(got) != tc.want || n != tc.removed {
			t.Errorf("remove %v: got %q (%d, %v)\nwant %q", tc.remove, got, n, err, tc.want)
		}
	}

	// Compact input, escaped keys and duplicates.
	got, n, err := SpliceOutRows([]byte(`{"a":1,"b\u0031":2,"a":3, "c":4}`+"\n"), map[string]bool{"a": true, "b1": true})
	if err != nil || string(got) != `{"c":4}`+"\n" || n != 3 {
		t.Errorf("compact: %q %d %v", got, n, err)
	}

	for _, bad := range []string{"", "[]", `{"a":`, `{"a":1} x`} {
		if _, _, err := SpliceOutRows([]byte(bad), map[string]bool{"a": true}); err == nil || !strings.Contains(err.Error(), "not one JSON object") {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
}

func TestStringifiedSize(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		`{"a":1}`:                     "{\n  \"a\": 1\n}",
		`{"a":[1,{"b":null}],"c":{}}`: "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {}\n}",
		`{"a":1,"a":22}`:              "{\n  \"a\": 22\n}",
		`[]`:                          "[]",
		`1.50`:                        "1.5",
		`-0`:                          "0",
		`1e21`:                        "1e+21",
		`"\u00e9\/"`:                  `"é/"`,
		`"\u0001"`:                    `"\u0001"`,
		`12345678901234567890`:        "12345678901234567000",
	} {
		if got := StringifiedSize([]byte(raw), 0); got != int64(len(want)) {
			t.Errorf("StringifiedSize(%s) = %d, want %d (%s)", raw, got, len(want), want)
		}
	}
	// At depth 1 every line gains two spaces of indent.
	if got := StringifiedSize([]byte(`{"a":[1]}`), 1); got != int64(len("{\n    \"a\": [\n      1\n    ]\n  }")) {
		t.Errorf("depth 1: %d", got)
	}
}

// FuzzSpliceOutRows: splicing never panics, and what it returns parses to
// the same object without the removed keys.
func FuzzSpliceOutRows(f *testing.F) {
	f.Add([]byte("{\n  \"a\": {\n    \"b\": 1\n  },\n  \"c\": 2\n}"), "a")
	f.Add([]byte(`{"a":1,"a":2}`), "a")
	f.Add([]byte(`{}`), "x")
	f.Add([]byte(`[1]`), "x")
	f.Fuzz(func(t *testing.T, data []byte, key string) {
		out, _, err := SpliceOutRows(data, map[string]bool{key: true})
		if err != nil {
			return
		}
		rows, _, err := parseSessionStore(out)
		if err != nil {
			t.Fatalf("spliced %q into %q, which does not parse: %v", data, out, err)
		}
		for _, r := range rows {
			if r.Key == key {
				t.Fatalf("key %q survived in %q", key, out)
			}
		}
		_ = StringifiedSize(data, 1)
	})
}
