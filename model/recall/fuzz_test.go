package recall

import (
	"testing"
	"unicode/utf8"
)

// FuzzParseIndexMeta: any meta row's value parses or is nil, never a
// panic, and a parsed one checks against any settings.
func FuzzParseIndexMeta(f *testing.F) {
	f.Add(`{"model":"m","provider":"openai","providerKey":"k","sources":["memory"],"chunkTokens":400,"chunkOverlap":80,"chunkingVersion":5,"provenanceVersion":1,"vectorDims":64}`)
	f.Add(`{"sources":"memory","chunkTokens":"400"}`)
	f.Add(`[]`)
	f.Add(`{"vectorDims":1e400}`)
	c, _ := ResolveConfig(map[string]any{}, "main", func(s string) string { return s })
	f.Fuzz(func(t *testing.T, raw string) {
		m := ParseIndexMeta(raw)
		st := CheckIdentity(m, IdentityCheck{Want: &Identity{Provider: "openai", Model: "m"}, Config: c, HasChunks: true})
		if st.Status == "" {
			t.Fatal("no identity verdict")
		}
	})
}

// FuzzDecodeJSON: openclaw.json of any shape decodes or fails, and what
// decodes resolves to settings without a panic.
func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"memory":{"search":{"provider":"ollama","query":{"maxResults":3},"extraPaths":["a",{"path":"b","pattern":"*.md"}],"multimodal":{"enabled":true}}},"agents":{"entries":{"main":{"memory":{"search":{"enabled":true}}}}}}`))
	f.Add([]byte(`{"agents":{"list":[{"id":"main","memory":{"search":{"sources":["sessions"],"experimental":{"sessionMemory":true}}}}]},"bindings":[{"session":{"dmScope":"x"}}]}`))
	f.Add([]byte(`{"a":1}{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := DecodeJSON(data)
		if err != nil {
			return
		}
		c, _ := ResolveConfig(o, "main", func(s string) string { return s })
		_ = c.ScopeHash(func(p string) string { return "/w/" + p })
	})
}

// FuzzQuery: any query plans, splits and boosts without a panic, and its
// FTS expression quotes every word.
func FuzzQuery(f *testing.F) {
	for _, q := range []string{"dark roast coffee", "ルーター 設定", "회의에서", "\"quoted\"", "a\x00b", "memory/2026-11-20.md", "İ", "\xff\xfe"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		for _, tok := range []string{"unicode61", "trigram"} {
			BodyPlan(q, tok)
			PathPlans(q, tok)
			FallbackWords(q, tok)
		}
		NewBooster(q).Score(q, q, .5)
		NewExactPath(q).Specificity(q)
		for _, p := range ExactPathPatterns(q) {
			Like(p, q)
		}
		if s := truncateUTF16(q, 3); utf8.ValidString(q) && !utf8.ValidString(s) {
			t.Fatalf("truncating %q left %q", q, s)
		}
	})
}
