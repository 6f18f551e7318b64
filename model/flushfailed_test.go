package model

import (
	"strings"
	"testing"
)

// flush-failed names OpenClaw's count, and the time and its error text
// where it kept them, and where it read them.
func TestFlushFailedDiagnosis(t *testing.T) {
	two, one := 2, 1
	for _, tt := range []struct {
		origin Origin
		f      FlushFailure
		want   []string
	}{
		{OriginIndex, FlushFailure{Count: &two, LastFailedAt: 1795262400000, LastError: "429 rate limited"},
			[]string{"sessions.json records 2 failed memory flushes in a row", "the last on 2026-11-21 12:00 UTC", `"429 rate limited"`}},
		{OriginSQLite, FlushFailure{Count: &one}, []string{"(entry_json) records 1 failed memory flush:", "keeps no error text"}},
	} {
		row := SessionRow{Origin: tt.origin, Entry: &StatusEntry{FlushFailure: tt.f}}
		out := withFlush(nil, &row)
		if len(out) != 1 || out[0].Code != CodeFlushFailed {
			t.Fatalf("%+v: %v", tt.f, out)
		}
		for _, w := range tt.want {
			if !strings.Contains(out[0].Message, w) {
				t.Errorf("%q lacks %q", out[0].Message, w)
			}
		}
	}
	zero := 0
	if out := withFlush(nil, &SessionRow{Entry: &StatusEntry{FlushFailure: FlushFailure{Count: &zero}}}); len(out) != 0 {
		t.Errorf("no failure: %v", out)
	}
}
