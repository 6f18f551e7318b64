package store

import "testing"

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
