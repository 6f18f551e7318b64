package model

import (
	"testing"

	"clawvault-tui/jscompat"
)

// FuzzImportNormalize: any line, as the header or an entry of a file of
// any version, normalizes without a panic into JSON that parses.
func FuzzImportNormalize(f *testing.F) {
	for _, s := range []string{
		`{"type":"session","version":3,"id":"x","timestamp":"t","cwd":"/"}`,
		`{"type":"message","id":"a","parentId":null,"message":{"role":"assistant","content":"s","providerReplay":{"type":"anthropic-compaction"}}}`,
		`{"type":"message","message":{"role":"hookMessage","content":[{"type":"text","text":"h"}]}}`,
		`{"type":"compaction","summary":"","firstKeptEntryIndex":0,"tokensBefore":1}`,
		`{"type":"message","id":"b","message":{"role":"toolResult","content":{"type":"text"},"provider":"Codex","api":"openai-codex-responses"}}`,
		`{"type":"reset","id":"r","reason":["new"]}`, `[1]`, `"s"`, `7`,
	} {
		f.Add([]byte(s), 3.0, 0)
		f.Add([]byte(s), 1.0, 1)
	}
	f.Fuzz(func(t *testing.T, line []byte, version float64, header int) {
		v, err := jscompat.ParseJSON(TrimJSSpaceBytes(line))
		if err != nil || !v.Truthy() {
			return
		}
		n := ImportNormalizer{Plan: ImportPlan{SessionID: "s", HeaderIndex: header % 2, Version: version, V1Prefix: "0123456789abcdef",
			CompactionTargets: map[int]bool{0: true, 1: true}}}
		for i := range 2 {
			event, _ := n.Normalize(i, v)
			if _, err := jscompat.ParseJSON(event); err != nil {
				t.Fatalf("%q made %q, which does not parse", line, event)
			}
		}
	})
}

func TestTrimJSSpaceBytes(t *testing.T) {
	for in, want := range map[string]string{
		"  {} \r":              "{}",
		"\ufeff\u00a0{}\u2028": "{}",
		"\t\n":                 "",
		"{\u00a0}":             "{\u00a0}",
		"x\xff ":               "x\xff",
	} {
		if got := string(TrimJSSpaceBytes([]byte(in))); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func TestImportArchiveName(t *testing.T) {
	for name, want := range map[string]string{
		"agent_main_main.0b7e4a52.jsonl.imported-1795872913441":   "agent_main_main.0b7e4a52",
		"agent_main_x.y.abc-topic-4.jsonl.imported-17958729134.2": "agent_main_x.y.abc-topic-4",
		"legacy-store.sessions.json.imported-1795872913500":       "",
		"a.b.jsonl.imported-":    "",
		"a.b.jsonl.imported-12x": "",
	} {
		stem, ok := ImportArchiveName(name)
		if stem != want || ok != (want != "") {
			t.Errorf("%s: %q %v, want %q", name, stem, ok, want)
		}
	}
}
