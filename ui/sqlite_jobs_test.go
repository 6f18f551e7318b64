package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/observer"
	"clawvault-tui/store"
	"clawvault-tui/store/vaultfs"
)

// The Jobs screen takes the demo's SQLite-era session like a file: the dry
// run lists it apart from ClawVault's numbers, the confirmation names it,
// and the sweep gets it as a candidate of the store, by session id.
func TestSweepTakesSQLiteSessions(t *testing.T) {
	t.Parallel()
	var got []observer.Candidate
	runners := JobRunners{Sweep: func(ctx context.Context, _ *store.Snapshot, c []observer.Candidate, _ observer.ProgressFunc) (JobResult, error) {
		got = c
		rep := &observer.SweepReport{Candidates: c, Agents: []string{"ops"}, Compressor: "rules"}
		for _, cand := range c {
			if cand.Seq != nil {
				rep.Observed = append(rep.Observed, observer.SessionResult{SessionKey: cand.SessionKey, SessionID: cand.SessionID, CursorID: cand.CursorID,
					Source: cand.Source, BytesRead: cand.NewBytes, SeqCursor: &observer.SeqCursorOut{LastObservedSeq: cand.Seq.LastSeq}})
			}
		}
		return NewSweepResult(rep), nil
	}}
	a := newApp(t, 120, 40, Options{Jobs: runners})
	_, man := demoWorkspace(t)
	press(t, a, "5", "d")
	if v := viewText(a); !strings.Contains(v, "SQLite-era store: 1 candidate of 4 sessions ClawVault cannot read") {
		t.Errorf("the dry run does not list the SQLite-era session:\n%s", v)
	}
	press(t, a, "S")
	if v := viewText(a); a.confirm == nil || !strings.Contains(v, "agent:ops:main [main]") || !strings.Contains(v, "(SQLite-era store)") {
		t.Fatalf("the confirmation does not name the SQLite-era session:\n%s", v)
	}
	press(t, a, "y")
	var seq *observer.Candidate
	for i := range got {
		if got[i].Seq != nil {
			seq = &got[i]
		}
	}
	if seq == nil || seq.CursorID != man.SQLiteMain.SessionID || seq.Seq.AfterSeq != -1 {
		t.Fatalf("the sweep's candidates: %+v", got)
	}
	if v := viewText(a); !strings.Contains(v, "- agent:ops:main [main]") || !strings.Contains(v, "(SQLite-era store, session "+man.SQLiteMain.SessionID[:8]+")") {
		t.Errorf("the report does not show the SQLite-era session:\n%s", v)
	}
}

// o on an observation that came from a SQLite-era session opens that
// generation (the raw record's transcriptId is its session id), not the
// first row of the store's file.
func TestSourceOfASQLiteObservation(t *testing.T) {
	t.Parallel()
	a := newApp(t, 120, 40, Options{})
	_, man := demoWorkspace(t)
	drive(t, a, func() tea.Msg {
		return sourceFoundMsg{found: true, src: vaultfs.Source{SessionKey: man.SQLiteMain.Key, TranscriptID: man.SQLiteMain.SessionID, Quote: "riskier one"}}
	})
	if a.screen != screenTranscript || a.transcript.row.SessionID != man.SQLiteMain.SessionID {
		t.Fatalf("screen %d, opened %q (%s); want the session %s", a.screen, a.transcript.row.SessionID, a.status, man.SQLiteMain.SessionID)
	}
}
