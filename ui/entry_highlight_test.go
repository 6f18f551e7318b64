package ui

import (
	"strings"
	"testing"

	"clawvault-tui/model"
	"clawvault-tui/themes"
)

// The entry view colours JSON (a tool call's arguments, a tool result that
// is JSON) and a command line with chroma, in the theme's colours: keys,
// strings and numbers each in their own; the plain theme colours nothing.
// Before, they were drawn in one colour.
func TestEntryViewHighlightsCodeAndJSON(t *testing.T) {
	t.Parallel()
	c := &Common{}
	body := &model.EntryBody{Type: "message", ID: "e1", Role: "assistant", Blocks: []model.Block{
		{Kind: model.BlockToolCall, Name: "read", CallID: "c1", Arguments: []byte(`{"path":"notes.md","limit":20}`)},
	}}
	result := &model.EntryBody{Type: "message", ID: "e2", Role: "toolResult", ToolName: "read", ToolCallID: "c1",
		Blocks: []model.Block{{Kind: model.BlockText, Text: `{"ok":true,"lines":3}`}}}
	bash := &model.EntryBody{Type: "message", ID: "e3", Role: "bashExecution", Command: `grep -n "todo" notes.md`}
	for _, name := range []string{"dark", "light", "ansi", "none"} {
		th := themes.ByName(name, true)
		for _, tc := range []struct {
			body        *model.EntryBody
			first, then string // two tokens of different kinds
		}{
			{body, `"notes.md"`, `20`},
			{result, `"ok"`, `true`},
			{bash, `grep`, `"todo"`},
		} {
			out := renderEntry(c, th, "notty", tc.body, model.Entry{Line: 1}, "line", 80)
			a, b := sgrBefore(out, tc.first), sgrBefore(out, tc.then)
			switch {
			case th.Plain && (strings.Contains(lineWith(out, tc.first), "\x1b[") || strings.Contains(lineWith(out, tc.then), "\x1b[")):
				t.Errorf("%s: %s is coloured:\n%q", name, tc.body.ID, out)
			case !th.Plain && (a == "" || b == "" || a == b):
				t.Errorf("%s: %s is not highlighted (%s after %q, %s after %q):\n%q", name, tc.body.ID, tc.first, a, tc.then, b, out)
			}
		}
	}
}

// lineWith is the line of s that holds word.
func lineWith(s, word string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, word) {
			return l
		}
	}
	return ""
}
