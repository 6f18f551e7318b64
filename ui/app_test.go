package ui

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"clawvault-tui/model"
	"clawvault-tui/observer"
	"clawvault-tui/store"
)

func viewText(a *App) string { return ansi.Strip(a.View().Content) }

// --- the shell

func TestScreensSwitch(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	for _, tt := range []struct {
		key  string
		want screen
	}{{"2", screenTranscript}, {"3", screenVault}, {"4", screenSearch}, {"tab", screenJobs}, {"4", screenSearch}, {"esc", screenSearch}, {"5", screenJobs}, {"1", screenSessions}, {"tab", screenTranscript}, {"shift+tab", screenSessions}, {"shift+tab", screenJobs}} {
		press(t, a, tt.key)
		if a.screen != tt.want {
			t.Errorf("after %q: screen %d, want %d", tt.key, a.screen, tt.want)
		}
	}
}

func TestHelpOverlayListsTheBindings(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	press(t, a, "?")
	v := viewText(a)
	for _, want := range []string{"Keys", "sessions", "filter", "sort", "remap them in the [keys] section"} {
		if !strings.Contains(v, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	press(t, a, "j") // keys do not reach the pane under the overlay
	if a.sessions.cursor != 0 {
		t.Error("a key went through the help overlay")
	}
	press(t, a, "?")
	if a.showHelp {
		t.Error("? does not close the help")
	}
}

// Every binding of every screen is in the help at 80×24 and smaller:
// scrolled through, the help shows each one whole, and the view never
// leaves the terminal.
func TestHelpShowsEveryBindingWhenSmall(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {60, 16}} {
		a := newApp(t, size[0], size[1], Options{})
		openBranchy(t, a)
		for s := screen(0); s < screens; s++ {
			drive(t, a, a.switchTo(s))
			if a.typing() { // the Search screen opens on its query
				press(t, a, "esc")
			}
			press(t, a, "?")
			seen := ""
			for range 40 {
				assertFits(t, viewText(a), size[0], size[1])
				seen += ansi.Strip(a.helpBox()) + "\n"
				press(t, a, "pgdown")
			}
			for _, g := range append([][]key.Binding{a.c.Keys.globalKeys()}, a.pane().FullHelp()...) {
				for _, b := range g {
					whole := regexp.MustCompile(regexp.QuoteMeta(b.Help().Key) + ` +` + regexp.QuoteMeta(b.Help().Desc) + ` `)
					if !whole.MatchString(seen) {
						t.Errorf("%dx%d %s: the help never shows %q whole", size[0], size[1], screenNames[s], b.Help().Key+" "+b.Help().Desc)
					}
				}
			}
			press(t, a, "esc")
		}
	}
}

// assertFits fails when a view has more lines or wider lines than the
// terminal.
func assertFits(t *testing.T, view string, width, height int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > height {
		t.Errorf("%dx%d: %d lines", width, height, len(lines))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("%dx%d: line %d is %d wide: %q", width, height, i, w, l)
		}
	}
}

// The footer shows the screen's keys that fit and then, always, the help's.
func TestFooterEndsWithHelp(t *testing.T) {
	t.Parallel()
	for _, w := range []int{200, 100, 80, 50, 30} {
		a := newApp(t, w, 24, Options{})
		lines := strings.Split(viewText(a), "\n")
		footer := strings.TrimRight(lines[len(lines)-1], " ")
		if !strings.HasSuffix(footer, "? help") || strings.Contains(footer, "…") {
			t.Errorf("width %d: footer %q", w, footer)
		}
	}
}

func TestKeysRemapFromConfig(t *testing.T) {
	t.Parallel()
	cfg := store.DefaultConfig()
	cfg.Keys = store.KeyConfig{"down": {"x"}, "quit": {"Q"}}
	a := newApp(t, 100, 30, Options{Config: cfg})
	press(t, a, "x")
	if a.sessions.cursor != 1 {
		t.Errorf("x did not move down (cursor %d)", a.sessions.cursor)
	}
	if _, cmd := a.Update(keyMsg("Q")); cmd == nil {
		t.Error("Q does not quit")
	} else if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("Q does not quit")
	}
	if !strings.Contains(viewText(a), "x down") {
		t.Error("the footer does not show the remapped key")
	}

	bad := store.DefaultConfig()
	bad.Keys = store.KeyConfig{"fly": {"f"}}
	b := newApp(t, 100, 30, Options{Config: bad})
	if len(b.configProblems) != 1 || !strings.Contains(b.configProblems[0], "fly is not an action") {
		t.Errorf("an unknown action is reported: %v", b.configProblems)
	}
}

