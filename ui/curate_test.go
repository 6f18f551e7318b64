package ui

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/search"
	"clawvault-tui/store/vaultfs"
)

// The curating screens: Vault, Search, the built-in editor and promote.
// Tests that write use a small workspace of their own (memoryWorkspace);
// those that only read use the demo.

const fixtureMemory = `# MEMORY.md

## People
- **Elena Vasquez**: finance lead at Northwind.

## Decisions
- Invoices are immutable; corrections are credit notes.

## Lessons
- Never run migrations without a backup snapshot.
`

const fixtureLedgerDay = `## 2026-11-20

- [decision|c=0.95|i=0.95] 01:42 [telegram-group] user: Jonas: Decision: Jonas owns the warehouse migration.
- [lesson|c=0.80|i=0.45] 02:42 [discord] user: Lesson learned: long-running cron jobs need a timeout.
- [fact|c=0.72|i=0.20] 03:10 [main] user: ok
- [decision|c=0.90|i=0.85] 09:35 [main] user: We decided to move the weekly billing sync to [[Thursdays]].
`

const fixtureNote = `# 2026-11-20

## Log
- 10:03 We decided to use PostgreSQL instead of MongoDB for the Northwind billing service.
- 10:44 Had a call with Jonas about the warehouse cut-over.
`

// memoryWorkspace writes a vault and two agents' workspaces into a temp
// folder: files the tests may change.
func memoryWorkspace(t testing.TB) (*store.Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"vault/.clawvault.json":                      "{}\n",
		"vault/.clawvault/observe-cursors.json":      "{}\n",
		"vault/ledger/observations/2026/11/20.md":    fixtureLedgerDay,
		"vault/decisions/2026-11-05.md":              "# decisions — 2026-11-05\n\n- [decision|c=0.90|i=0.90] 09:35 [telegram] user: We decided to move the sync.\n",
		"state/workspace/MEMORY.md":                  fixtureMemory,
		"state/workspace/AGENTS.md":                  "Be brief.\n",
		"state/workspace/memory/2026-11-20.md":       fixtureNote,
		"state/workspace-work/MEMORY.md":             "# MEMORY.md\n\n## Decisions\n",
		"state/agents/main/sessions/.keep":           "",
		"state/agents/work/sessions/.keep":           "",
		"outside/secret.md":                          "not memory\n",
		"state/workspace/memory/nested/deeper.md":    "# deeper\n",
		"vault/ledger/raw/openclaw/2026/11/20.jsonl": "",
	}
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	state := filepath.Join(dir, "state")
	ws := &store.Workspace{StateDir: state, StateDirExists: true, ObserverAgent: "main", Vault: filepath.Join(dir, "vault"),
		Agents: []store.Agent{
			{ID: "main", Dir: filepath.Join(state, "agents", "main"), SessionsDir: filepath.Join(state, "agents", "main", "sessions"), Workspace: filepath.Join(state, "workspace")},
			{ID: "work", Dir: filepath.Join(state, "agents", "work"), SessionsDir: filepath.Join(state, "agents", "work", "sessions"), Workspace: filepath.Join(state, "workspace-work")},
		}}
	return ws, dir
}

