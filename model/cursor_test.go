package model

import (
	"math"
	"slices"
	"testing"
)

// The §7 sample of ClawVault 3.5.2's cursor file, byte for byte.
const sampleCursors = `{
  "00000000-0000-0000-0000-000000000001": {
    "lastObservedOffset": 79992,
    "lastObservedAt": "2026-03-14T22:43:45.027Z",
    "sessionKey": "agent:main:main",
    "lastFileSize": 79992
  },
  "00000000-0000-0000-0000-000000000003": {
    "lastObservedOffset": 67176,
    "lastObservedAt": "2026-03-14T22:43:45.044Z",
    "sessionKey": "agent:main:discord:channel:998877",
    "lastFileSize": 67254
  },
  "00000000-0000-0000-0000-000000000002": {
    "lastObservedOffset": 758,
    "lastObservedAt": "2026-03-15T09:12:04.236Z",
    "sessionKey": "agent:main:telegram:dm:123456789",
    "lastFileSize": 758
  }
}
`

func TestCursorStoreRoundTrip(t *testing.T) {
	store, problems, err := ParseCursorStore([]byte(sampleCursors))
	if err != nil || len(problems) != 0 {
		t.Fatalf("parse: %v %v", err, problems)
	}
	if store.Len() != 3 {
		t.Fatalf("len = %d", store.Len())
	}
	if got := string(MarshalCursorStore(store)); got != sampleCursors {
		t.Errorf("round trip differs:\n%s", got)
	}
	c, _ := store.Get("00000000-0000-0000-0000-000000000003")
	if c.Offset() != 67176 || c.FileSize() != 67254 || c.SessionKey != "agent:main:discord:channel:998877" {
		t.Errorf("cursor = %+v", c)
	}
}