// A key bound to two actions that answer on the same screen is reported
// by name, in the footer until a key is pressed; one bound to actions of
// different screens is fine (the defaults do it: / filters Sessions and
// searches a transcript).
func TestKeysBoundTwiceAreReported(t *testing.T) {
	t.Parallel()
	if p := DefaultKeyMap().Conflicts(newApp(t, 100, 30, Options{}).keyScopes()); len(p) != 0 {
		t.Errorf("the default keys conflict: %v", p)
	}
	cfg := store.DefaultConfig()
	cfg.Keys = store.KeyConfig{"sweep": {"x"}, "sort": {"q"}, "fly": {"f"}, "filter": {"/"}}
	a := newApp(t, 120, 30, Options{Config: cfg})
	want := []string{
		"[keys] fly is not an action",
		`[keys] "q" is bound to both quit and sort on the Sessions screen`,
		`[keys] "x" is bound to both cancel and sweep on the Jobs screen`,
	}
	if len(a.configProblems) != len(want) {
		t.Errorf("problems: %q", a.configProblems)
	}
	for _, w := range want {
		found := false
		for _, p := range a.configProblems {
			found = found || strings.Contains(p, w)
		}
		if !found {
			t.Errorf("no problem says %q: %q", w, a.configProblems)
		}
	}
	if !strings.Contains(viewText(a), `config: [keys] fly is not an action`) {
		t.Errorf("the footer does not say what is wrong:\n%s", viewText(a))
	}
	press(t, a, "j")
	if a.status != "" {
		t.Errorf("a key press leaves the status %q", a.status)
	}
}

// Conflicts names actions by their help text, so each must be unique.
func TestActionHelpIsUnique(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for name, b := range DefaultKeyMap().actions() {
		if other, ok := seen[b.Help().Desc]; ok {
			t.Errorf("%s and %s share the help %q", name, other, b.Help().Desc)
		}
		seen[b.Help().Desc] = name
	}
}

func TestStaleResultsAreDropped(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	rows := len(a.sessions.rows)
	old := a.scanJob
	a.startScan() // a newer scan is under way
	a.Update(scanDoneMsg{job: old, snap: &store.Snapshot{}})
	if len(a.sessions.rows) != rows {
		t.Error("the result of a superseded scan replaced the rows")
	}
}

func TestViewFitsTheTerminal(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {100, 30}, {200, 60}, {60, 16}} {
		a := newApp(t, size[0], size[1], Options{})
		press(t, a, "enter") // the transcript of the first row
		for _, s := range []screen{screenSessions, screenTranscript, screenJobs} {
			drive(t, a, a.switchTo(s))
			lines := strings.Split(a.View().Content, "\n")
			if len(lines) > size[1] {
				t.Errorf("%dx%d screen %d: %d lines", size[0], size[1], s, len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%dx%d screen %d: line %d is %d wide: %q", size[0], size[1], s, i, w, ansi.Strip(l))
				}
			}
		}
	}
}

func TestQuit(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	_, cmd := a.Update(keyMsg("q"))
	if cmd == nil {
		t.Fatal("q returns no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("q does not quit")
	}
}

func TestMouse(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	a.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if a.sessions.cursor != 3 {
		t.Errorf("the wheel moved to %d, want 3", a.sessions.cursor)
	}
	// The list starts at line 1 (tab bar) + 2 (info and headings).
	a.Update(tea.MouseClickMsg{Button: tea.MouseLeft, X: 10, Y: paneTop + 2 + 5})
	if a.sessions.cursor != 5 {
		t.Errorf("a click on the sixth row selected %d", a.sessions.cursor)
	}
	drive(t, a, func() tea.Msg { return tea.MouseClickMsg{Button: tea.MouseLeft, X: 13, Y: 0} })
	if a.screen != screenTranscript {
		t.Errorf("a click on the Transcript tab: screen %d", a.screen)
	}
}

// --- the Sessions screen

func TestSessionsSortFilterAgent(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	s := a.sessions
	if r, _ := s.Selected(); r.Key != "agent:main:main" {
		t.Errorf("the 14 MB main session comes first, got %s", r.Key)
	}
	press(t, a, "s") // pending
	for i := 1; i < len(s.view); i++ {
		if s.rows[s.view[i]].Selection.NewBytes > s.rows[s.view[i-1]].Selection.NewBytes {
			t.Fatal("not sorted by pending bytes")
		}
	}
	press(t, a, "s", "s") // size
	for i := 1; i < len(s.view); i++ {
		if s.rows[s.view[i]].Size > s.rows[s.view[i-1]].Size {
			t.Fatal("not sorted by size")
		}
	}
	press(t, a, "a")
	for _, i := range s.view {
		if s.rows[i].Agent != "main" {
			t.Fatalf("agent filter: %s", s.rows[i].Agent)
		}
	}
	press(t, a, "a", "a", "a") // main → ops → work → all
	if s.agent != "" || len(s.view) != len(s.rows) {
		t.Errorf("agent %q, %d of %d", s.agent, len(s.view), len(s.rows))
	}
	press(t, a, "/")
	typeText(t, a, "reset-archive")
	if len(s.view) == 0 {
		t.Fatal("the filter matched nothing")
	}
	for _, i := range s.view {
		if !s.rows[i].Has(model.CodeResetArchive) {
			t.Errorf("the filter let %s through", s.rows[i].DisplayKey())
		}
	}
	press(t, a, "q") // typed into the filter, not a quit
	if !strings.HasSuffix(s.filter.Value(), "q") {
		t.Errorf("q did not reach the filter: %q", s.filter.Value())
	}
	press(t, a, "esc")
	if s.filter.Value() != "" || len(s.view) != len(s.rows) {
		t.Errorf("esc keeps the filter %q", s.filter.Value())
	}
}

func TestSessionsDetailNamesTheNumbers(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 40, Options{})
	v := viewText(a)
	for _, want := range []string{"Observed never · 14 MiB pending of a 300 KiB threshold", "overdue: 47× the threshold", "compactions 10"} {
		if !strings.Contains(v, want) {
			t.Errorf("the detail lacks %q:\n%s", want, v)
		}
	}
}