func readText(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeText(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// openVaultFile shows a file of the Vault screen with the whole screen.
func openVaultFile(t testing.TB, a *App, path string) {
	t.Helper()
	press(t, a, "3")
	drive(t, a, a.vault.Reveal(path))
	if e, ok := a.vault.selected(); !ok || e.Path != path {
		t.Fatalf("the tree did not select %s", path)
	}
	press(t, a, "enter")
	if a.vault.focus != focusFile || a.vault.file == nil {
		t.Fatalf("%s did not open", path)
	}
}

// openEditorAt opens the built-in editor on a file at a line.
func openEditorAt(t testing.TB, a *App, path string, line int) *editorPane {
	t.Helper()
	drive(t, a, func() tea.Msg { return openEditorMsg{path: path, line: line} })
	if a.editor == nil {
		t.Fatalf("the editor did not open %s: %q", path, a.status)
	}
	return a.editor
}

// typeAtEnd types text at the end of the editor's line.
func typeAtEnd(t testing.TB, a *App, text string) {
	t.Helper()
	press(t, a, "end")
	typeText(t, a, text)
}

// sendKey sends one key without running what it starts.
func sendKey(a *App, k string) tea.Cmd {
	_, cmd := a.Update(keyMsg(k))
	return cmd
}

func TestVaultTreeLists(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 100, 30, Options{})
	press(t, a, "3")
	var names []string
	for _, i := range a.vault.visible {
		e := a.vault.entries[i]
		names = append(names, strings.Repeat(" ", e.Depth())+e.Name())
	}
	got := strings.Join(names, "|")
	for _, want := range []string{"vault", " decisions", " ledger", "main's workspace", " MEMORY.md", " memory", "  2026-11-20.md", "  nested", "work's workspace"} {
		if !strings.Contains("|"+got+"|", "|"+want+"|") {
			t.Errorf("%q is not in the tree: %s", want, got)
		}
	}
	for _, not := range []string{"AGENTS.md", ".clawvault", "secret.md", "observe-cursors.json"} {
		if strings.Contains(got, not) {
			t.Errorf("%s is listed: %s", not, got)
		}
	}
}

// The selected file's row keeps its size.
func TestVaultSelectedRowKeepsItsSize(t *testing.T) {
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 100, 30, Options{})
	press(t, a, "3")
	for range a.vault.visible {
		if e, ok := a.vault.selected(); ok && e.Name() == "MEMORY.md" {
			break
		}
		press(t, a, "j")
	}
	e, ok := a.vault.selected()
	if !ok || e.Name() != "MEMORY.md" {
		t.Fatal("MEMORY.md is not in the tree")
	}
	tree := strings.Split(ansi.Strip(a.vault.treeView(40, 25)), "\n")
	if line := tree[a.vault.cursor-a.vault.offset]; !strings.Contains(line, "MEMORY.md") || !strings.HasSuffix(line, " "+model.Bytes(e.Size)) {
		t.Errorf("the selected row has no size (%s): %q", model.Bytes(e.Size), line)
	}
}

// Observation files are a table, filtered by type, importance and source.
func TestVaultObservationTable(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 120, 35, Options{})
	openVaultFile(t, a, filepath.Join(ws.Vault, "ledger", "observations", "2026", "11", "20.md"))
	p := a.vault
	if !p.file.table || len(p.rows) != 4 {
		t.Fatalf("table %v with %d rows", p.file.table, len(p.rows))
	}
	press(t, a, "t") // decision
	if len(p.rows) != 2 || p.typeFilter != "decision" {
		t.Errorf("type filter %q: %d rows", p.typeFilter, len(p.rows))
	}
	press(t, a, "s") // source discord: no decision from there
	if len(p.rows) != 0 || !strings.Contains(viewText(a), "no observation passes the filters") {
		t.Errorf("source filter %q: %d rows", p.sourceFilter, len(p.rows))
	}
	press(t, a, "s", "t", "t", "t") // source main, every type
	if p.sourceFilter != "main" || p.typeFilter != "" || len(p.rows) != 2 {
		t.Errorf("filters %q %q: %d rows", p.sourceFilter, p.typeFilter, len(p.rows))
	}
	press(t, a, "i") // importance ≥ 0.4
	if len(p.rows) != 1 || !strings.Contains(viewText(a), "importance ≥0.40") {
		t.Errorf("importance %v: %d rows", p.importance, len(p.rows))
	}
	press(t, a, "i", "i", "s", "s")
	if len(p.rows) != 4 {
		t.Errorf("filters off: %d rows", len(p.rows))
	}
	// Enter opens the editor at the row's line.
	press(t, a, "j", "enter")
	if a.editor == nil || a.editor.buf.row != 3 {
		t.Fatalf("the editor is not at line 4: %+v", a.editor)
	}
}

// The preview of a big Markdown file renders in a command: keys never
// wait for it, and the raw text shows meanwhile.
func TestVaultBigFileRendersOffTheLoop(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	big := filepath.Join(ws.Vault, "big.md")
	section := "## A heading\n\n" + strings.Repeat("Some *prose* with words in it, and more words to fill a line.\n", 40) + "\n"
	writeText(t, big, strings.Repeat(section, (1<<20)/len(section)))
	a := newAppOn(t, ws, 100, 30, Options{})
	press(t, a, "3")
	drive(t, a, a.vault.Reveal(big)) // reads it, and renders it to the end
	if _, ok := a.vault.rendered[a.vault.renderKey()]; !ok {
		t.Fatal("the rendering did not arrive")
	}
	// Now at another width: the key handling starts a render and returns.
	clear(a.vault.rendered)
	a.vault.rendering = false
	a.Update(tea.WindowSizeMsg{Width: 90, Height: 30})
	cmd := a.vault.needRender()
	if cmd == nil {
		t.Fatal("no render was started")
	}
	if v := viewText(a); !strings.Contains(v, "rendering…") || !strings.Contains(v, "Some *prose*") {
		t.Errorf("meanwhile the raw text is not shown:\n%s", v)
	}
	press(t, a, "k", "j") // keys work while the render has not run
	drive(t, a, cmd)
	if v := viewText(a); strings.Contains(v, "rendering…") || strings.Contains(v, "Some *prose*") {
		t.Errorf("the rendering is not shown:\n%s", v)
	}
}

