package store

import (
	"bytes"
	"testing"

	"clawvault-tui/model"
)

// FuzzSessionStore: any sessions.json loads without panicking; rows keep
// unique keys.
func FuzzSessionStore(f *testing.F) {
	f.Add([]byte(`{"agent:main:main":{"sessionId":"a","updatedAt":1,"compactionCount":2}}`))
	f.Add([]byte(`{"2":{"sessionId":5},"1":null,"x":[],"x":{"updatedAt":"7"}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, _, err := parseSessionStore(data)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, r := range rows {
			if seen[r.Key] {
				t.Fatalf("duplicate key %q", r.Key)
			}
			seen[r.Key] = true
			_ = r.Entry.IndexRow(r.Key)
			_, _, _ = r.Entry.FlushSkipped()
		}
	})
}

// FuzzParseCursorStore: any bytes load without panicking; what loads
// writes back in ClawVault's format and reads back the same.
func FuzzParseCursorStore(f *testing.F) {
	f.Add([]byte(sampleCursors))
	f.Add([]byte(`{"1":{"lastObservedOffset":1e3,"lastObservedAt":"x","sessionKey":"\u00e9","lastFileSize":0.5},"a":{}}`))
	f.Add([]byte(`{"a":1,"a":{"lastObservedOffset":1,"lastObservedAt":"x","sessionKey":"k","lastFileSize":1}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		store, _, err := ParseCursorStore(data)
		if err != nil {
			if store.Len() != 0 {
				t.Fatal("a file that does not parse must load as empty")
			}
			return
		}
		out := model.MarshalCursorStore(store)
		again, problems, err := ParseCursorStore(out)
		if err != nil || len(problems) != 0 {
			t.Fatalf("our own output does not load: %v %v\n%s", err, problems, out)
		}
		if !bytes.Equal(model.MarshalCursorStore(again), out) {
			t.Fatalf("not stable:\n%s", out)
		}
	})
}