func TestCopySessionID(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	_, cmd := a.Update(keyMsg("y"))
	if cmd == nil {
		t.Fatal("y does nothing")
	}
	msgs := cmd().(tea.BatchMsg)
	var status string
	for _, c := range msgs {
		if m, ok := c().(statusMsg); ok {
			status = m.text
		}
	}
	r, _ := a.sessions.Selected()
	if status != "copied "+r.SessionID {
		t.Errorf("status %q", status)
	}
}

// --- the Transcript screen

// openBranchy opens the demo's transcript with a branch and labels.
func openBranchy(t *testing.T, a *App) {
	t.Helper()
	_, man := demoWorkspace(t)
	a.sessions.Select(man.Branchy.Key)
	press(t, a, "enter")
	if a.screen != screenTranscript || a.transcript.ix == nil {
		t.Fatalf("the transcript did not open: %v", a.transcript.loadErr)
	}
}

func TestTranscriptOpensAtTheLeaf(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	openBranchy(t, a)
	p := a.transcript
	e, _ := p.selectedEntry()
	if e != p.ix.Tree.Leaf {
		t.Errorf("selected %d, the leaf is %d", e, p.ix.Tree.Leaf)
	}
	if !p.ix.Validated {
		t.Error("validation did not run")
	}
	v := viewText(a)
	for _, want := range []string{"1 branch point", "Onboarding copy review"} {
		if !strings.Contains(v, want) {
			t.Errorf("the view lacks %q", want)
		}
	}
	// The labelled entry shows its label.
	for id := range p.ix.Tree.Labels {
		target, _ := p.ix.Tree.Lookup(id)
		p.cursor = int(p.view().RowOf[target])
		drive(t, a, p.afterMove())
		if !strings.Contains(viewText(a), "["+p.ix.Tree.Labels[id]+"]") {
			t.Errorf("the row of %s lacks its label %q", id, p.ix.Tree.Labels[id])
		}
	}
}

func TestTranscriptJumps(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	_, man := demoWorkspace(t)
	a.sessions.Select(man.MainNeverObserved.Key)
	press(t, a, "enter")
	p := a.transcript
	entries := p.ix.Entries
	press(t, a, "[")
	e, _ := p.selectedEntry()
	if entries[e].Type != model.TypeCompaction {
		t.Fatalf("[ went to a %v", entries[e].Type)
	}
	last := e
	press(t, a, "[")
	if e, _ = p.selectedEntry(); entries[e].Type != model.TypeCompaction || e >= last {
		t.Errorf("[ again: %v at %d (was %d)", entries[e].Type, e, last)
	}
	press(t, a, "u")
	if e, _ = p.selectedEntry(); entries[e].Role != model.RoleUser {
		t.Errorf("u went to a %v", entries[e].Role)
	}
	if !strings.Contains(viewText(a), "user") {
		t.Error("the detail does not show the user message")
	}
	press(t, a, "end", "]") // from the end, ] wraps to the first compaction
	if e, _ = p.selectedEntry(); e != p.ix.Tree.Compactions[0] {
		t.Errorf("] from the end went to %d, want %d", e, p.ix.Tree.Compactions[0])
	}
}

func TestTranscriptBranchJumpAndContext(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	openBranchy(t, a)
	p := a.transcript
	press(t, a, "}")
	e, _ := p.selectedEntry()
	if len(p.ix.Tree.Children(e)) < 2 {
		t.Fatalf("} went to an entry with %d children", len(p.ix.Tree.Children(e)))
	}
	press(t, a, "end")
	leaf, _ := p.selectedEntry()
	press(t, a, "c")
	if !p.contextMode || len(p.view().Rows) != len(p.ix.Tree.Context) {
		t.Fatalf("context mode: %d rows, %d context entries", len(p.view().Rows), len(p.ix.Tree.Context))
	}
	if e, _ := p.selectedEntry(); e != p.ix.Tree.Context[len(p.ix.Tree.Context)-1] && e != leaf {
		t.Errorf("the selection moved to %d in the context view", e)
	}
	press(t, a, "c")
	if e, _ := p.selectedEntry(); e != leaf {
		t.Errorf("leaving the context view lost the place: %d, was %d", e, leaf)
	}
}

// searchBranchy opens the branchy transcript and searches it for a word.
func searchBranchy(t *testing.T, a *App, word string) *transcriptPane {
	t.Helper()
	openBranchy(t, a)
	press(t, a, "/")
	typeText(t, a, word)
	press(t, a, "enter")
	return a.transcript
}

