package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/observer"
	"clawvault-tui/store"
)

// evil is hostile text of every kind a terminal acts on or a reader is
// fooled by: an OSC that sets the title (ended by BEL), a CSI that clears
// the screen, C1's CSI, a lone 0x9b byte, a newline, DEL, a bidi override
// and isolate, a line separator, and invisible tag characters.
const evil = "\x1b]0;owned\x07\x1b[2J\u009b31m\x9b\x7fA\nB\u202eC\u2066D\u2028E\U000E0041F"

// hostileEverywhere is hostileWorkspace with the vault, the workspace
// memory and the observation ledger holding hostile names and text too.
func hostileEverywhere(t *testing.T) *store.Workspace {
	t.Helper()
	ws := hostileWorkspace(t)
	write := func(p, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v := ws.Vault
	evil1 := strings.ReplaceAll(evil, "\n", " ") // within one observation line
	write(filepath.Join(v, "decisions", "use "+evil+".md"), "# Use "+evil+"\n\nWe decided "+evil+" in the end.\n\n```go\nfmt.Println(\""+evil+"\")\n```\n")
	write(filepath.Join(v, "people", evil, "notes.md"), "# "+evil+"\n\n- met "+evil+"\n")
	write(filepath.Join(v, "ledger", "observations", "2026", "11", "21.md"),
		"## 2026-11-21\n\n- [decision|c=0.90|i=0.85] 10:00 Decision: use "+evil1+"\n- [fact|c=0.70|i=0.30] 10:01 ["+evil1+"] "+evil1+"\n")
	memory := "# MEMORY.md\n\n## " + evil + "\n\n- " + evil + "\n\n## Decisions\n\n- keep " + evil + "\n"
	for _, ag := range ws.Agents {
		if ag.Workspace != "" {
			write(filepath.Join(ag.Workspace, "MEMORY.md"), memory)
			write(filepath.Join(ag.Workspace, "memory", "2026-11-21.md"), "# "+evil+"\n\n"+evil+"\n")
		}
	}
	return ws
}

// sgrPlain is a styling sequence the plain theme itself emits (bold,
// underline, reverse and their resets); any other escape in a frame drawn
// with it came from the data.
var sgrPlain = regexp.MustCompile(`\x1b\[(?:(?:0|1|4|7|22|24|27)?(?:;(?:0|1|4|7|22|24|27))*)m`)

// dangerous is a rune that acts on a terminal, or hides or reorders the
// text around it: C0 controls but the newline, DEL, C1 controls, bytes
// that are not UTF-8, line and paragraph separators, and invisible format
// characters (bidi marks, overrides and isolates, tags, BOM) but the
// joiners that emoji and scripts need.
func dangerous(r rune, size int) bool {
	switch {
	case r == '\n':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r == utf8.RuneError && size == 1:
		return true
	case r == 0x200c || r == 0x200d:
		return false
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// checkFrame fails when a frame holds anything but the plain theme's
// styling and safe text.
func checkFrame(t *testing.T, where string, a *App) {
	t.Helper()
	raw := sgrPlain.ReplaceAllString(a.View().Content, "")
	for i := 0; i < len(raw); {
		r, size := utf8.DecodeRuneInString(raw[i:])
		if dangerous(r, size) {
			lo, hi := max(0, i-40), min(len(raw), i+40)
			t.Errorf("%s: the frame holds %q at byte %d: …%q…", where, raw[i:i+size], i, raw[lo:hi])
			return
		}
		i += size
	}
}

// walkScreen presses keys that open and move through what a screen
// shows, checking every frame.
func walkScreen(t *testing.T, a *App, name string, rows int) {
	t.Helper()
	for i := range rows {
		for _, k := range []string{"enter", "right", "down"} {
			press(t, a, k)
			checkFrame(t, fmt.Sprintf("%s, row %d, after %s", name, i, k), a)
		}
	}
}

// closeAll closes what the walk opened over the screens (an editor with
// what it typed, a dialog, an overlay), so the next walk starts clean.
func closeAll(a *App) {
	a.editor, a.confirm, a.picker, a.palette, a.showHelp = nil, nil, nil, nil, false
	a.sessions.filtering, a.transcript.searching, a.search.typing = false, false, false
	a.vault.focus = focusTree
}

// No pane, dialog, overlay or line of the frame lets hostile text reach
// the terminal: file names, session keys, labels, MEMORY.md headings,
// observations, memory text, search hits, job results and status
// messages are escaped on every screen, with its detail views and dialogs
// open. Before, the Vault screen's preview header printed a file's name
// raw.
func TestEveryPaneEscapesHostileText(t *testing.T) {
	t.Parallel()
	ws := hostileEverywhere(t)
	sweep := func(ctx context.Context, snap *store.Snapshot, c []observer.Candidate, pr observer.ProgressFunc) (JobResult, error) {
		return nil, fmt.Errorf("the sweep failed on %s", evil)
	}
	a := newAppOn(t, ws, 120, 35, Options{Theme: "none", Demo: "/tmp/demo-" + evil, Jobs: JobRunners{Sweep: sweep}})
	checkFrame(t, "the first frame", a)
	for s := screen(0); s < screens; s++ {
		press(t, a, fmt.Sprint(s+1))
		checkFrame(t, screenNames[s], a)
		walkScreen(t, a, screenNames[s], 12)
		closeAll(a)
		press(t, a, "?")
		checkFrame(t, screenNames[s]+", help", a)
		press(t, a, "esc", ":")
		checkFrame(t, screenNames[s]+", palette", a)
		typeText(t, a, "o")
		checkFrame(t, screenNames[s]+", palette filtered", a)
		closeAll(a)
	}
	// The dialogs and the flows the walk does not reach by itself.
	press(t, a, "5", "d")
	checkFrame(t, "a dry run's result", a)
	press(t, a, "S")
	if a.confirm == nil {
		t.Fatalf("no sweep confirmation:\n%s", viewText(a))
	}
	checkFrame(t, "the sweep's confirmation", a)
	press(t, a, "y")
	checkFrame(t, "a sweep that failed", a)
	press(t, a, "2", "c")
	checkFrame(t, "the model context", a)
	press(t, a, "/")
	typeText(t, a, "hello")
	press(t, a, "enter")
	checkFrame(t, "a transcript search", a)
	press(t, a, "4")
	typeText(t, a, "decided")
	if !strings.Contains(viewText(a), `\x1b]0;owned`) {
		t.Errorf("the search found nothing hostile to show:\n%s", viewText(a))
	}
	checkFrame(t, "search results", a)
	press(t, a, "down", "enter")
	checkFrame(t, "a search hit opened", a)
	closeAll(a)
	ledger := filepath.Join(ws.Vault, "ledger", "observations", "2026", "11", "21.md")
	press(t, a, "3")
	closeAll(a)
	drive(t, a, a.vault.Reveal(ledger))
	press(t, a, "enter")
	checkFrame(t, "the observation table", a)
	press(t, a, "s")
	checkFrame(t, "the table filtered by source", a)
	press(t, a, "s", "s", "p")
	if a.picker == nil {
		t.Fatalf("no section picker:\n%s", viewText(a))
	}
	checkFrame(t, "promote's section picker", a)
	press(t, a, "esc", "o")
	checkFrame(t, "an observation's source", a)
	drive(t, a, func() tea.Msg {
		return openEditorMsg{path: filepath.Join(ws.Vault, "decisions", "use "+evil+".md"), line: 1}
	})
	if a.editor == nil {
		t.Fatal("the editor did not open")
	}
	checkFrame(t, "the editor", a)
	typeText(t, a, "x")
	press(t, a, "esc")
	if a.confirm == nil {
		t.Fatalf("no close confirmation:\n%s", viewText(a))
	}
	checkFrame(t, "the editor's close confirmation", a)
	press(t, a, "y")
	a.Update(statusMsg{"copied " + evil})
	checkFrame(t, "the status line", a)
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for s := screen(0); s < screens; s++ {
		press(t, a, fmt.Sprint(s+1))
		checkFrame(t, screenNames[s]+" at 80×24", a)
	}
}
