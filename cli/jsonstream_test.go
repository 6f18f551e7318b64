package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// FuzzJSONString: appendJSONString quotes any bytes as encoding/json
// (HTML escaping off) does, and Float writes any finite number as it does.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "<a&b>", "\"\\\b\f\n\r\t\x00\x1f\x7f", "\u2028\u2029", "\xff\xfe", "é✓𝄞", "\xed\xa0\x80"} {
		f.Add(s, 1.5)
	}
	f.Add("x", 1e-7)
	f.Add("x", 1e21)
	f.Add("x", math.Copysign(0, -1))
	f.Fuzz(func(t *testing.T, s string, x float64) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); string(got)+"\n" != want.String() {
			t.Fatalf("appendJSONString(%q) = %s, encoding/json gives %s", s, got, want.String())
		}
		if got := appendJSONString(nil, []byte(s)); string(got)+"\n" != want.String() {
			t.Fatalf("appendJSONString([]byte(%q)) = %s, encoding/json gives %s", s, got, want.String())
		}
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return
		}
		want.Reset()
		if err := enc.Encode(x); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		st := newJSONStream(&got)
		st.Float(x)
		if err := st.Finish(); err != nil || got.String() != want.String() {
			t.Fatalf("Float(%v) = %q, encoding/json gives %q", x, got.String(), want.String())
		}
	})
}