func TestRenderableCutsBetweenBlocks(t *testing.T) {
	t.Parallel()
	small := "# x\n\ntext\n"
	if renderable(small) != small {
		t.Error("a small file is cut")
	}
	fenced := "# big\n\n```\n" + strings.Repeat("code line\n\n", maxRender/10) + "```\n\nafter\n"
	if got := renderable(fenced); got != "# big\n" {
		t.Errorf("cut inside a fence: %d bytes, ends %q", len(got), got[max(0, len(got)-20):])
	}
	prose := strings.Repeat("para\n\n", maxRender)
	if got := renderable(prose); len(got) > maxRender || !strings.HasSuffix(got, "para\n") {
		t.Errorf("prose cut at %d bytes, ends %q", len(got), got[len(got)-8:])
	}
}

func TestEditorSavesTheBytes(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 100, 30, Options{})
	memory := filepath.Join(ws.Agents[0].Workspace, "MEMORY.md")
	drive(t, a, func() tea.Msg { return openEditorMsg{path: memory, line: 4} })
	e := a.editor
	if e == nil || e.buf.row != 3 {
		t.Fatalf("the editor did not open at line 4: %v", a.status)
	}
	press(t, a, "end")
	typeText(t, a, " Prefers email.")
	if !strings.Contains(viewText(a), "● modified") {
		t.Error("no dirty marker")
	}
	press(t, a, "ctrl+s")
	want := strings.Replace(fixtureMemory, "at Northwind.", "at Northwind. Prefers email.", 1)
	if got := readText(t, memory); got != want {
		t.Fatalf("on disk:\n%s", got)
	}
	if e.buf.dirty() || !strings.Contains(e.note, "saved") {
		t.Errorf("after the save: dirty %v, note %q", e.buf.dirty(), e.note)
	}
	// Undo takes the typing back a word at a time; saving writes the original.
	press(t, a, "ctrl+z", "ctrl+z", "ctrl+z", "ctrl+z", "ctrl+s")
	if got := readText(t, memory); got != fixtureMemory {
		t.Errorf("after undo and save:\n%s", got)
	}
}

// A file changed on disk while it was open is never written over: the
// conflict says so, both versions stay, and a merge takes both changes
// when they are on different lines.
func TestEditorConflictMerges(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 100, 30, Options{})
	memory := filepath.Join(ws.Agents[0].Workspace, "MEMORY.md")
	openEditorAt(t, a, memory, 4)
	typeAtEnd(t, a, " Prefers email.")
	theirs := fixtureMemory + "- Long-running cron jobs need a timeout.\n"
	writeText(t, memory, theirs)
	press(t, a, "ctrl+s")
	e := a.editor
	if e.mode != conflict || e.clash == nil {
		t.Fatalf("no conflict: mode %d, note %q", e.mode, e.note)
	}
	if got := readText(t, memory); got != theirs {
		t.Fatalf("the disk's version was written over:\n%s", got)
	}
	if e.clash.Kept == "" || !strings.Contains(readText(t, e.clash.Kept), "Prefers email.") {
		t.Errorf("our version is not kept: %q", e.clash.Kept)
	}
	if v := viewText(a); !strings.Contains(v, "changed on disk since it was opened") || !strings.Contains(v, "m merge") {
		t.Errorf("the conflict is not shown:\n%s", v)
	}
	press(t, a, "d")
	if v := viewText(a); e.mode != diffing || !strings.Contains(v, "-- Long-running cron jobs") || !strings.Contains(v, "+- **Elena Vasquez**: finance lead at Northwind. Prefers email.") {
		t.Errorf("the diff:\n%s", v)
	}
	press(t, a, "esc", "m")
	if e.mode != editing || !e.buf.dirty() {
		t.Fatalf("merge: mode %d, note %q", e.mode, e.note)
	}
	press(t, a, "ctrl+s")
	want := strings.Replace(theirs, "at Northwind.", "at Northwind. Prefers email.", 1)
	if got := readText(t, memory); got != want {
		t.Errorf("after the merge and save:\n%s", got)
	}
}

