package observer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

// NormalizeLine follows ClawVault 3.5.2's parseOpenClawJsonLine.
func TestNormalizeLine(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		`{"type":"message","id":"a","message":{"role":"user","content":"Hello   world\n"}}`:                                                                                             "user: Hello world",
		`{"type":"message","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"a"},{"type":"toolCall","name":"read","arguments":{}}]}}`: "assistant: a",
		`{"role":" Assistant ","content":"x"}`:                                                       "assistant: x",
		`{"type":"message","message":{"content":"no role"}}`:                                         "no role",
		`{"type":"message","message":{"role":"toolResult","content":[{"type":"text","text":"ok"}]}}`: "toolresult: ok",
		`{"type":"compaction","summary":"s","firstKeptEntryId":"a"}`:                                 "",
		`{"type":"custom_message","content":"in context but not a message line"}`:                    "",
		`{"role":"user","content":[["a",{"content":"b"}],{"text":"c"}]}`:                             "user: a b c",
		`{"role":"user","content":{"text":"t"}}`:                                                     "user: t",
		`{"role":"","content":{"content":"z"}}`:                                                      "z",
		`{"role":5,"content":"number role"}`:                                                         "number role",
		`{"role":"user","content":{"content":["not","a","string"]}}`:                                 "",
		`{"role":"user","content":"   "}`:                                                            "",
		`{"role":"user","content":"a\u00a0\u2003b"}`:                                                 "user: a b",
		`{"role":"user","content":[{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}`:  "",
		`{"type":"message","message":null}`:                                                          "",
		`{"type":"message","message":{"role":"user","content":"with CR"}}` + "\r":                    "user: with CR",
		`[1,2]`:                                 "",
		`{"type":"message","message":{"role":"`: "",
		``:                                      "",
	}
	for line, want := range tests {
		if got := NormalizeLine([]byte(line)); got != want {
			t.Errorf("NormalizeLine(%s) = %q, want %q", line, got, want)
		}
	}
}

func FuzzNormalizeLine(f *testing.F) {
	f.Add([]byte(`{"type":"message","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}`))
	f.Add([]byte(`{"role":"x","content":[[[[{"text":"deep"}]]]]}`))
	f.Add([]byte("\xff\xfe{}"))
	f.Fuzz(func(t *testing.T, line []byte) {
		out := NormalizeLine(line)
		if strings.Contains(out, "  ") || strings.TrimSpace(out) != out {
			t.Fatalf("whitespace is not collapsed: %q", out)
		}
	})
}

func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDeepCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	msg := `{"type":"message","id":"a","parentId":null,"timestamp":"2026-11-21T00:00:00.000Z","message":{"role":"user","content":"hi"}}`
	meta := `{"type":"model_change","id":"b","parentId":"a","timestamp":"2026-11-21T00:00:00.000Z","provider":"p","modelId":"m"}`
	tests := []struct {
		name        string
		data        string
		start       int64
		partial     bool
		tailBytes   int64
		hasMessages bool
	}{
		{"messages, complete", msg + "\n" + meta + "\n", 0, false, 0, true},
		{"only bookkeeping pending", msg + "\n" + meta + "\n", int64(len(msg) + 1), false, 0, false},
		{"a torn tail waits", msg + "\n" + `{"type":"message","id":"c"`, 0, true, 26, true},
		{"a tail that parses is a message", meta + "\n" + msg, int64(len(meta) + 1), true, int64(len(msg)), true},
		{"a consumed tail is not pending", msg + "\n" + msg, int64(2*len(msg) + 1), false, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, dir, "s.jsonl", tt.data)
			row := model.SessionRow{File: p, Exists: true, Size: int64(len(tt.data)), Name: model.FileName{Kind: model.FilePrimary},
				Selection: model.Selection{StartOffset: tt.start, NewBytes: int64(len(tt.data)) - tt.start}}
			facts := DeepCheck(store.OS, &row, true, 0)
			if facts.Err != "" {
				t.Fatal(facts.Err)
			}
			if facts.PartialTail != tt.partial || facts.TailBytes != tt.tailBytes || (facts.Messages > 0) != tt.hasMessages {
				t.Errorf("facts = %+v", facts)
			}
			quick := DeepCheck(store.OS, &row, false, 0)
			if quick.PartialTail != tt.partial || (quick.Messages > 0) != tt.hasMessages {
				t.Errorf("stopping at the first message changed the answer: %+v", quick)
			}
		})
	}
}

func TestWriteDryRun(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	WriteDryRun(&b, Selection{Checked: 3})
	if b.String() != "No active sessions crossed threshold (3 checked).\n" {
		t.Errorf("%q", b.String())
	}
	b.Reset()
	WriteDryRun(&b, Selection{Checked: 3, Candidates: []Candidate{
		{SessionKey: "agent:main:main", Source: "main", NewBytes: 14680064, ThresholdBytes: 307200},
		{SessionKey: "agent:main:telegram:dm:1", Source: "telegram-dm", NewBytes: 51200, ThresholdBytes: 51200},
	}})
	want := "Dry run: 2 session(s) would be observed (14731264 new bytes).\n" +
		"- agent:main:main [main] Δ14680064B (threshold 307200B)\n" +
		"- agent:main:telegram:dm:1 [telegram-dm] Δ51200B (threshold 51200B)\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
