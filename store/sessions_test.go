package store

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"clawvault-tui/store/jsonscan"
)

// bigSessionsJSON is a sessions.json past splitMin: rows written as
// OpenClaw writes them, each with a nested object, and the cases a cut
// must keep as a whole read does: a key repeated across the halves (its
// first position, its last value), a row problem the later value clears or
// brings, array-index keys (which JavaScript orders first).
func bigSessionsJSON(rows int) []byte {
	var b bytes.Buffer
	b.WriteString("{")
	row := func(key, body string) {
		writeMember(&b, key, body+",\n    \"origin\": {\n      \"label\": \"x\"\n    },\n    \"updatedAt\": 1784894332039")
	}
	row("agent:main:repeated", `"sessionId": "first", "model": 7`)
	row("agent:main:cleared", `"sessionId": "c1", "totalTokens": "x"`)
	row("7", `"sessionId": "seven"`)
	for i := range rows {
		row(fmt.Sprintf("agent:main:direct:u%06d", i), fmt.Sprintf(`"sessionId": "%08d-0000-4000-8000-000000000000", "chatType": "direct", "model": "claude-opus-4-7", "contextTokens": %d`, i, 1000+i))
	}
	row("agent:main:repeated", `"sessionId": "last", "model": "m"`)
	row("agent:main:cleared", `"sessionId": "c2", "totalTokens": 5`)
	row("agent:main:broken", `"sessionId": "b", "compactionCount": true`)
	row("3", `"sessionId": "three"`)
	b.WriteString("\n}\n")
	return b.Bytes()
}

func TestLoadSessionStoreInTwoHalves(t *testing.T) {
	t.Parallel()
	data := bigSessionsJSON(18000)
	if len(data) < splitMin {
		t.Fatalf("the test file is %d bytes, below splitMin", len(data))
	}
	if cut, _ := jsonscan.FindCut(bytes.NewReader(data), int64(len(data))); cut <= 0 || data[cut-1] != '}' {
		t.Fatalf("FindCut = %d: the file would not be read in two halves", cut)
	}
	path := filepath.Join(t.TempDir(), "sessions.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got := LoadSessionStore(OS, path)
	if got.Problem != "" {
		t.Fatal(got.Problem)
	}
	want, wantProblems, err := parseSessionStore(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(got.Rows), len(want))
	}
	for i := range want {
		w, g := want[i], got.Rows[i]
		if w.Key != g.Key || w.Entry.SessionID != g.Entry.SessionID || w.Entry.Model != g.Entry.Model ||
			!reflect.DeepEqual(w.Entry.ContextTokens, g.Entry.ContextTokens) || !reflect.DeepEqual(w.Entry.TotalTokens, g.Entry.TotalTokens) {
			t.Fatalf("row %d: %q %+v, want %q %+v", i, g.Key, g.Entry, w.Key, w.Entry)
		}
	}
	if !maps.Equal(got.RowProblems, wantProblems) {
		t.Fatalf("row problems %v, want %v", got.RowProblems, wantProblems)
	}
	for key, want := range map[int]string{0: "3", 1: "7", 2: "agent:main:repeated"} {
		if got.Rows[key].Key != want {
			t.Errorf("row %d is %q, want %q", key, got.Rows[key].Key, want)
		}
	}
	if id := got.Rows[2].Entry.SessionID; id != "last" {
		t.Errorf("the repeated key has sessionId %q, want the last value's", id)
	}
	if _, ok := got.RowProblems["agent:main:cleared"]; ok || !strings.Contains(got.RowProblems["agent:main:broken"], "compactionCount") {
		t.Errorf("row problems %v: want only agent:main:broken's", got.RowProblems)
	}
}

// A cursor file past cursorSplitMin parses in two halves to what one
// walk gives: a repeated id across the halves keeps its first position
// and its last value, invalid entries are reported.
func TestParseCursorStoreInTwoHalves(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	b.WriteString("{")
	entry := func(id, body string) { writeMember(&b, id, body) }
	entry("00000000-0000-4000-8000-00000000000a", `"lastObservedOffset": 1, "lastObservedAt": "2026-11-01T00:00:00.000Z", "sessionKey": "first", "lastFileSize": 1`)
	for i := range 14000 {
		entry(fmt.Sprintf("%08d-0000-4000-8000-000000000000", i), fmt.Sprintf(`"lastObservedOffset": %d, "lastObservedAt": "2026-11-01T00:00:00.000Z", "sessionKey": "agent:main:direct:u%d", "lastFileSize": %d`, i, i, i))
	}
	entry("00000000-0000-4000-8000-00000000000a", `"lastObservedOffset": 2, "lastObservedAt": "2026-11-02T00:00:00.000Z", "sessionKey": "last", "lastFileSize": 2`)
	entry("not an id", `"lastObservedOffset": -1`)
	b.WriteString("\n}\n")
	data := b.Bytes()
	if len(data) < cursorSplitMin {
		t.Fatalf("the test file is %d bytes, below cursorSplitMin", len(data))
	}
	if cut, _ := jsonscan.FindCut(bytes.NewReader(data), int64(len(data))); !parsedInHalves(data, cut) {
		t.Fatal("the file does not parse in two halves")
	}
	got, problems, err := ParseCursorStore(data)
	if err != nil {
		t.Fatal(err)
	}
	whole := newCursorEntries(len(data))
	jsonscan.Object(data, 0, func(key, value []byte) bool {
		whole.add(key, value)
		return true
	})
	if got.Len() != len(whole.ids)-1 || len(problems) != 1 || problems[0].SessionID != "not an id" {
		t.Fatalf("%d cursors, problems %v; want %d and the bad id's", got.Len(), problems, len(whole.ids)-1)
	}
	if keys := got.Keys(); keys[0] != "00000000-0000-4000-8000-00000000000a" {
		t.Fatalf("first cursor %q: a repeated id keeps its first position", keys[0])
	}
	if c, _ := got.Get("00000000-0000-4000-8000-00000000000a"); c.SessionKey != "last" {
		t.Fatalf("repeated id: session key %q, want the last value's", c.SessionKey)
	}
}

func parsedInHalves(data []byte, cut int64) bool {
	_, parsed := parseCursorsCut(data, cut)
	return parsed
}

// writeMember writes a member of an indented top-level object whose
// opening brace b holds, with a comma after the first.
func writeMember(b *bytes.Buffer, key, body string) {
	if b.Len() > 1 {
		b.WriteString(",")
	}
	fmt.Fprintf(b, "\n  %q: {\n    %s\n  }", key, body)
}