func TestEditorConflictSameLine(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 100, 30, Options{})
	memory := filepath.Join(ws.Agents[0].Workspace, "MEMORY.md")
	openEditorAt(t, a, memory, 4)
	typeAtEnd(t, a, " Ours.")
	theirs := strings.Replace(fixtureMemory, "at Northwind.", "at Northwind. Theirs.", 1)
	writeText(t, memory, theirs)
	press(t, a, "ctrl+s", "m")
	e := a.editor
	if e.mode != conflict || !strings.Contains(e.note, "cannot merge: both versions changed line 4") {
		t.Fatalf("mode %d, note %q", e.mode, e.note)
	}
	press(t, a, "r")
	if e.mode != editing || string(e.buf.bytes()) != theirs || e.buf.dirty() || !strings.Contains(e.note, "yours is kept in") {
		t.Errorf("after reload: mode %d, dirty %v, note %q", e.mode, e.buf.dirty(), e.note)
	}
	if got := readText(t, memory); got != theirs {
		t.Errorf("the disk changed: %s", got)
	}
}

func TestEditorAsksBeforeLeaving(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 100, 30, Options{})
	note := filepath.Join(ws.Agents[0].Workspace, "memory", "2026-11-20.md")
	drive(t, a, func() tea.Msg { return openEditorMsg{path: note, line: 1} })
	press(t, a, "esc")
	if a.editor != nil {
		t.Fatal("an unchanged file did not close at once")
	}
	drive(t, a, func() tea.Msg { return openEditorMsg{path: note, line: 1} })
	typeText(t, a, "x")
	press(t, a, "esc")
	if a.confirm == nil || a.editor == nil || !strings.Contains(viewText(a), "without saving") {
		t.Fatal("no confirmation before leaving unsaved changes")
	}
	// The answers say what they do here (not "start" and "cancel").
	if v := viewText(a); !strings.Contains(v, "y close and lose the changes   n keep editing") {
		t.Errorf("the answers:\n%s", v)
	}
	press(t, a, "n")
	if a.editor == nil {
		t.Fatal("no closed the editor")
	}
	press(t, a, "esc", "y")
	if a.editor != nil || readText(t, note) != fixtureNote {
		t.Errorf("yes did not close it, or the file changed")
	}
}