func TestTranscriptSearch(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	p := searchBranchy(t, a, "onboarding")
	if len(p.matches) == 0 {
		t.Fatal("no matches")
	}
	e, _ := p.selectedEntry()
	found := false
	for _, m := range p.matches {
		found = found || m == e
	}
	if !found {
		t.Errorf("the selection %d is not a match", e)
	}
	first := e
	press(t, a, "n")
	if e, _ := p.selectedEntry(); len(p.matches) > 1 && e == first {
		t.Error("n did not move")
	}
	if !strings.Contains(viewText(a), "matches for \"onboarding\"") {
		t.Error("the match count is not shown")
	}
	press(t, a, "esc") // a search is on: esc stays on the screen
	if a.screen != screenTranscript {
		t.Error("esc left the transcript while a search was shown")
	}
}

func TestTranscriptCopyPathLine(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	openBranchy(t, a)
	e, _ := a.transcript.selectedEntry()
	want := a.transcript.path + ":"
	_, cmd := a.Update(keyMsg("y"))
	var status string
	for _, c := range cmd().(tea.BatchMsg) {
		if m, ok := c().(statusMsg); ok {
			status = m.text
		}
	}
	if !strings.HasPrefix(status, "copied "+want) || !strings.HasSuffix(status, ":"+itoa(int(a.transcript.ix.Entries[e].Line))) {
		t.Errorf("status %q", status)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestEditorCommandOpensAtTheLine(t *testing.T) {
	t.Parallel()
	env := map[string]string{"EDITOR": "vim -u NONE"}
	getenv := func(k string) string { return env[k] }
	args := func(choice, lineArgs string, line int) string {
		return strings.Join(editorCommand(choice, lineArgs, "/x/MEMORY.md", line).Args, " ")
	}
	for _, tc := range []struct {
		choice, lineArgs string
		line             int
		want             string
	}{
		{chooseEditor("", getenv), "", 42, "vim -u NONE +42 /x/MEMORY.md"},
		{"code", "", 7, "code --goto /x/MEMORY.md:7"},
		{"hx", "", 7, "hx /x/MEMORY.md:7"},
		// An editor x/editor does not know still gets the line.
		{"micro", "", 7, "micro +7 /x/MEMORY.md"},
		{"/opt/bin/myed --flag", "", 3, "/opt/bin/myed --flag +3 /x/MEMORY.md"},
		// The config's line argument, for any editor.
		{"kate", "--line {line}", 9, "kate --line 9 /x/MEMORY.md"},
		{"subl", "{file}:{line}", 9, "subl /x/MEMORY.md:9"},
		{"code", "+{line}", 9, "code +9 /x/MEMORY.md"},
		{"vim", "", 0, "vim +1 /x/MEMORY.md"},
	} {
		if got := args(tc.choice, tc.lineArgs, tc.line); got != tc.want {
			t.Errorf("%s with %q at %d: %q, want %q", tc.choice, tc.lineArgs, tc.line, got, tc.want)
		}
	}
	env["VISUAL"] = "code"
	if got := chooseEditor("", getenv); got != "code" {
		t.Errorf("VISUAL wins over EDITOR: %q", got)
	}
	if got := chooseEditor("hx", getenv); got != "hx" {
		t.Errorf("the config wins: %q", got)
	}
	if got := chooseEditor("", func(string) string { return "" }); got != "" {
		t.Errorf("with nothing set: %q", got)
	}
	// The app takes the environment from its options.
	if a := New(Options{Workspace: &store.Workspace{}, Getenv: getenv}); a.c.Editor != "code" {
		t.Errorf("the app chose %q", a.c.Editor)
	}
}

// With no editor set, E opens the first of a few common editors that is
// on $PATH, and says what to set when none is; a chosen editor that is not
// there is named.
func TestFindEditor(t *testing.T) {
	t.Parallel()
	on := func(names ...string) func(string) (string, error) {
		return func(name string) (string, error) {
			if slices.Contains(names, name) {
				return "/usr/bin/" + name, nil
			}
			return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
		}
	}
	for _, c := range []struct {
		choice string
		path   []string
		want   string
		err    string
	}{
		{"", []string{"vi", "vim"}, "vim", ""},
		{"", []string{"editor", "vim"}, "editor", ""},
		{"", []string{"micro"}, "micro", ""},
		{"", nil, "", "no editor to open: set $EDITOR (or [ui] editor in the config), or press e to edit here (none of editor, nano"},
		{"code --wait", []string{"code"}, "code --wait", ""},
		{"nano", []string{"vim"}, "", `the editor "nano" is not on $PATH: set $EDITOR`},
	} {
		got, err := findEditor(c.choice, on(c.path...))
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q with %v on $PATH: %q, %v", c.choice, c.path, got, err)
		}
	}
}

// E with no editor anywhere says what to set, and opens nothing.
func TestExternalEditorMissingSaysWhatToSet(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 100, 30, Options{Getenv: func(string) string { return "" }})
	openVaultFile(t, a, filepath.Join(ws.Agents[0].Workspace, "MEMORY.md"))
	press(t, a, "E")
	if !strings.Contains(a.status, "no editor to open: set $EDITOR") {
		t.Errorf("status %q", a.status)
	}
}

