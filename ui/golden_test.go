package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"clawvault-tui/observer"
	"clawvault-tui/store"
)

// golden compares a screen, rendered with the ASCII colour profile (no
// colours, attributes kept), with testdata/<name>.golden; -update rewrites it.
func golden(t *testing.T, name string, a *App) {
	t.Helper()
	var b bytes.Buffer
	w := colorprofile.NewWriter(&b, nil)
	w.Profile = colorprofile.Ascii
	if _, err := w.WriteString(a.View().Content); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -run Golden -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (go test ./ui -run Golden -update rewrites it):\n%s", name, path, diffLines(string(want), got))
	}
}

// diffLines shows the first lines that differ.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out []string
	for i := 0; i < max(len(w), len(g)) && len(out) < 12; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			out = append(out, "line "+itoa(i+1)+":\n  want "+wl+"\n  got  "+gl)
		}
	}
	return strings.Join(out, "\n")
}

func TestGoldenSessions(t *testing.T) {
	t.Parallel()
	golden(t, "sessions", newApp(t, 100, 30, Options{}))
}

func TestGoldenTranscript(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	openBranchy(t, a)
	press(t, a, "}") // the branch point
	golden(t, "transcript", a)
}

func TestGoldenTranscriptContext(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	_, man := demoWorkspace(t)
	a.sessions.Select(man.MainNeverObserved.Key)
	press(t, a, "enter", "c", "g")
	golden(t, "transcript-context", a)
}

func TestGoldenJobs(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{Jobs: planningRunners()})
	press(t, a, "5", "d")
	golden(t, "jobs", a)
}

// The retention plan as a table, from the real planner on the demo.
func TestGoldenJobsRetention(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{Jobs: planningRunners()})
	press(t, a, "5", "R")
	golden(t, "jobs-retention", a)
}

// planningRunners has every job: the retention plan is the real one (it
// writes nothing); the jobs that write are refused, which these tests never
// start.
func planningRunners() JobRunners {
	refuse := errors.New("the golden tests write nothing")
	return JobRunners{
		Sweep: func(context.Context, *store.Snapshot, []observer.Candidate, observer.ProgressFunc) (JobResult, error) {
			return nil, refuse
		},
		Retention: func(ctx context.Context, snap *store.Snapshot, pr observer.ProgressFunc) (JobResult, error) {
			plan, err := observer.PlanRetention(ctx, observer.RetentionOptions{Workspace: snap.Workspace, Now: snap.TakenAt, Progress: pr})
			if err != nil {
				return nil, err
			}
			return NewRetentionResult(plan), nil
		},
	}
}

func TestGoldenHelp(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	press(t, a, "2", "?")
	golden(t, "help", a)
}

// The Vault screen: the tree, and MEMORY.md rendered beside it.
func TestGoldenVault(t *testing.T) {
	t.Parallel()
	a := newApp(t, 80, 24, Options{})
	_, man := demoWorkspace(t)
	press(t, a, "3")
	drive(t, a, a.vault.Reveal(filepath.Join(man.Workspace, "MEMORY.md")))
	golden(t, "vault-80x24", a)
}

// An observation file as a table, filtered to the important ones.
func TestGoldenVaultTable(t *testing.T) {
	t.Parallel()
	a := newApp(t, 120, 35, Options{})
	_, man := demoWorkspace(t)
	openVaultFile(t, a, filepath.Join(man.VaultDir, "ledger", "observations", "2026", "11", "20.md"))
	press(t, a, "i", "i", "j")
	golden(t, "vault-table-120x35", a)
}

func TestGoldenSearch(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 35}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			a := searchApp(t, size[0], size[1])
			typeText(t, a, "postgresql cut-over")
			press(t, a, "down")
			golden(t, fmt.Sprintf("search-%dx%d", size[0], size[1]), a)
		})
	}
}

func TestGoldenEditor(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 80, 24, Options{})
	drive(t, a, func() tea.Msg {
		return openEditorMsg{path: filepath.Join(ws.Agents[0].Workspace, "MEMORY.md"), line: 7}
	})
	press(t, a, "end")
	typeText(t, a, " Always.")
	golden(t, "editor-80x24", a)
}

// The diff the editor shows when the file changed on disk.
func TestGoldenEditorDiff(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 120, 35, Options{})
	memory := filepath.Join(ws.Agents[0].Workspace, "MEMORY.md")
	openEditorAt(t, a, memory, 7)
	typeAtEnd(t, a, " Always.")
	writeText(t, memory, fixtureMemory+"- Long-running cron jobs need a timeout.\n")
	press(t, a, "ctrl+s", "d")
	golden(t, "editor-diff-120x35", a)
}

func TestGoldenPromote(t *testing.T) {
	t.Parallel()
	a := newApp(t, 80, 24, Options{})
	_, man := demoWorkspace(t)
	openVaultFile(t, a, filepath.Join(man.VaultDir, "ledger", "observations", "2026", "11", "20.md"))
	press(t, a, "j", "j", "p")
	golden(t, "promote-80x24", a)
}

// The help at 80×24: the groups wrap to rows of columns.
func TestGoldenHelpSmall(t *testing.T) {
	t.Parallel()
	a := newApp(t, 80, 24, Options{})
	openBranchy(t, a)
	press(t, a, "?")
	golden(t, "help-80x24", a)
}

func TestGoldenHelpLarge(t *testing.T) {
	t.Parallel()
	a := newApp(t, 120, 35, Options{})
	openBranchy(t, a)
	press(t, a, "?")
	golden(t, "help-120x35", a)
}

// The Sessions detail scrolls (J) where the stacked layout leaves it a few
// lines.
func TestGoldenSessionsDetailScrolled(t *testing.T) {
	t.Parallel()
	a := newApp(t, 80, 24, Options{})
	golden(t, "sessions-80x24", a)
	press(t, a, "J")
	golden(t, "sessions-80x24-detail", a)
	b := newApp(t, 120, 35, Options{})
	press(t, b, "J")
	golden(t, "sessions-120x35-detail", b)
}

func TestGoldenPalette(t *testing.T) {
	t.Parallel()
	a := newApp(t, 80, 24, Options{})
	press(t, a, ":")
	golden(t, "palette-80x24", a)
	b := newApp(t, 120, 35, Options{})
	press(t, b, ":")
	typeText(t, b, "nx")
	golden(t, "palette-120x35", b)
}

// The divider where ClawVault's cursor stands, the pending entries marked
// below it: a session observed before and grown since.
func TestGoldenTranscriptDivider(t *testing.T) {
	t.Parallel()
	_, man := demoWorkspace(t)
	for _, size := range [][2]int{{80, 24}, {120, 35}} {
		a := newApp(t, size[0], size[1], Options{})
		a.sessions.Select(man.ObservedCandidate.Key)
		press(t, a, "enter", "o")
		golden(t, fmt.Sprintf("transcript-divider-%dx%d", size[0], size[1]), a)
	}
	// Never observed: the line at the top says so.
	a := newApp(t, 80, 24, Options{})
	a.sessions.Select(man.DMBelowThreshold.Key)
	press(t, a, "enter", "g")
	golden(t, "transcript-never-80x24", a)
}

// The demo's SQLite session after u from the top: roles on every message
// row (from the previews: the store's identities hold none).
func TestGoldenTranscriptSQLite(t *testing.T) {
	t.Parallel()
	a, _ := openSQLiteMain(t, 30)
	press(t, a, "g", "u")
	golden(t, "transcript-sqlite", a)
}
