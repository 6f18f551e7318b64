package agentdb

import "testing"

// plainKind, where it answers, answers as eventKind's scan does; it leaves
// to the scan what it does not read plainly.
func TestPlainKindIsEventKind(t *testing.T) {
	for _, tt := range []struct {
		event string
		plain bool
	}{
		{`{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":"x"}}`, true},
		{`{"type":"message","id":"a","parentId":"p","timestamp":"t","message":{"role":"toolResult","content":[]}}`, true},
		{`{"type":"custom","id":"a","parentId":null,"timestamp":"t","customType":"openclaw.cache-ttl","data":{}}`, true},
		{`{"type":"custom_message","id":"a","customType":"x:y","content":"c","display":false}`, true},
		{`{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}`, true},
		{`{"type":"compaction","id":"a","parentId":"b","summary":"s","firstKeptEntryId":"c","tokensBefore":12.5e3}`, true},
		{`{"id":"a","type":"model_change","provider":"p"}`, true},
		{`{"type":"message","id":"a\\u0041","message":{"role":"user"}}`, false},
		{`{"type":"message","meta":{"x":1},"message":{"role":"user"}}`, false},
		{`{"type":"message","id":"a","message":{"content":"x","role":"assistant"}}`, false},
		{`{ "type":"label"}`, false},
		{`{"type":"message","id":"a"}`, false},
		{`{"type":"custom","data":[1],"customType":"z"}`, false},
		{`["type"]`, false},
		{`{"type":"x","n":01}`, true},
	} {
		got, ok := plainKind([]byte(tt.event))
		if ok != tt.plain {
			t.Errorf("%s: plain %v, want %v", tt.event, ok, tt.plain)
		}
		if ok && got != eventKind([]byte(tt.event)) {
			t.Errorf("%s: plainly %q, by the scan %q", tt.event, got, eventKind([]byte(tt.event)))
		}
	}
}

func FuzzPlainKind(f *testing.F) {
	f.Add([]byte(`{"type":"message","id":"a","parentId":null,"message":{"role":"user"}}`))
	f.Add([]byte(`{"type":"custom","customType":"c"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, ok := plainKind(b); ok && got != eventKind(b) {
			t.Fatalf("%q: plainly %q, by the scan %q", b, got, eventKind(b))
		}
	})
}
