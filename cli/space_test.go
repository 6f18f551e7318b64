package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// space --json: per agent store, its file, WAL, free pages, every table
// and index, the transcripts' bytes by type (which add up to their bytes),
// the largest sessions, the memory index and what could be reclaimed.
func TestSpaceJSONContract(t *testing.T) {
	dir := conformanceDemo(t)
	out, errOut, code := runCLI(t, "space", "--json", "--state-dir", filepath.Join(dir, "state"), "-v", filepath.Join(dir, "vault"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	requireKeys(t, "space", json.RawMessage(out), "agents", "errors")
	var doc struct {
		Agents []json.RawMessage `json:"agents"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Agents) != 1 {
		t.Fatalf("%d agents (%v):\n%s", len(doc.Agents), err, out)
	}
	requireKeys(t, "agent space", doc.Agents[0], "agent", "file", "fileBytes", "walBytes", "freeBytes", "tables", "transcriptBytesByType",
		"transcriptBytes", "largestSessions", "memoryIndex", "reclaim")
	var a struct {
		Agent     string           `json:"agent"`
		FileBytes int64            `json:"fileBytes"`
		Tables    []map[string]any `json:"tables"`
		ByType    map[string]int64 `json:"transcriptBytesByType"`
		Bytes     int64            `json:"transcriptBytes"`
		Reclaim   map[string]any   `json:"reclaim"`
	}
	json.Unmarshal(doc.Agents[0], &a)
	var total, sum int64
	for _, tb := range a.Tables {
		total += int64(tb["bytes"].(float64))
	}
	for _, n := range a.ByType {
		sum += n
	}
	if a.Agent != "ops" || total == 0 || total > a.FileBytes || sum != a.Bytes || a.ByType["message:user"] == 0 || a.Reclaim["vacuumCommand"] == nil {
		t.Errorf("agent %s: tables %d of %d bytes, kinds %d of %d: %s", a.Agent, total, a.FileBytes, sum, a.Bytes, doc.Agents[0])
	}
	text, _, code := runCLI(t, "space", "--state-dir", filepath.Join(dir, "state"), "-v", filepath.Join(dir, "vault"))
	for _, want := range []string{"agent ops: openclaw-agent.sqlite", "tables and indexes", "message:toolResult", "█", "reclaimable:"} {
		if code != 0 || !strings.Contains(text, want) {
			t.Errorf("space (exit %d) lacks %q:\n%s", code, want, text)
		}
	}
}
