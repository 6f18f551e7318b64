package cli

import (
	"clawvault-tui/model"

	"encoding/json"
	"os"
	"strings"
	"testing"

	"clawvault-tui/store"
)

// TestObserveSQLiteAgent: the demo's agent ops lives in the SQLite-era
// store. The dry run lists its session after ClawVault's (empty) lines; a
// sweep observes it, moves its seq cursor in a file of ours and never in
// ClawVault's; status then shows the cursor and nothing pending.
func TestObserveSQLiteAgent(t *testing.T) {
	t.Parallel()
	state, vault := demoCopy(t)
	flags := []string{"--agent", "ops", "--state-dir", state, "-v", vault, "--now", "2026-11-21T12:00:00Z"}
	out, errOut, code := runCLI(t, append([]string{"observe", "--dry-run"}, flags[:6]...)...)
	if code != 0 || !strings.HasPrefix(out, "No active sessions crossed threshold (0 checked).\n") ||
		!strings.Contains(out, "SQLite-era store (ClawVault 3.5.2 cannot observe it; clawvault-tui does, by seq): 1 of 4 sessions would be observed") ||
		!strings.Contains(out, "- agent:ops:main [main]") {
		t.Fatalf("dry run, exit %d:\n%s%s", code, out, errOut)
	}
	cvBefore, _ := os.ReadFile(store.CursorFile(vault))

	out, errOut, code = runCLI(t, append([]string{"observe", "--json"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Observed []struct {
			SessionKey string          `json:"sessionKey"`
			SessionID  string          `json:"sessionId"`
			Cursor     json.RawMessage `json:"cursor"`
			SeqCursor  *struct {
				LastObservedSeq int64  `json:"lastObservedSeq"`
				ObservedBytes   int64  `json:"observedBytes"`
				LastObservedAt  string `json:"lastObservedAt"`
			} `json:"seqCursor"`
			Observations int `json:"observations"`
		} `json:"observed"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Observed) != 1 || doc.Observed[0].SessionKey != "agent:ops:main" || doc.Observed[0].SeqCursor == nil ||
		string(doc.Observed[0].Cursor) != "null" || doc.Observed[0].Observations == 0 || doc.Observed[0].SeqCursor.LastObservedAt != "2026-11-21T12:00:00.000Z" {
		t.Fatalf("observed:\n%s", out)
	}
	seq := doc.Observed[0].SeqCursor
	if cvAfter, _ := os.ReadFile(store.CursorFile(vault)); string(cvAfter) != string(cvBefore) {
		t.Error("the sweep of a SQLite-era session changed ClawVault's cursor file")
	}

	out, errOut, code = runCLI(t, "status", "--json", "--agent", "ops", "--state-dir", state, "-v", vault)
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, errOut)
	}
	var st struct {
		Sessions []sessionDoc `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range st.Sessions {
		if s.SessionID == doc.Observed[0].SessionID {
			found = true
			if s.LastObservedSeq == nil || *s.LastObservedSeq != seq.LastObservedSeq || s.PendingBytes != 0 || s.SizeBytes != seq.ObservedBytes {
				t.Errorf("status after the sweep: seq %v, pending %d of %d (observed %d)", s.LastObservedSeq, s.PendingBytes, s.SizeBytes, seq.ObservedBytes)
			}
			// Observed, it is as fine as an observed JSONL session: no
			// code that needs a look.
			if len(s.Diagnosis) != 1 || s.Diagnosis[0].Code != model.CodeSQLiteSession ||
				!strings.Contains(s.Diagnosis[0].Message, "clawvault-tui can, by seq: it observed it through seq") {
				t.Errorf("status after the sweep: %+v", s.Diagnosis)
			}
		}
	}
	if !found {
		t.Error("status has no row for the observed session")
	}
	text, _, _ := runCLI(t, "status", "--agent", "ops", "--problems", "--state-dir", state, "-v", vault)
	if strings.Contains(text, "agent:ops:main ") && strings.Contains(text, "(seq ") {
		t.Errorf("status --problems lists the observed session:\n%s", text)
	}

	// --clawvault-compat writes what ClawVault would: nothing of the store.
	out, _, code = runCLI(t, append([]string{"observe", "--clawvault-compat", "--min-new", "1"}, flags...)...)
	if code != 0 || !strings.Contains(out, "were not observed: --clawvault-compat") {
		t.Errorf("compat sweep, exit %d:\n%s", code, out)
	}
}
