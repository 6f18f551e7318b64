package observer

import (
	"encoding/json"
	"testing"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
)

// The operations a sweep records replay to the same file when replayed
// twice (a recovery interrupted in turn runs again), and as JSON (the
// journal's) as they do in memory.
func TestVaultOpsReplay(t *testing.T) {
	t.Parallel()
	obs := []model.Observation{{Date: "2026-11-21", Type: "decision", Confidence: 0.9, Importance: 0.8, Content: "10:00 We chose Postgres", Format: model.ObservationScored}}
	theirs := "---\ntitle: x\nsource: 3.5e400\ntags: [a]\n---\n# Item\n"
	cases := []struct {
		op      vaultOp
		content string
		exists  bool
	}{
		{observationsOp(obs, true), "## 2026-11-21\n\n- [fact|c=0.50|i=0.20] 09:00 theirs\nnot an observation\n", true},
		{observationsOp(obs, false), "", false},
		{vaultOp{Kind: opAppend, Header: "# decisions — 2026-11-21\n", Date: "2026-11-21", Line: "- [decision|c=0.90|i=0.80] chose", Dedup: normalizeForDedup("chose")}, "# decisions — 2026-11-21\n\n- theirs\n", true},
		{vaultOp{Kind: opCreate, Text: "ours\n"}, "", false},
		{vaultOp{Kind: opCreate, Text: "ours\n"}, "theirs\n", true},
		{vaultOp{Kind: opTouch, Set: []frontSet{{"tags", frontValueOf(jscompat.StringsValue([]string{"a", "commitment"}))}, {"lastSeen", frontValueOf(jscompat.StringValue("2026-11-21T12:00:00.000Z"))}}}, theirs, true},
	}
	for i, c := range cases {
		once, e1, _ := c.op.apply([]byte(c.content), c.exists)
		twice, e2, _ := c.op.apply(once, e1)
		if string(once) != string(twice) || e1 != e2 {
			t.Errorf("case %d: replayed twice %q, once %q", i, twice, once)
		}
		data, err := json.Marshal([]vaultOp{c.op})
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		viaJSON, e3, err := replayOps(data, []byte(c.content), c.exists)
		if err != nil || string(viaJSON) != string(once) || e3 != e1 {
			t.Errorf("case %d: from the journal %q (%v), in memory %q", i, viaJSON, err, once)
		}
	}
}

// FuzzReplayOps: any operations a journal holds are refused or replayed,
// on any content, without a panic.
func FuzzReplayOps(f *testing.F) {
	for _, op := range []vaultOp{
		observationsOp([]model.Observation{{Date: "2026-11-21", Type: "fact", Confidence: 1, Importance: 0.5, Content: "x"}}, true),
		{Kind: opAppend, Header: "# h\n", Date: "2026-11-21", Line: "- l", Dedup: "l"},
		{Kind: opCreate, Text: "t"},
		{Kind: opTouch, Set: []frontSet{{"source", frontValue{Kind: jscompat.FrontNumber, Num: "+Inf"}}}},
	} {
		data, _ := json.Marshal([]vaultOp{op})
		f.Add(data, []byte("---\nsource: x\n---\n## 2026-11-21\n- [fact|c=1|i=1] y\n"))
	}
	f.Add([]byte(`[{"kind":"rm -rf"}]`), []byte(""))
	f.Add([]byte(`[{"kind":"touch","set":[{"key":"k","value":{"kind":5,"items":[{"kind":3,"num":"NaN"}]}}]}]`), []byte("---\na: 1\n---\n"))
	f.Fuzz(func(t *testing.T, ops, content []byte) {
		if _, err := decodeOps(ops); err != nil {
			return
		}
		if _, _, err := replayOps(ops, content, len(content) > 0); err != nil {
			t.Fatalf("decoded but not replayed: %v", err)
		}
	})
}