// The editor's soft wrap breaks at spaces: a word that fits on a row is
// never split; a word longer than a row is.
func TestEditorWrapsAtSpaces(t *testing.T) {
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 40, 20, Options{})
	note := filepath.Join(ws.Agents[0].Workspace, "memory", "2026-11-21.md")
	long := "The cut-over to PostgreSQL is planned for Thursday at 14:30 UTC, after the freeze; " + strings.Repeat("x", 50) + " end"
	if err := os.WriteFile(note, []byte(long+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	drive(t, a, func() tea.Msg { return openEditorMsg{path: note, line: 1} })
	if a.editor == nil {
		t.Fatalf("no editor: %q", a.status)
	}
	var rows []string
	for _, seg := range a.editor.segments(0) {
		var b strings.Builder
		for _, c := range seg {
			b.WriteString(c.text)
		}
		rows = append(rows, b.String())
	}
	if strings.Join(rows, "") != long {
		t.Fatalf("the rows do not make the line: %q", rows)
	}
	for i, r := range rows {
		if w := ansi.StringWidth(r); w > a.editor.textWidth() {
			t.Errorf("row %d is %d cells, wider than %d: %q", i, w, a.editor.textWidth(), r)
		}
		next := ""
		if i+1 < len(rows) {
			next = rows[i+1]
		}
		if next != "" && !strings.HasSuffix(r, " ") && !strings.HasPrefix(r, "xxx") && !strings.HasPrefix(next, "xxx") {
			t.Errorf("row %d splits a word: %q | %q", i, r, next)
		}
	}
	if !strings.HasPrefix(rows[0], "The cut-over to PostgreSQL is ") {
		t.Errorf("first row %q", rows[0])
	}
}

func TestEditorRefusesOutside(t *testing.T) {
	t.Parallel()
	ws, dir := memoryWorkspace(t)
	a := newAppOn(t, ws, 100, 30, Options{})
	for _, p := range []string{
		filepath.Join(dir, "outside", "secret.md"),
		filepath.Join(ws.Agents[0].Workspace, "AGENTS.md"),
		filepath.Join(ws.Vault, ".clawvault", "observe-cursors.json"),
		filepath.Join(ws.Vault, "ledger", "raw", "openclaw", "2026", "11", "20.jsonl"),
	} {
		drive(t, a, func() tea.Msg { return openEditorMsg{path: p, line: 1} })
		if a.editor != nil || !strings.Contains(a.status, "cannot edit") {
			t.Errorf("%s: editor %v, status %q", p, a.editor != nil, a.status)
		}
	}
	if !strings.Contains(a.status, "only Markdown") {
		t.Errorf("the raw ledger's refusal: %q", a.status)
	}
	// The external editor is refused the same files.
	msg := openExternal(a.c, filepath.Join(dir, "outside", "secret.md"), 1)()
	if done, ok := msg.(editorDoneMsg); !ok || done.err == nil || !strings.Contains(done.err.Error(), "not in the vault") {
		t.Errorf("external editor: %#v", msg)
	}
	// Transcripts are not edited at all.
	if !strings.Contains(a.c.Keys.Edit.Help().Desc, "edit") {
		t.Error("the edit key lost its description")
	}
}

// p on an observation puts its sentence into MEMORY.md, once.
func TestPromoteObservation(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 100, 30, Options{})
	memory := filepath.Join(ws.Agents[0].Workspace, "MEMORY.md")
	openVaultFile(t, a, filepath.Join(ws.Vault, "ledger", "observations", "2026", "11", "20.md"))
	press(t, a, "G", "p")
	pk := a.picker
	if pk == nil {
		t.Fatalf("no picker: %q", a.status)
	}
	if pk.text != "We decided to move the weekly billing sync to Thursdays." || pk.headings[pk.cursor].Title != "Decisions" {
		t.Errorf("picker: %q on %q", pk.text, pk.headings[pk.cursor].Title)
	}
	if v := viewText(a); !strings.Contains(v, "Promote to main's MEMORY.md") || !strings.Contains(v, "new section…") {
		t.Errorf("the picker:\n%s", v)
	}
	press(t, a, "enter")
	want := strings.Replace(fixtureMemory, "credit notes.\n", "credit notes.\n- We decided to move the weekly billing sync to Thursdays.\n", 1)
	if got := readText(t, memory); got != want {
		t.Fatalf("MEMORY.md:\n%s", got)
	}
	if !strings.Contains(a.status, "added to main's MEMORY.md § Decisions, line 8") {
		t.Errorf("status %q", a.status)
	}
	press(t, a, "p", "enter")
	if got := readText(t, memory); got != want || !strings.Contains(a.status, "already in main's MEMORY.md at line 8") {
		t.Errorf("a second promote: %q\n%s", a.status, got)
	}
	// A new section, in the other agent's MEMORY.md.
	press(t, a, "k", "k", "p", "a")
	if a.picker.agent != "work" {
		t.Fatalf("a did not switch agents: %q", a.picker.agent)
	}
	press(t, a, "G", "enter")
	// The box shows the whole placeholder, not its first letter (an "a"
	// that looked typed after the a that switched agents).
	if v := viewText(a); !strings.Contains(v, "new section: a heading for MEMORY.md") {
		t.Errorf("the new section's input:\n%s", v)
	}
	typeText(t, a, "Lessons")
	press(t, a, "enter")
	if got := readText(t, filepath.Join(ws.Agents[1].Workspace, "MEMORY.md")); !strings.HasSuffix(got, "## Lessons\n- Lesson learned: long-running cron jobs need a timeout.\n") {
		t.Errorf("work's MEMORY.md:\n%s", got)
	}
}

