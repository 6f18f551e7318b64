package observer

import (
	"testing"
)

// The fast path agrees with the reference (ClawVault's rules on
// encoding/json) on every line.
func FuzzNormalizeLineFast(f *testing.F) {
	for _, s := range []string{
		`{"type":"message","id":"a","message":{"role":"user","content":[{"type":"text","text":"hi\nthere"}]}}`,
		`{"role":"Assistant","content":{"Text":"case","content":"lower"}}`,
		`{"type":"message","message":{"role":"user","content":"a\u00a0b\ud83d\ude00"}}`,
		`{"type":"mess\u0061ge","message":{"r\u006fle":"x","content":[["a"],{"text":5,"content":"c"}]}}`,
		`{"role":"a","role":"b","content":"dup keys"}`,
		"{\"role\":\"user\",\"content\":\"\xff\xfe bad \xe2\x82 utf8\"}",
		"  {\"role\":\"user\",\"content\":\"spaces\"}  ",
		"\ufeff{\"role\":\"user\",\"content\":\"bom\"}",
		`{"type":"message","message":[1]}`,
		`{"type":"message","message":{"role":"user","content":"x"}} trailing`,
		`{"role":"u","content":"x"}` + "\r",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if got, want := normalizeLineFast(line), NormalizeLine(line); got != want {
			t.Fatalf("fast %q, reference %q for %q", got, want, line)
		}
	})
}