func TestUnopenableRowsSaySo(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	_, man := demoWorkspace(t)
	a.sessions.Select(man.MissingFile.Key)
	press(t, a, "enter")
	if a.screen != screenSessions || !strings.Contains(a.status, "no transcript to open") {
		t.Errorf("screen %d, status %q", a.screen, a.status)
	}
}

func TestLiveRefreshKeepsThePlace(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	openBranchy(t, a)
	p := a.transcript
	press(t, a, "g") // the first entry
	before := p.selectedOffset()
	drive(t, a, p.Refresh())
	if p.selectedOffset() != before {
		t.Error("a refresh moved the selection")
	}
}

// --- the Jobs screen

func TestDryRunJob(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	press(t, a, "5", "d")
	if len(a.jobs.jobs) != 1 || a.jobs.jobs[0].state != jobDone {
		t.Fatalf("jobs: %+v", a.jobs.jobs)
	}
	v := viewText(a)
	if !strings.Contains(v, "agent:main:main") || !strings.Contains(v, "would be observed") {
		t.Errorf("the candidate list is not shown:\n%s", v)
	}
	// Enter walks the result; enter on a candidate shows it on Sessions.
	press(t, a, "enter", "down", "enter")
	if a.screen != screenSessions {
		t.Fatalf("screen %d", a.screen)
	}
	if r, _ := a.sessions.Selected(); r.DisplayKey() != "agent:main:main" {
		t.Errorf("the link selected %s", r.DisplayKey())
	}
}

func TestRetentionJob(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{Jobs: planningRunners()})
	press(t, a, "5", "R")
	j := a.jobs.jobs[0]
	if j.state != jobDone {
		t.Fatalf("state %d: %v", j.state, j.err)
	}
	v := viewText(a)
	for _, want := range []string{"retention", "dry run:", "maintenance, agent main", "ledger:"} {
		if !strings.Contains(v, want) {
			t.Errorf("the plan does not show %q:\n%s", want, v)
		}
	}
	want := followFirstLink(t, a, j.lines, j.result.(*RetentionResult).Link)
	if a.screen != screenSessions {
		t.Fatalf("screen %d", a.screen)
	}
	if r, _ := a.sessions.Selected(); r.Key != want {
		t.Errorf("the link selected %q, want %q", r.Key, want)
	}
}

// followFirstLink walks a finished job's result down to its first line
// that names a session and presses enter there; it returns that session.
func followFirstLink(t *testing.T, a *App, lines []string, link func(int) (string, bool)) string {
	t.Helper()
	line := -1
	for i := range lines {
		if _, ok := link(i); ok {
			line = i
			break
		}
	}
	if line < 0 {
		t.Fatalf("no result line links to a session:\n%s", strings.Join(lines, "\n"))
	}
	want, _ := link(line)
	press(t, a, "enter")
	for range line {
		press(t, a, "down")
	}
	press(t, a, "enter")
	return want
}

func TestUnbuiltJobsSaySo(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	press(t, a, "5")
	for _, k := range []string{"S", "R"} {
		press(t, a, k)
		if !strings.Contains(a.status, "not built into this version yet") || len(a.jobs.jobs) != 0 {
			t.Errorf("%s: status %q, %d jobs", k, a.status, len(a.jobs.jobs))
		}
	}
	if !strings.Contains(viewText(a), "S sweep (not built yet)") {
		t.Error("the screen does not say which job is missing")
	}
}

func TestSweepAsksFirstAndCanFail(t *testing.T) {
	t.Parallel()
	var got []observer.Candidate
	runners := JobRunners{Sweep: func(ctx context.Context, _ *store.Snapshot, c []observer.Candidate, pr observer.ProgressFunc) (JobResult, error) {
		got = c
		pr.Report(observer.Progress{Stage: "read", Done: 1, Total: 2, Unit: "sessions"})
		return nil, errors.New("disk full")
	}}
	a := newApp(t, 100, 30, Options{Jobs: runners})
	press(t, a, "5", "S")
	if a.confirm == nil || !strings.Contains(viewText(a), "This writes to the vault") {
		t.Fatal("no confirmation before a sweep")
	}
	if v := viewText(a); !strings.Contains(v, "Observe 9 sessions") || !strings.Contains(v, "y start the sweep   n cancel") {
		t.Errorf("the question and its answers:\n%s", v)
	}
	if !strings.Contains(viewText(a), "agent:main:main") {
		t.Error("the confirmation does not name the sessions")
	}
	press(t, a, "n")
	if a.confirm != nil || len(a.jobs.jobs) != 0 {
		t.Fatal("n did not cancel")
	}
	press(t, a, "S", "y")
	if len(got) == 0 {
		t.Fatal("the sweep did not get the candidates")
	}
	j := a.jobs.jobs[0]
	if j.state != jobFailed || !strings.Contains(viewText(a), "disk full") {
		t.Errorf("state %d, view:\n%s", j.state, viewText(a))
	}
}