// p on a line of a daily note, from the Vault screen.
func TestPromoteNoteLine(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 100, 30, Options{})
	openVaultFile(t, a, filepath.Join(ws.Agents[0].Workspace, "memory", "2026-11-20.md"))
	if a.vault.file.table {
		t.Fatal("a note is shown as a table")
	}
	press(t, a, "j", "j", "j", "p")
	if a.picker == nil || a.picker.text != "We decided to use PostgreSQL instead of MongoDB for the Northwind billing service." {
		t.Fatalf("picker %+v, status %q", a.picker, a.status)
	}
	press(t, a, "esc")
	if a.picker != nil || readText(t, filepath.Join(ws.Agents[0].Workspace, "MEMORY.md")) != fixtureMemory {
		t.Error("esc did not cancel")
	}
}

var (
	searchCacheOnce sync.Once
	searchCache     string
	// searchCacheMu lets one app at a time hold the shared index: the
	// tests run in parallel.
	searchCacheMu sync.Mutex
)

// searchApp is the demo with the Search screen shown and its index built;
// the index is shared by the tests of the package: one test at a time
// holds it, until its app is closed at the test's end.
func searchApp(t testing.TB, width, height int) *App {
	t.Helper()
	searchCacheMu.Lock()
	t.Cleanup(searchCacheMu.Unlock) // after newApp's Cleanup closes the app
	searchCacheOnce.Do(func() {
		// Beside the shared demo's state and vault, removed with them.
		_, man := demoWorkspace(t)
		searchCache = filepath.Join(filepath.Dir(man.StateDir), "search-cache")
	})
	opt := Options{Config: store.DefaultConfig()}
	opt.Config.Search.CacheDir = searchCache
	a := newApp(t, width, height, opt)
	press(t, a, "4")
	if !a.search.ready || a.search.syncJob != 0 {
		t.Fatalf("the index is not ready: %v %v", a.search.openErr, a.search.syncErr)
	}
	return a
}

func TestSearchAsYouType(t *testing.T) {
	t.Parallel()
	a := searchApp(t, 100, 30)
	typeText(t, a, "postgres")
	p := a.search
	if p.res == nil || p.res.Total == 0 || p.shown != "postgres" {
		t.Fatalf("no hits: %v", p.err)
	}
	if v := viewText(a); !strings.Contains(v, "match 1 of") || !strings.Contains(v, "hits") {
		t.Errorf("no count:\n%s", v)
	}
	press(t, a, "down", "down")
	if !strings.Contains(viewText(a), "match 3 of") {
		t.Error("match i of N does not follow the cursor")
	}
	h, _ := p.Selected()
	press(t, a, "enter")
	if a.editor == nil || a.editor.path != h.Path || a.editor.buf.row != h.Line-1 {
		t.Fatalf("enter did not open %s:%d in the editor (%q)", h.Path, h.Line, a.status)
	}
	if line := a.editor.buf.lines[a.editor.buf.row].text; !strings.Contains(strings.ToLower(line), "postgres") {
		t.Errorf("the cursor's line does not hold the word: %q", line)
	}
}

// One search at a time: keys typed while one runs only note the text, and
// the answer starts the search for the newest; an answer to an older job
// is dropped.
func TestSearchOneQueryInFlight(t *testing.T) {
	t.Parallel()
	a := searchApp(t, 100, 30)
	first := sendKey(a, "n")
	if first == nil || !a.search.running {
		t.Fatal("the first key did not start a search")
	}
	job := a.search.runJob
	for _, k := range []string{"o", "r", "t"} {
		sendKey(a, k)
		if a.search.runJob != job {
			t.Fatalf("%q started a second search while one runs", k)
		}
	}
	if a.search.want != "nort" {
		t.Fatalf("the text typed is %q", a.search.want)
	}
	if a.search.Handle(memorySearchMsg{job: job - 1, query: "x"}) != nil || a.search.shown != "" {
		t.Error("an older job's answer was taken")
	}
	// The answer to "n" shows, and starts the search for "nort".
	answer, ok := resultOf[memorySearchMsg](first)
	if !ok || answer.query != "n" {
		t.Fatalf("the first search was for %q", answer.query)
	}
	next := a.search.Handle(answer)
	if next == nil || a.search.runJob == job || a.search.shown != "n" {
		t.Fatal("the newest text was not searched next")
	}
	drive(t, a, next)
	if a.search.shown != "nort" || a.search.running {
		t.Errorf("shown %q, running %v", a.search.shown, a.search.running)
	}
}

