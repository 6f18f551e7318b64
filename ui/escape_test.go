package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"clawvault-tui/store"
	"clawvault-tui/store/search"
)

// hostile is text that acts on a terminal: a title-setting OSC ending in
// BEL, a screen clear, a newline that would split a row, and a right-to-
// left override that would reverse the rest of it.
const hostile = "\x1b]0;owned\x07\x1b[2Jevil\nrow\u202egnp.exe"

// hostileWorkspace is one agent whose session key, transcript name and
// messages carry hostile text.
func hostileWorkspace(t *testing.T) *store.Workspace {
	t.Helper()
	root := t.TempDir()
	state, vault := filepath.Join(root, "state"), filepath.Join(root, "vault")
	sessions := filepath.Join(state, "agents", "main", "sessions")
	write := func(p, data string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	line := func(id, parent, text string) string {
		var p any
		if parent != "" {
			p = parent
		}
		b, _ := json.Marshal(map[string]any{"type": "message", "id": id, "parentId": p, "timestamp": "2026-11-21T10:00:00.000Z",
			"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": text}}}})
		return string(b) + "\n"
	}
	header := `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-21T10:00:00.000Z","cwd":"/w"}` + "\n"
	// Over the 50 KiB threshold, so that a dry run lists it.
	write(filepath.Join(sessions, "s1.jsonl"), header+line("a1", "", "hello "+hostile)+line("a2", "a1", hostile+strings.Repeat(" padding", 8000)))
	write(filepath.Join(sessions, "x\x1b[31m\u202e.jsonl"), header+line("b1", "", "an orphan"))
	rows, _ := json.Marshal(map[string]any{"agent:main:" + hostile: map[string]any{"sessionId": "s1", "updatedAt": 1, "model": "m" + hostile}})
	write(filepath.Join(sessions, "sessions.json"), string(rows))
	write(filepath.Join(vault, ".clawvault.json"), `{"name":"v"}`)
	ws, err := store.Locate(store.Env{Getenv: func(string) string { return "" }, Home: "/nonexistent", Cwd: "/"},
		store.LocateOptions{StateDir: state, Vault: vault})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// rawView is the frame as the terminal would get it.
func rawView(a *App) string { return a.View().Content }

// checkInert: no control or bidirectional character from the data reaches
// the frame (the styles' own SGR sequences are the only escapes).
func checkInert(t *testing.T, where, raw string) {
	t.Helper()
	for _, bad := range []string{"\x1b]", "\x07", "\x1b[2J", "\x1b[31m", "\u202e", "evil\nrow"} {
		if strings.Contains(raw, bad) {
			t.Errorf("%s: the frame holds %q", where, bad)
		}
	}
}

// Session keys, file names, metadata and message text are escaped in
// every view; before, they reached the terminal raw: a key could set the
// window title, clear the screen, split a row or reverse it.
func TestHostileTextIsEscaped(t *testing.T) {
	t.Parallel()
	a := New(Options{Workspace: hostileWorkspace(t), Theme: "dark", Now: func() time.Time { return fixedNow }})
	a.c.Tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	drive(t, a, a.startScan())
	if a.snap == nil {
		t.Fatalf("the scan did not finish: %v", a.scanErr)
	}
	for i := range a.snap.Rows {
		a.sessions.Select(a.snap.Rows[i].File)
		raw := rawView(a)
		checkInert(t, "sessions, row "+a.snap.Rows[i].File, raw)
		if i == 0 && !strings.Contains(raw, `\x1b]0;owned\x07`) && !strings.Contains(raw, `\u202e`) {
			t.Errorf("the escaped key is not shown:\n%s", viewText(a))
		}
	}
	a.sessions.Select("agent:main:" + hostile)
	press(t, a, "enter")
	if a.screen != screenTranscript || a.transcript.ix == nil {
		t.Fatalf("the transcript did not open: %v", a.transcript.loadErr)
	}
	checkInert(t, "transcript", rawView(a))
	press(t, a, "up")
	checkInert(t, "transcript, first entry", rawView(a))

	press(t, a, "5", "d")
	if len(a.jobs.jobs) != 1 || a.jobs.jobs[0].state != jobDone {
		t.Fatalf("jobs: %+v", a.jobs.jobs)
	}
	raw := rawView(a)
	checkInert(t, "a dry run's result", raw)
	if !strings.Contains(raw, `\u202egnp`) {
		t.Errorf("the candidate is not listed:\n%s", raw)
	}
	a.Update(statusMsg{"copied " + hostile})
	checkInert(t, "the status line", rawView(a))
}

// A snippet's tabs show as spaces, not \t; its other controls stay escaped.
func TestSnippetTabsAreSpaces(t *testing.T) {
	t.Parallel()
	s := "- [ ]\tTODO: rotate\tthe token\x1b[2J"
	got := highlight(lipgloss.NewStyle(), s, []search.Span{{Start: 6, End: 10}})
	if want := `- [ ] TODO: rotate the token\x1b[2J`; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
