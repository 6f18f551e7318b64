package model

import (
	"math"
	"slices"
	"testing"
)

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