// A finished sweep rescans the workspace (its cursors moved) and its report
// links each observed session.
func TestSweepJobRescansAndLinks(t *testing.T) {
	t.Parallel()
	runners := JobRunners{Sweep: func(ctx context.Context, _ *store.Snapshot, c []observer.Candidate, _ observer.ProgressFunc) (JobResult, error) {
		rep := &observer.SweepReport{Checked: 34, Candidates: c, Agents: []string{"main"}, Compressor: "rules"}
		for _, cand := range c {
			rep.Observed = append(rep.Observed, observer.SessionResult{SessionKey: cand.SessionKey, CursorID: cand.CursorID, Source: cand.Source, BytesRead: cand.NewBytes})
		}
		return NewSweepResult(rep), nil
	}}
	a := newApp(t, 100, 30, Options{Jobs: runners})
	scans := a.scanJob
	press(t, a, "5", "S", "y")
	if j := a.jobs.jobs[0]; j.state != jobDone || a.scanJob == scans {
		t.Fatalf("state %d, scan job %d (was %d)", j.state, a.scanJob, scans)
	}
	if v := viewText(a); !strings.Contains(v, "- agent:main:main [main]") || !strings.Contains(v, "observed 9 sessions") {
		t.Errorf("the report is not shown:\n%s", v)
	}
	press(t, a, "enter", "down", "enter")
	if r, _ := a.sessions.Selected(); a.screen != screenSessions || r.DisplayKey() != "agent:main:main" {
		t.Errorf("screen %d, selected %s", a.screen, r.DisplayKey())
	}
}

// textResult is a job result of fixed lines.
type textResult []string

func (r textResult) Summary() string         { return "a summary" }
func (r textResult) Lines(int) []string      { return append([]string(nil), r...) }
func (r textResult) Link(int) (string, bool) { return "", false }

// A result line longer than the screen is cut, and shown whole (wrapped)
// when enter selects it.
func TestJobResultLineShownWhole(t *testing.T) {
	long := "note: " + strings.Repeat("every word of this line matters ", 6) + "and so does its end."
	runners := JobRunners{Retention: func(context.Context, *store.Snapshot, observer.ProgressFunc) (JobResult, error) {
		return textResult{"first line", long, "last line"}, nil
	}}
	a := newApp(t, 80, 24, Options{Jobs: runners})
	press(t, a, "5", "R")
	if v := viewText(a); strings.Contains(v, "and so does its end.") {
		t.Fatalf("the long line was not cut:\n%s", v)
	}
	press(t, a, "enter", "down")
	v := viewText(a)
	joined := strings.Join(strings.Fields(v), " ")
	if !strings.Contains(joined, strings.Join(strings.Fields(long), " ")) || !strings.Contains(v, "last line") {
		t.Errorf("the selected line is not shown whole:\n%s", v)
	}
	press(t, a, "down")
	if v := viewText(a); strings.Contains(v, "and so does its end.") {
		t.Errorf("the line stayed whole once left:\n%s", v)
	}
}

// blockingRetention is a retention plan that runs until it is cancelled;
// started is closed when it begins.
func blockingRetention(started chan<- struct{}) JobRunners {
	return JobRunners{Retention: func(ctx context.Context, _ *store.Snapshot, _ observer.ProgressFunc) (JobResult, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}}
}

func TestCancelAJob(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	a := newApp(t, 100, 30, Options{Jobs: blockingRetention(started)})
	press(t, a, "5")
	final := startAside(t, a, "R", started)
	press(t, a, "x")
	drive(t, a, func() tea.Msg { return <-final })
	if j := a.jobs.jobs[0]; j.state != jobCancelled {
		t.Errorf("state %d", j.state)
	}
}

// cancelSweep starts a sweep on the Jobs screen (S, y), cancels it (x)
// and returns the app once the sweep has answered with the report report
// makes of its candidates.
func cancelSweep(t *testing.T, report func(c []observer.Candidate) *observer.SweepReport) *App {
	t.Helper()
	started := make(chan struct{})
	runners := JobRunners{Sweep: func(ctx context.Context, _ *store.Snapshot, c []observer.Candidate, _ observer.ProgressFunc) (JobResult, error) {
		close(started)
		<-ctx.Done()
		return NewSweepResult(report(c)), ctx.Err()
	}}
	a := newApp(t, 120, 35, Options{Jobs: runners})
	press(t, a, "5", "S")
	final := startAside(t, a, "y", started)
	press(t, a, "x")
	drive(t, a, func() tea.Msg { return <-final })
	return a
}

