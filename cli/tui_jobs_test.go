package cli

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"clawvault-tui/observer"
	"clawvault-tui/store"
	"clawvault-tui/ui"
)

func locateDemo(t *testing.T, state, vault string) *store.Workspace {
	t.Helper()
	ws, err := store.Locate(store.Env{Getenv: func(string) string { return "" }, Home: t.TempDir(), Cwd: "/"},
		store.LocateOptions{StateDir: state, Vault: vault, AllAgents: true})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// The Jobs screen's sweep observes the sessions named in its confirmation
// and no other, and its report links each of them.
func TestTUISweepObservesTheConfirmedSessions(t *testing.T) {
	t.Parallel()
	state, vault := demoCopy(t)
	ws := locateDemo(t, state, vault)
	snap, err := store.Scan(context.Background(), store.OS, ws, store.ScanOptions{Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	var all []observer.Candidate
	for _, a := range snap.Agents {
		all = append(all, observer.Select(snap, a.AgentID, snap.MinNewBytes).Candidates...)
	}
	if len(all) < 3 {
		t.Fatalf("the demo has %d candidates", len(all))
	}
	confirmed := all[:2]
	var reports int
	res, err := jobRunners(store.DefaultConfig()).Sweep(context.Background(), snap, confirmed, func(observer.Progress) { reports++ })
	if err != nil {
		t.Fatal(err)
	}
	r := res.(*ui.SweepResult)
	var got []string
	for _, o := range r.Report.Observed {
		got = append(got, o.CursorID)
	}
	for _, c := range confirmed {
		if !slices.Contains(got, c.CursorID) {
			t.Errorf("%s was confirmed but not observed (observed %v)", c.SessionKey, got)
		}
	}
	if len(got) != len(confirmed) || len(r.Report.Skipped) == 0 || reports == 0 {
		t.Errorf("observed %v, skipped %d, %d progress reports", got, len(r.Report.Skipped), reports)
	}
	lines := r.Lines(100)
	linked := false
	for i, l := range lines {
		if key, ok := r.Link(i); ok {
			linked = true
			if !strings.Contains(l, key) && !strings.HasPrefix(l, "    ") {
				t.Errorf("line %q links to %s", l, key)
			}
		}
	}
	if !linked || !strings.Contains(r.Summary(), "observed 2 sessions") {
		t.Errorf("summary %q, lines:\n%s", r.Summary(), strings.Join(lines, "\n"))
	}
}

// A sweep that stops before it looks at a session (here on a sweep journal
// planted in the vault) gives the Jobs screen its error alone, which it
// shows whole, and no empty report.
func TestTUISweepShowsARefusedJournal(t *testing.T) {
	state, vault := demoCopy(t)
	ws := locateDemo(t, state, vault)
	snap, err := store.Scan(context.Background(), store.OS, ws, store.ScanOptions{Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	journal := store.JournalFile(vault)
	if err := os.WriteFile(journal, []byte(`{"version":3,"files":[{"path":"/etc/profile.d/x.sh","temp":"/tmp/x"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	confirmed := observer.Select(snap, "main", snap.MinNewBytes).Candidates
	res, err := jobRunners(store.DefaultConfig()).Sweep(context.Background(), snap, confirmed, nil)
	if res != nil || err == nil || !strings.Contains(err.Error(), "was refused, set aside as") {
		t.Errorf("result %v, err %v", res, err)
	}
}