// resultOf runs a command (and the commands of a batch) and returns the
// first message of type T.
func resultOf[T any](cmd tea.Cmd) (T, bool) {
	var zero T
	if cmd == nil {
		return zero, false
	}
	switch m := cmd().(type) {
	case T:
		return m, true
	case tea.BatchMsg:
		for _, c := range m {
			if r, ok := resultOf[T](c); ok {
				return r, true
			}
		}
	}
	return zero, false
}

// After a save, the file is re-indexed and the results follow.
func TestSearchRefreshesAfterSave(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 100, 30, Options{})
	press(t, a, "4")
	typeText(t, a, "zanzibar")
	if a.search.res == nil || a.search.res.Total != 0 {
		t.Fatalf("a word nobody wrote was found: %+v", a.search.res)
	}
	memory := filepath.Join(ws.Agents[0].Workspace, "MEMORY.md")
	drive(t, a, func() tea.Msg { return openEditorMsg{path: memory, line: 5} })
	typeText(t, a, "- Zanzibar office opens in May.")
	press(t, a, "enter", "ctrl+s", "esc")
	if a.search.res == nil || a.search.res.Total != 1 {
		t.Fatalf("the saved word is not found: %+v %v", a.search.res, a.search.err)
	}
	if h := a.search.res.Hits[0]; h.Line != 5 || filepath.Base(h.Path) != "MEMORY.md" {
		t.Errorf("hit at %s:%d", h.Path, h.Line)
	}
	// p on the hit promotes its line (read from disk, not the snippet).
	press(t, a, "esc", "p")
	if a.picker == nil || a.picker.text != "Zanzibar office opens in May." {
		t.Fatalf("picker %+v (%q)", a.picker, a.status)
	}
	press(t, a, "enter")
	if !strings.Contains(a.status, "already in main's MEMORY.md at line 5") {
		t.Errorf("status %q", a.status)
	}
}

// o on an observation opens the session the raw ledger says it came from,
// at the message.
func TestSourceOpensTheTranscript(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	_, man := demoWorkspace(t)
	var sessionID, quote string
	for _, r := range a.snap.Rows {
		if r.File == man.Branchy.File {
			sessionID = r.SessionID
		}
	}
	quote = "drop the legacy csv export"
	drive(t, a, func() tea.Msg {
		return sourceFoundMsg{found: true, src: vaultfs.Source{SessionKey: "agent:main:direct:zoe", TranscriptID: sessionID, Quote: quote, RawFile: "raw.jsonl", RawLine: 1}}
	})
	if a.screen != screenTranscript || a.transcript.path != man.Branchy.File {
		t.Fatalf("screen %d, transcript %q, status %q", a.screen, a.transcript.path, a.status)
	}
	if len(a.transcript.matches) == 0 {
		t.Fatal("the message was not searched for")
	}
	e, _ := a.transcript.selectedEntry()
	if m := a.transcript.matched; m[e/64]&(1<<(e%64)) == 0 {
		t.Error("the cursor is not on the message")
	}
	drive(t, a, func() tea.Msg { return sourceFoundMsg{found: false} })
	if !strings.Contains(a.status, "raw ledger") {
		t.Errorf("not found: %q", a.status)
	}
}

// I on the Jobs screen syncs the index the Search screen uses: it reads
// every file the first time, none the next.
func TestIndexJob(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 100, 30, Options{})
	press(t, a, "5", "I")
	first, ok := a.jobs.jobs[0].result.(*IndexResult)
	if !ok || first.Stats.Indexed == 0 || a.jobs.jobs[0].title != "search index" {
		t.Fatalf("first sync: %+v (%v)", a.jobs.jobs[0].result, a.jobs.jobs[0].err)
	}
	press(t, a, "I")
	again := a.jobs.jobs[0].result.(*IndexResult)
	if again.Stats.Indexed != 0 || again.Stats.Unchanged != first.Stats.Indexed {
		t.Errorf("the second sync read %d file(s), %d unchanged", again.Stats.Indexed, again.Stats.Unchanged)
	}
	// The Search screen then searches that index: no second open.
	press(t, a, "4")
	typeText(t, a, "thursdays")
	if a.search.res == nil || a.search.res.Total == 0 {
		t.Errorf("no hits: %v %v", a.search.err, a.search.openErr)
	}
}