func TestCursorStoreValidation(t *testing.T) {
	data := `{
  "ok": {"lastObservedOffset": 1, "lastObservedAt": "2026-03-14T22:43:45.027Z", "sessionKey": "k", "lastFileSize": 1},
  "bad id!": {"lastObservedOffset": 1, "lastObservedAt": "t", "sessionKey": "k", "lastFileSize": 1},
  "neg": {"lastObservedOffset": -1, "lastObservedAt": "t", "sessionKey": "k", "lastFileSize": 1},
  "str": {"lastObservedOffset": "5", "lastObservedAt": "t", "sessionKey": "k", "lastFileSize": 1},
  "empty": {"lastObservedOffset": 1, "lastObservedAt": "t", "sessionKey": "  ", "lastFileSize": 1},
  "missing": {"lastObservedOffset": 1, "lastObservedAt": "t", "sessionKey": "k"},
  "array": [1, 2],
  "null": null
}`
	store, problems, err := ParseCursorStore([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if store.Len() != 1 {
		t.Errorf("valid cursors = %d, want 1", store.Len())
	}
	var ids []string
	for _, p := range problems {
		ids = append(ids, p.SessionID)
		if p.Reason == "" {
			t.Errorf("%s: no reason", p.SessionID)
		}
	}
	want := []string{"bad id!", "neg", "str", "empty", "missing", "array", "null"}
	if !slices.Equal(ids, want) {
		t.Errorf("problems = %v, want %v", ids, want)
	}
}

func TestCursorStoreCorrupt(t *testing.T) {
	for _, data := range []string{"", "{", "[]", "null", `{"a":1} x`, "\xef\xbb\xbf{}"} {
		store, _, err := ParseCursorStore([]byte(data))
		if err == nil {
			t.Errorf("%q: want an error", data)
		}
		if store == nil || store.Len() != 0 {
			t.Errorf("%q: a corrupt file loads as empty", data)
		}
	}
}

func TestCursorStorePropertyOrder(t *testing.T) {
	// JavaScript enumerates integer-like keys first, ascending; then the
	// rest in insertion order. New keys go last.
	s := NewCursorStore()
	c := Cursor{LastObservedOffset: 1, LastObservedAt: "t", SessionKey: "k", LastFileSize: 1}
	for _, id := range []string{"b", "10", "a", "2", "010"} {
		s.Set(id, c)
	}
	if got, want := s.Keys(), []string{"2", "10", "b", "a", "010"}; !slices.Equal(got, want) {
		t.Errorf("keys = %v, want %v", got, want)
	}
	s.Set("b", c) // updating keeps the position
	s.Set("z", c)
	if got, want := s.Keys(), []string{"2", "10", "b", "a", "010", "z"}; !slices.Equal(got, want) {
		t.Errorf("keys = %v, want %v", got, want)
	}
}

func TestMergeCursors(t *testing.T) {
	disk := NewCursorStore()
	disk.Set("a", Cursor{LastObservedOffset: 500, LastObservedAt: "t1", SessionKey: "k", LastFileSize: 500})
	disk.Set("b", Cursor{LastObservedOffset: 100, LastObservedAt: "t1", SessionKey: "k", LastFileSize: 100})
	MergeCursors(disk, []CursorUpdate{
		{SessionID: "a", Cursor: Cursor{LastObservedOffset: 300, LastObservedAt: "t2", SessionKey: "k", LastFileSize: 300}},
		{SessionID: "b", Cursor: Cursor{LastObservedOffset: 200, LastObservedAt: "t2", SessionKey: "k", LastFileSize: 200}},
		{SessionID: "c", Cursor: Cursor{LastObservedOffset: 50, LastObservedAt: "t2", SessionKey: "k", LastFileSize: 50}, Truncated: true},
	})
	if c, _ := disk.Get("a"); c.Offset() != 500 {
		t.Errorf("a moved backwards to %d", c.Offset())
	}
	if c, _ := disk.Get("b"); c.Offset() != 200 {
		t.Errorf("b = %d, want 200", c.Offset())
	}
	disk2 := NewCursorStore()
	disk2.Set("c", Cursor{LastObservedOffset: 900, LastObservedAt: "t1", SessionKey: "k", LastFileSize: 900})
	MergeCursors(disk2, []CursorUpdate{{SessionID: "c", Cursor: Cursor{LastObservedOffset: 50, LastObservedAt: "t2", SessionKey: "k", LastFileSize: 50}, Truncated: true}})
	if c, _ := disk2.Get("c"); c.Offset() != 50 {
		t.Errorf("a truncated file's cursor moves back, got %d", c.Offset())
	}
}

func TestAppendJSNumber(t *testing.T) {
	tests := map[float64]string{
		0: "0", 1: "1", 79992: "79992", -5: "-5", 1.5: "1.5", 0.1: "0.1", 1e21: "1e+21", 1e20: "100000000000000000000",
		123456789012: "123456789012", 1e-7: "1e-7", 0.000001: "0.000001", 1.25e-10: "1.25e-10", 2.5e25: "2.5e+25",
		math.MaxInt64: "9223372036854776000", math.Inf(1): "null",
	}
	for f, want := range tests {
		if got := string(AppendJSNumber(nil, f)); got != want {
			t.Errorf("AppendJSNumber(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestAppendJSString(t *testing.T) {
	tests := map[string]string{
		`plain`:          `"plain"`,
		`a"b\c`:          `"a\"b\\c"`,
		"tab\tnl\n\x01":  `"tab\tnl\n\u0001"`,
		"<&>\u2028":      "\"<&>\u2028\"",
		"zoë":            `"zoë"`,
		"bad\xffutf8":    "\"bad\uFFFDutf8\"",
		"\b\f\r\x1f\x7f": "\"\\b\\f\\r\\u001f\x7f\"",
	}
	for in, want := range tests {
		if got := string(AppendJSString(nil, in)); got != want {
			t.Errorf("AppendJSString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestIsArrayIndexKey(t *testing.T) {
	for k, want := range map[string]bool{"0": true, "42": true, "4294967294": true, "4294967295": false, "01": false, "": false, "-1": false, "1a": false} {
		if got := IsArrayIndexKey(k); got != want {
			t.Errorf("IsArrayIndexKey(%q) = %v", k, got)
		}
	}
}

func TestParseISOTime(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1970-01-01T00:00:00.000Z", 0, true},
		{"2026-04-10T08:00:00.105Z", 1775808000105, true},
		{"2026-04-10T08:00:00Z", 1775808000000, true},
		{"2026-04-10T10:00:00.105+02:00", 1775808000105, true},
		{"2026-04-10", 1775779200000, true},
		{"2024-02-29T00:00:00.000Z", 1709164800000, true},
		{"yesterday", 0, false},
		{"2026-13-10T08:00:00.105Z", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseISOTime(tt.in)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("ParseISOTime(%q) = %d,%v want %d,%v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
