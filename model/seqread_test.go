package model

import (
	"strings"
	"testing"
)

// SeqReadOf sets a seq cursor aside when it no longer fits the session, as
// a byte cursor past the end of a file is: the bytes through its seq must
// be the bytes it observed, and a cold archive must reach it.
func TestSeqReadOf(t *testing.T) {
	t.Parallel()
	cur := func(seq, bytes int64) *SeqCursor { return &SeqCursor{LastSeq: seq, ObservedBytes: bytes} }
	live := &Generation{Events: 60, LastSeq: 59}
	cold := &Generation{Cold: true, Events: 60, LastSeq: 59}
	// 60 events of 100 bytes; stats as status computes them after the
	// cursor's seq.
	after := func(seq int64) EventStats {
		n := max(0, 59-seq)
		return EventStats{Events: 60, Bytes: 6000, LastSeq: 59, PendingEvents: n, PendingBytes: n * 100}
	}
	for name, tc := range map[string]struct {
		c       *SeqCursor
		g       *Generation
		s       EventStats
		want    SeqRead
		restart string
	}{
		"live, no cursor":              {nil, live, after(-1), SeqRead{AfterSeq: -1, PendingBytes: 6000, PendingEvents: 60}, ""},
		"live, the cursor fits":        {cur(49, 5000), live, after(49), SeqRead{AfterSeq: 49, StartBytes: 5000, PendingBytes: 1000, PendingEvents: 10}, ""},
		"live, all observed":           {cur(59, 6000), live, after(59), SeqRead{AfterSeq: 59, StartBytes: 6000}, ""},
		"live, rewritten below":        {cur(49, 4999), live, after(49), SeqRead{AfterSeq: -1, PendingBytes: 6000, PendingEvents: 60}, "rewritten since"},
		"live, cut below":              {cur(80, 8100), live, after(80), SeqRead{AfterSeq: -1, PendingBytes: 6000, PendingEvents: 60}, "ends at seq 59, before its seq cursor (seq 80)"},
		"cold, no cursor":              {nil, cold, EventStats{}, SeqRead{AfterSeq: -1, PendingBytes: 6000, PendingEvents: 60}, ""},
		"cold, partly observed":        {cur(49, 5000), cold, EventStats{}, SeqRead{AfterSeq: 49, StartBytes: 5000, PendingBytes: 1000, PendingEvents: 10}, ""},
		"cold, all observed":           {cur(59, 6000), cold, EventStats{}, SeqRead{AfterSeq: 59, StartBytes: 6000}, ""},
		"cold, cursor beyond end":      {cur(80, 8100), cold, EventStats{}, SeqRead{AfterSeq: -1, PendingBytes: 6000, PendingEvents: 60}, "does not fit the cold archive"},
		"cold, bytes beyond end":       {cur(50, 6100), cold, EventStats{}, SeqRead{AfterSeq: -1, PendingBytes: 6000, PendingEvents: 60}, "does not fit the cold archive"},
		"cold, seq and bytes disagree": {cur(59, 5000), cold, EventStats{}, SeqRead{AfterSeq: -1, PendingBytes: 6000, PendingEvents: 60}, "does not fit the cold archive"},
	} {
		t.Run(name, func(t *testing.T) {
			got := SeqReadOf(tc.c, tc.g, 6000, tc.s)
			restart := got.Restart
			got.Restart = ""
			if got != tc.want {
				t.Errorf("read %+v, want %+v", got, tc.want)
			}
			if (tc.restart == "") != (restart == "") || !strings.Contains(restart, tc.restart) {
				t.Errorf("restart %q, want one saying %q", restart, tc.restart)
			}
		})
	}
}
