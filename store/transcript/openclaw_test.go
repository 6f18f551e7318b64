package transcript

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"clawvault-tui/model"
)

// conformanceGolden is a file of testdata/conformance, or of the fresh
// outputs `make conformance` points CONFORMANCE_DIR at.
func conformanceGolden(name string) string {
	if d := os.Getenv("CONFORMANCE_DIR"); d != "" {
		return filepath.Join(d, name)
	}
	return filepath.Join("..", "..", "cli", "testdata", "conformance", name)
}

// TestOpenClawTreeConformance: on the transcripts of testdata/openclaw
// (leaf controls, side appends, reset boundaries, stale parents, usage and
// context_edit entries, excludeFromContext), OpenClaw's rules give the leaf,
// the active events and the number of context messages that OpenClaw
// 2026.9.6's own scanSessionTranscriptTree,
// prepareMemorySessionTranscriptProjection and buildSessionContext give
// (conformance/openclaw-tree.mjs).
func TestOpenClawTreeConformance(t *testing.T) {
	t.Parallel()
	f, err := os.Open(conformanceGolden("openclaw-tree.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var want struct {
			File            string   `json:"file"`
			LeafID          *string  `json:"leafId"`
			ActiveIDs       []string `json:"activeIds"`
			ContextEligible []int    `json:"contextEligible"`
			ContextMessages int      `json:"contextMessages"`
		}
		if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
			t.Fatal(err)
		}
		cases++
		t.Run(want.File, func(t *testing.T) {
			path := filepath.Join("testdata", "openclaw", want.File)
			ix := buildFile(t, path)
			if deferred := indexDeferred(t, mustRead(t, path)); !sameIndex(ix, deferred) {
				t.Error("reading message lines by their prefix, then validating, gives another index")
			}
			tr := model.BuildTreeWith(ix.Entries, ix.Facts, ix.Version, ix.Names, model.RulesOpenClaw)
			leaf := ""
			if want.LeafID != nil {
				leaf = *want.LeafID
			}
			if tr.LeafID() != leaf {
				t.Errorf("leaf %q, OpenClaw %q", tr.LeafID(), leaf)
			}
			if got := tr.IDs(tr.ActivePath); !slices.Equal(got, want.ActiveIDs) && len(got)+len(want.ActiveIDs) > 0 {
				t.Errorf("active path %v, OpenClaw %v", got, want.ActiveIDs)
			}
			var eligible []int
			for _, i := range tr.ActivePath {
				e := 1
				if tr.Entry(i).Flags&model.FlagExcludeContext != 0 {
					e = 0
				}
				eligible = append(eligible, e)
			}
			if !slices.Equal(eligible, want.ContextEligible) && len(eligible)+len(want.ContextEligible) > 0 {
				t.Errorf("context eligibility %v, OpenClaw %v", eligible, want.ContextEligible)
			}
			if tr.ContextMessages != want.ContextMessages {
				t.Errorf("context %d messages (%v), OpenClaw %d", tr.ContextMessages, tr.IDs(tr.Context), want.ContextMessages)
			}
		})
	}
	if cases < 10 {
		t.Fatalf("only %d cases in the golden", cases)
	}
}

// TestPreviewNewEntryTypes: the entry types newer than pi 0.66 (OpenClaw
// 2026.9's reset and leaf records, pi 1.5's usage, context_edit and
// system messages) decode and say what they are.
func TestPreviewNewEntryTypes(t *testing.T) {
	t.Parallel()
	for line, want := range map[string]string{
		`{"type":"reset","id":"r","parentId":"a","reason":"new","firstKeptEntryId":"a0000003"}`:                                                 "reset (new): the context restarts, keeping from a0000003",
		`{"type":"leaf","id":"l","parentId":"a","targetId":"a0000002"}`:                                                                         "leaf → a0000002",
		`{"type":"leaf","id":"l","parentId":"a","targetId":null}`:                                                                               "leaf → none (the active branch is cleared)",
		`{"type":"usage","id":"u","kind":"cache_warm","usage":{"totalTokens":50000,"cost":{"total":0.015}}}`:                                    "usage cache_warm · 50,000 tokens · $0.015",
		`{"type":"context_edit","id":"e","targetId":"a0000001","replacement":null}`:                                                             "context edit: a0000001 leaves the context",
		`{"type":"context_edit","id":"e","targetId":"a0000001","replacement":{"content":"x"}}`:                                                  "context edit: a0000001 replaced in the context",
		`{"type":"message","id":"s","message":{"role":"system","content":"","sections":{"tools":"","cwd":"/"},"toolsAdded":[{"name":"read"}]}}`: "system prompt: cwd, tools (+1/−0 tools)",
	} {
		b, err := DecodeEntry([]byte(line), "event seq 3")
		if err != nil {
			t.Fatal(err)
		}
		if got := Preview(b, 200); got != want {
			t.Errorf("%s: preview %q, want %q", line, got, want)
		}
	}
	if _, err := DecodeEntry([]byte(`{"type":"message","id":"\x"}`), "event seq 9"); err == nil || !strings.Contains(err.Error(), "event seq 9") {
		t.Errorf("a bad event: %v, want an error naming it", err)
	}
}
