package model

import (
	"math"
	"slices"
	"testing"

	"clawvault-tui/jscompat"
)

func TestCursorStorePropertyOrder(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	tests := map[float64]string{
		0: "0", 1: "1", 79992: "79992", -5: "-5", 1.5: "1.5", 0.1: "0.1", 1e21: "1e+21", 1e20: "100000000000000000000",
		123456789012: "123456789012", 1e-7: "1e-7", 0.000001: "0.000001", 1.25e-10: "1.25e-10", 2.5e25: "2.5e+25",
		math.MaxInt64: "9223372036854776000", math.Inf(1): "null",
	}
	for f, want := range tests {
		if got := string(jscompat.AppendJSNumber(nil, f)); got != want {
			t.Errorf("AppendJSNumber(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestAppendJSString(t *testing.T) {
	t.Parallel()
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
		if got := string(jscompat.AppendJSString(nil, in)); got != want {
			t.Errorf("AppendJSString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestIsArrayIndexKey(t *testing.T) {
	t.Parallel()
	for k, want := range map[string]bool{"0": true, "42": true, "4294967294": true, "4294967295": false, "01": false, "": false, "-1": false, "1a": false} {
		if got := jscompat.IsArrayIndexKey(k); got != want {
			t.Errorf("IsArrayIndexKey(%q) = %v", k, got)
		}
	}
}

func TestParseISOTime(t *testing.T) {
	t.Parallel()
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
		got, ok := jscompat.ParseISOTime(tt.in)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("ParseISOTime(%q) = %d,%v want %d,%v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// Offsets a JSON number can hold but int64 cannot: ClawVault 3.5.2 keeps
// such a cursor (it is finite and ≥ 0), finds it past the end of any file
// and re-reads the file from byte 0. Go's conversion of such a float is
// undefined (on amd64 it gave -2⁶³: a start before the file, negative
// pending bytes, a panic in status --deep). Before the fix these failed.
func TestHugeCursorOffsets(t *testing.T) {
	t.Parallel()
	for _, off := range []float64{1 << 53, 1<<53 + 2, 1 << 63, 1e19, 1e300, math.MaxFloat64} {
		c := Cursor{LastObservedOffset: off, LastObservedAt: "2026-11-21T00:00:00.000Z", SessionKey: "k", LastFileSize: off}
		if c.Offset() < 0 || c.FileSize() < 0 {
			t.Errorf("%g: offset %d, file size %d", off, c.Offset(), c.FileSize())
		}
		s := Select(35263, &c, 0)
		if !s.PastEOF || s.StartOffset != 0 || s.NewBytes != 35263 {
			t.Errorf("%g: %+v, want past EOF, read from 0", off, s)
		}
		if IsStale(&c, 35263, testNow) {
			t.Errorf("%g: stale (the recorded size is not below the file's)", off)
		}
	}
	if got := (Cursor{LastObservedOffset: 1e19}).OffsetText(); got != "10000000000000000000" {
		t.Errorf("OffsetText(1e19) = %q", got)
	}
	if got := (Cursor{LastObservedOffset: 1e300}).OffsetText(); got != "1e+300" {
		t.Errorf("OffsetText(1e300) = %q", got)
	}
	if got := (Cursor{LastObservedOffset: 1234567}).OffsetText(); got != "1,234,567" {
		t.Errorf("OffsetText(1234567) = %q", got)
	}
}

func TestInt64Of(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   float64
		want int64
		ok   bool
	}{
		{0, 0, true}, {12.9, 12, true}, {-12.9, -12, true},
		{1 << 53, 1 << 53, true}, {-(1 << 63), math.MinInt64, true},
		{1 << 63, 0, false}, {1e19, 0, false}, {-1e19, 0, false}, {1e300, 0, false},
		{math.Inf(1), 0, false}, {math.Inf(-1), 0, false}, {math.NaN(), 0, false},
	} {
		got, ok := jscompat.Int64Of(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Int64Of(%g) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	if got := jscompat.SaturatingInt64(1e19); got != math.MaxInt64 {
		t.Errorf("SaturatingInt64(1e19) = %d", got)
	}
	if got := jscompat.SaturatingInt64(-1e19); got != math.MinInt64 {
		t.Errorf("SaturatingInt64(-1e19) = %d", got)
	}
	if got := jscompat.SaturatingInt64(math.NaN()); got != 0 {
		t.Errorf("SaturatingInt64(NaN) = %d", got)
	}
}

// Numbers from sessions.json and front matter out of int64's range read
// as absent, not as whatever the conversion gives.
func TestJSNumberMsOutOfRange(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"1e19", "1e300", "-1e19", `"1e300"`} {
		var n JSNumber
		if err := n.UnmarshalJSON([]byte(raw)); err != nil {
			t.Fatal(err)
		}
		if n.Ms() != 0 {
			t.Errorf("%s: Ms() = %d, want 0", raw, n.Ms())
		}
	}
	if ms, ok := (jscompat.FrontValue{Kind: jscompat.FrontNumber, Num: 1e19}).DateMillis(); ok {
		t.Errorf("DateMillis(1e19) = %d, true", ms)
	}
}