// → opens a folder (and steps into it), ← closes it or goes up.
func TestVaultTreeKeys(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	a := newAppOn(t, ws, 100, 30, Options{})
	press(t, a, "3")
	p := a.vault
	name := func() string { e, _ := p.selected(); return e.Rel }
	press(t, a, "down", "down") // vault/ledger
	if name() != "ledger" {
		t.Fatalf("on %q", name())
	}
	n := len(p.visible)
	press(t, a, "right")
	if len(p.visible) <= n || name() != "ledger" {
		t.Fatalf("→ did not open ledger: %d rows, on %q", len(p.visible), name())
	}
	press(t, a, "right", "right", "right", "right", "right", "right", "right")
	if name() != "ledger/observations/2026/11/20.md" || p.file == nil || !p.file.table {
		t.Fatalf("→ did not walk down to the day file: %q", name())
	}
	press(t, a, "left")
	if name() != "ledger/observations/2026/11" {
		t.Errorf("← went to %q, want the folder above", name())
	}
	press(t, a, "left")
	if name() != "ledger/observations/2026/11" || p.expanded["vault:ledger/observations/2026/11"] {
		t.Errorf("← did not close the folder")
	}
}

// Text from memory files cannot drive the terminal: escape sequences,
// other controls and bidirectional overrides are shown as escapes
// (model.EscapeControls: \x1b, \u202e).
func TestMemoryTextIsMadeSafe(t *testing.T) {
	t.Parallel()
	ws, _ := memoryWorkspace(t)
	evil := filepath.Join(ws.Agents[0].Workspace, "memory", "evil\x1b[2J.md")
	writeText(t, evil, "# \x1b]0;pwned\x07title\n\n- [fact|c=0.50|i=0.50] 10:00 [main] user: red \x1b[31malert\u202e gnp.exe\n")
	a := newAppOn(t, ws, 100, 30, Options{})
	press(t, a, "3")
	drive(t, a, a.vault.Reveal(evil))
	press(t, a, "enter")
	v := a.View().Content
	if strings.Contains(v, "\x1b[2J") || strings.Contains(v, "\x1b]0;") || strings.Contains(v, "\x1b[31m") || strings.Contains(v, "\u202e") {
		t.Errorf("raw controls reached the screen: %q", v)
	}
	if !strings.Contains(viewText(a), `red \x1b[31malert\u202e gnp.exe`) {
		t.Errorf("the text is not shown made safe:\n%s", viewText(a))
	}
}

// Enter on a hit hands the keyboard from the query to the list: back from
// the editor, j moves and a screen number switches screens, instead of
// both being typed into the query (found walking the demo).
func TestSearchEnterLeavesTheInput(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	press(t, a, "4")
	typeText(t, a, "postgresql")
	if a.search.res == nil || len(a.search.res.Hits) < 2 {
		t.Fatalf("results: %+v %v", a.search.res, a.search.err)
	}
	press(t, a, "enter")
	if a.editor == nil {
		t.Fatalf("the editor did not open: %q", a.status)
	}
	press(t, a, "esc", "j")
	if got := a.search.input.Value(); got != "postgresql" {
		t.Errorf("the query became %q", got)
	}
	if a.search.cursor != 1 {
		t.Errorf("j left the cursor at %d", a.search.cursor)
	}
	press(t, a, "1")
	if a.screen != screenSessions {
		t.Errorf("1 left the screen at %d", a.screen)
	}
}

// The Search screen says why the index is being built again (damaged, or
// made by another version), and a query that finds the index damaged
// starts the sync that sets it aside and builds it again.
func TestSearchSaysTheIndexIsBuiltAgain(t *testing.T) {
	a := searchApp(t, 100, 30)
	a.search.opened(indexOpenedMsg{note: "the index was damaged (x): set aside"})
	if v := viewText(a); !strings.Contains(v, "the index was damaged (x): set aside") {
		t.Errorf("the note is not shown:\n%s", v)
	}
	cmd := sendKey(a, "z")
	if cmd == nil || !a.search.running {
		t.Fatal("the key did not start a search")
	}
	damaged := &search.DamagedError{Dir: "idx", Reason: "the search library failed on it"}
	next := a.search.Handle(memorySearchMsg{job: a.search.runJob, query: "z", err: damaged})
	msg, ok := resultOf[indexDamagedMsg](next)
	if !ok {
		t.Fatal("a damaged index did not ask for a sync")
	}
	a.Update(msg)
	if a.search.syncJob == 0 || !strings.Contains(viewText(a), "is damaged") {
		t.Errorf("no sync started (%d), or the error is not shown:\n%s", a.search.syncJob, viewText(a))
	}
}