// x while the sweep commits, a commit that ends in time: the sweep
// records every session and reports the cancel; the job says so rather
// than "cancelled".
func TestCancelWhileTheSweepCommits(t *testing.T) {
	// The cancel arrives while the commit runs.
	a := cancelSweep(t, func(c []observer.Candidate) *observer.SweepReport {
		rep := &observer.SweepReport{Candidates: c, Agents: []string{"main"}, Compressor: "rules", Cancelled: true, Observations: 2147}
		for _, cand := range c {
			rep.Observed = append(rep.Observed, observer.SessionResult{SessionKey: cand.SessionKey, CursorID: cand.CursorID, Source: cand.Source})
		}
		return rep
	})
	j := a.jobs.jobs[0]
	v := viewText(a)
	if j.state != jobDone || strings.Contains(v, "cancelled") {
		t.Errorf("state %d:\n%s", j.state, v)
	}
	for _, want := range []string{
		"done the cancel came while the sweep was committing: all 9 sessions were recorded",
		"The cancel came while the sweep was committing: all 9 sessions were recorded.",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
}

// A sweep cancelled between sessions says what it finished.
func TestCancelledSweepSaysWhatItDid(t *testing.T) {
	a := cancelSweep(t, func(c []observer.Candidate) *observer.SweepReport {
		return &observer.SweepReport{Candidates: c, Agents: []string{"main"}, Compressor: "rules", Cancelled: true, Skipped: c[1:],
			Observed: []observer.SessionResult{{SessionKey: c[0].SessionKey, CursorID: c[0].CursorID, Source: c[0].Source}}}
	})
	if j, v := a.jobs.jobs[0], viewText(a); j.state != jobCancelled || !strings.Contains(v, "cancelled observed 1 session: 0 observations from 0 B, 8 left for the next sweep") {
		t.Errorf("state %d:\n%s", j.state, v)
	}
}

// A sweep whose commit a cancel dropped (it could not end in time) counts
// those sessions as left for the next sweep, not as failed.
func TestCancelledSweepCountsADroppedCommitAsLeft(t *testing.T) {
	a := cancelSweep(t, func(c []observer.Candidate) *observer.SweepReport {
		rep := &observer.SweepReport{Candidates: c, Agents: []string{"main"}, Compressor: "rules", Cancelled: true, Abandoned: len(c)}
		for _, cand := range c {
			rep.Failed = append(rep.Failed, observer.SessionResult{SessionKey: cand.SessionKey, CursorID: cand.CursorID, Error: "not recorded"})
		}
		return rep
	})
	v := viewText(a)
	if j := a.jobs.jobs[0]; j.state != jobCancelled || !strings.Contains(v, "cancelled observed 0 sessions: 0 observations from 0 B, 9 left for the next sweep") ||
		strings.Contains(v, "failed") {
		t.Errorf("state %d:\n%s", j.state, v)
	}
}

func TestLiveAppendShowsUp(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	src, err := os.ReadFile(filepath.Join("..", "store", "transcript", "testdata", "spec-branch.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "live.jsonl")
	os.WriteFile(path, src, 0o644)
	drive(t, a, func() tea.Msg {
		return openTranscriptMsg{row: model.SessionRow{Key: "agent:main:live", File: path, Exists: true, Name: model.FileName{Kind: model.FilePrimary}}}
	})
	p := a.transcript
	if p.ix == nil || p.ix.Tree.Nodes != 9 {
		t.Fatalf("opened: %+v", p.ix)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"message","id":"feedf00d","parentId":"3456abcd","timestamp":"2026-04-12T10:04:00.000Z","message":{"role":"user","content":"one more"}}` + "\n")
	f.Close()
	drive(t, a, func() tea.Msg { return filesChangedMsg{paths: []string{path}} })
	if p.ix.Tree.Nodes != 10 || p.ix.Tree.LeafID() != "feedf00d" {
		t.Errorf("after the append: %d entries, leaf %s", p.ix.Tree.Nodes, p.ix.Tree.LeafID())
	}
	if e, _ := p.selectedEntry(); e != p.ix.Tree.Leaf {
		t.Error("the selection was on the leaf and did not follow the new one")
	}
}

// The jobs the user starts are numbered 1, 2, 3, whatever else (scans,
// transcript reads, status messages) took ids from the app's counter.
func TestJobNumbersCountTheUsersJobs(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	openBranchy(t, a) // reads that take job ids
	press(t, a, "5", "d", "d")
	v := viewText(a)
	for _, want := range []string{"#1   dry-run sweep", "#2   dry-run sweep"} {
		if !strings.Contains(v, want) {
			t.Errorf("the jobs screen lacks %q:\n%s", want, v)
		}
	}
}

// A job cancelled with x shows its time so far until it stops, not the
// time since the zero time.
func TestCancelledJobShowsItsTime(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	a := newApp(t, 100, 30, Options{Jobs: blockingRetention(started)})
	now := fixedNow
	a.c.Now = func() time.Time { return now }
	press(t, a, "5")
	final := startAside(t, a, "R", started)
	now = now.Add(1500 * time.Millisecond)
	press(t, a, "x")
	line := jobLineOf(viewText(a), "retention dry-run")
	if !strings.Contains(line, "1.5s") || !strings.Contains(line, "cancelled") {
		t.Errorf("before the job stops: %q", line)
	}
	now = now.Add(time.Second)
	drive(t, a, func() tea.Msg { return <-final })
	if line := jobLineOf(viewText(a), "retention dry-run"); !strings.Contains(line, "2.5s") || !strings.Contains(line, "cancelled") {
		t.Errorf("once it stopped: %q", line)
	}
}

// jobLineOf is the line of the Jobs screen's list that has a job's title.
func jobLineOf(view, title string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(l, "#") && strings.Contains(l, title) {
			return l
		}
	}
	return ""
}

// Esc undoes one thing at a time, on every screen: it closes what is open
// (the help, an input), then clears a filter or a search, then goes back
// to the screen shown before.
func TestEscClosesThenClearsThenGoesBack(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	p := searchBranchy(t, a, "onboarding")
	if p.query != "onboarding" || len(p.matches) == 0 {
		t.Fatalf("query %q, %d matches", p.query, len(p.matches))
	}
	// / opens an empty query: what is typed replaces the last one.
	press(t, a, "/")
	if v := p.searchInput.Value(); v != "" {
		t.Errorf("/ reopened with %q", v)
	}
	typeText(t, a, "plain")
	if v := p.searchInput.Value(); v != "plain" {
		t.Errorf("typed into %q", v)
	}
	press(t, a, "esc") // closes the input; the last search stays
	if p.searching || p.query != "onboarding" || a.screen != screenTranscript {
		t.Fatalf("esc on the input: searching %v, query %q, screen %d", p.searching, p.query, a.screen)
	}
	press(t, a, "?", "esc") // the help closes, nothing else
	if a.showHelp || p.query != "onboarding" {
		t.Fatalf("esc on the help: shown %v, query %q", a.showHelp, p.query)
	}
	press(t, a, "esc") // clears the search
	if p.query != "" || len(p.matches) != 0 || a.screen != screenTranscript {
		t.Fatalf("esc on a search: query %q, screen %d", p.query, a.screen)
	}
	if strings.Contains(viewText(a), "matches for") {
		t.Error("the search line is still shown")
	}
	press(t, a, "esc") // back to Sessions, where enter came from
	if a.screen != screenSessions {
		t.Fatalf("esc with nothing to clear: screen %d", a.screen)
	}
	press(t, a, "esc") // nowhere further back
	if a.screen != screenSessions {
		t.Errorf("esc on the first screen: %d", a.screen)
	}

	// Jobs: esc leaves a result being walked, then goes back.
	press(t, a, "5", "d", "enter")
	if !a.jobs.inResult {
		t.Fatal("enter did not walk the result")
	}
	press(t, a, "esc")
	if a.jobs.inResult || a.screen != screenJobs {
		t.Fatalf("esc in a result: walking %v, screen %d", a.jobs.inResult, a.screen)
	}
	press(t, a, "esc")
	if a.screen != screenSessions {
		t.Errorf("esc on Jobs went to screen %d", a.screen)
	}
	// Back retraces the way: Jobs → a session named in a result → esc → Jobs.
	press(t, a, "5", "enter", "down", "enter")
	if a.screen != screenSessions {
		t.Fatalf("the link went to screen %d", a.screen)
	}
	press(t, a, "esc")
	if a.screen != screenJobs {
		t.Errorf("esc after following a link: screen %d", a.screen)
	}
	// Sessions: esc on the filter's input clears it (it filters as you
	// type), and a filter left on is cleared by the next esc.
	press(t, a, "1", "/")
	typeText(t, a, "reset")
	press(t, a, "enter")
	if a.sessions.filter.Value() != "reset" {
		t.Fatalf("filter %q", a.sessions.filter.Value())
	}
	press(t, a, "esc")
	if a.sessions.filter.Value() != "" || a.screen != screenSessions {
		t.Errorf("esc on a filter: %q, screen %d", a.sessions.filter.Value(), a.screen)
	}
}

// A temporary demo says so in the header at every width: what is edited
// there is deleted on quit.
func TestDemoSaysSoAtEveryWidth(t *testing.T) {
	for _, c := range []struct {
		width, height int
		want          string
	}{{50, 15, "DEMO 56 sessions"}, {80, 24, "DEMO, deleted on quit 56 sessions"}, {120, 35, "DEMO, deleted on quit 56 sessions"}} {
		a := newApp(t, c.width, c.height, Options{Demo: "/tmp/clawvault-tui-demo-123"})
		head, _, _ := strings.Cut(viewText(a), "\n")
		if !strings.Contains(head, c.want) {
			t.Errorf("%dx%d: %q", c.width, c.height, head)
		}
	}
	a := newApp(t, 250, 35, Options{Demo: "/tmp/clawvault-tui-demo-123"})
	if head, _, _ := strings.Cut(viewText(a), "\n"); !strings.HasSuffix(strings.TrimRight(head, " "), "· demo folder /tmp/clawvault-tui-demo-123") {
		t.Errorf("250 columns: %q", head)
	}
}

// Counts agree with their nouns: "1 agent", never "1 agents" or "agent(s)".
func TestCountsAgreeWithTheirNouns(t *testing.T) {
	a := newAppOn(t, hostileWorkspace(t), 140, 30, Options{})
	head, _, _ := strings.Cut(viewText(a), "\n")
	if !strings.Contains(head, " · 1 agent · ") || strings.Contains(head, "(s)") {
		t.Errorf("header %q", head)
	}
	if got := model.Plural(1, "match", "matches") + " " + model.Plural(2, "match", "matches"); got != "1 match 2 matches" {
		t.Errorf("%q", got)
	}
}
