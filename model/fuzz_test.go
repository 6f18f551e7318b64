package model

import (
	"bytes"
	"testing"
)

// FuzzParseSessionKey: any string parses without panicking, and the label
// agrees with ClawVault's first-segment rule.
func FuzzParseSessionKey(f *testing.F) {
	for _, s := range []string{"agent:main:main", "agent:a:telegram:group:-1:topic:42", "agent:a:subagent:x:subagent:y",
		"agent:a:whatsapp:acct:direct:+1", "agent:a:cron:j:run:r", "global", "agent::", "agent:a:b:thread:", ":::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		k := ParseSessionKey(raw)
		if k.Raw != raw {
			t.Fatalf("Raw = %q", k.Raw)
		}
		_ = k.ParentKey()
		if SourceLabel(raw) == "" {
			t.Fatalf("empty label for %q", raw)
		}
		_ = ChatKind(raw, "")
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
		out := MarshalCursorStore(store)
		again, problems, err := ParseCursorStore(out)
		if err != nil || len(problems) != 0 {
			t.Fatalf("our own output does not load: %v %v\n%s", err, problems, out)
		}
		if !bytes.Equal(MarshalCursorStore(again), out) {
			t.Fatalf("not stable:\n%s", out)
		}
	})
}
