package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

var fixedNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// rows makes n status rows; row i is i KiB big and never observed.
func rows(n int) []model.SessionRow {
	out := make([]model.SessionRow, n)
	for i := range out {
		size := int64(i+1) * model.KiB
		out[i] = model.SessionRow{
			Agent: "main", Key: fmt.Sprintf("agent:main:direct:peer-%05d", i), File: fmt.Sprintf("/s/%05d.jsonl", i),
			Exists: true, Size: size, Discovered: true, Label: "direct",
			Selection: model.Select(size, nil, 0),
			Diagnosis: []model.Diagnosis{{Code: model.CodeNoCursor, Message: "Never observed."}},
		}
	}
	return out
}

func newTestApp(t testing.TB, n int) *App {
	t.Helper()
	a := New(Options{Workspace: &store.Workspace{StateDir: "/state"}, Theme: "none", Now: func() time.Time { return fixedNow }})
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	a.Update(scanDoneMsg{job: a.scanJob, snap: &store.Snapshot{Rows: rows(n), TakenAt: fixedNow}})
	return a
}

func press(a *App, keys ...string) {
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case "up":
			msg = tea.KeyPressMsg{Code: tea.KeyUp}
		case "pgdown":
			msg = tea.KeyPressMsg{Code: tea.KeyPgDown}
		case "end":
			msg = tea.KeyPressMsg{Code: tea.KeyEnd}
		default:
			msg = tea.KeyPressMsg{Code: rune(k[0]), Text: k}
		}
		a.Update(msg)
	}
}

func TestSessionsSortedByUrgency(t *testing.T) {
	a := newTestApp(t, 100)
	r, _ := a.sessions.Selected()
	if r.Key != "agent:main:direct:peer-00099" {
		t.Errorf("the largest pending÷threshold comes first, got %s", r.Key)
	}
}

func TestSessionsNavigation(t *testing.T) {
	a := newTestApp(t, 100)
	press(a, "down", "down", "j")
	if a.sessions.cursor != 3 {
		t.Errorf("cursor = %d, want 3", a.sessions.cursor)
	}
	press(a, "k")
	if a.sessions.cursor != 2 {
		t.Errorf("cursor = %d, want 2", a.sessions.cursor)
	}
	press(a, "end")
	if a.sessions.cursor != 99 {
		t.Errorf("end: cursor = %d", a.sessions.cursor)
	}
	if a.sessions.offset+a.sessions.listHeight() != 100 {
		t.Errorf("the last row is visible: offset %d height %d", a.sessions.offset, a.sessions.listHeight())
	}
	press(a, "g", "up")
	if a.sessions.cursor != 0 || a.sessions.offset != 0 {
		t.Errorf("top: cursor %d offset %d", a.sessions.cursor, a.sessions.offset)
	}
}

func TestStaleScanResultsAreDropped(t *testing.T) {
	a := newTestApp(t, 3)
	a.startScan() // a newer job is under way
	a.Update(scanDoneMsg{job: a.scanJob - 1, snap: &store.Snapshot{Rows: rows(50)}})
	if len(a.sessions.rows) != 3 {
		t.Errorf("a result of an older job replaced the rows")
	}
}

func TestViewFitsTheTerminal(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {100, 30}, {200, 60}, {40, 10}} {
		a := newTestApp(t, 500)
		a.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(a.View().Content, "\n")
		if len(lines) > size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, ansi.Strip(l))
			}
		}
	}
}

func TestViewShowsTheSelectedDiagnosis(t *testing.T) {
	a := newTestApp(t, 5)
	v := ansi.Strip(a.View().Content)
	for _, want := range []string{"agent:main:direct:peer-00004", "no-cursor: Never observed.", "5 sessions"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
}

func TestQuit(t *testing.T) {
	a := newTestApp(t, 1)
	_, cmd := a.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	if cmd == nil {
		t.Fatal("q returns no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("q does not quit")
	}
}
