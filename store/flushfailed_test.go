package store

import (
	"testing"

	"clawvault-tui/model"
)

// A session entry's failed memory flushes are read from sessions.json's
// fields of 2026.8 and from 2026.9's memoryFlush object (entry_json), whose
// compactionCount counts for flush-skipped too.
func TestDecodeFlushFailure(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		entry           string
		failures, flush int // -1: none
		at              int64
		text            string
	}{
		{`{"sessionId":"s","updatedAt":1,"memoryFlushFailureCount":2,"memoryFlushLastFailedAt":1795262400000,"memoryFlushLastFailureError":"429 rate limited"}`, 2, -1, 1795262400000, "429 rate limited"},
		{`{"sessionId":"s","updatedAt":1,"compactionCount":4,"memoryFlush":{"kind":"failed","compactionCount":2,"failureCount":1}}`, 1, 2, 0, ""},
		{`{"sessionId":"s","updatedAt":1,"memoryFlush":{"kind":"succeeded","compactionCount":2}}`, -1, 2, 0, ""},
		{`{"sessionId":"s","updatedAt":1,"memoryFlushCompactionCount":3,"memoryFlush":{"kind":"failed","compactionCount":2,"failureCount":5}}`, 5, 3, 0, ""},
	} {
		var e model.StatusEntry
		if problem := decodeStatusEntry([]byte(tt.entry), &e, nil); problem != "" {
			t.Fatalf("%s: %s", tt.entry, problem)
		}
		got := func(p *int) int {
			if p == nil {
				return -1
			}
			return *p
		}
		f := e.FlushFailure
		if got(f.Count) != tt.failures || got(e.MemoryFlushCompactionCount) != tt.flush || f.LastFailedAt != tt.at || f.LastError != tt.text {
			t.Errorf("%s: failures %d, flush count %d, at %d, %q", tt.entry, got(f.Count), got(e.MemoryFlushCompactionCount), f.LastFailedAt, f.LastError)
		}
	}
}
