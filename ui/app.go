package ui

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"clawvault-tui/model"
	"clawvault-tui/observer"
	"clawvault-tui/store"
	"clawvault-tui/store/search"
	"clawvault-tui/store/transcript"
	"clawvault-tui/store/vaultfs"
)

// Options configure the app.
type Options struct {
	Workspace *store.Workspace
	FS        store.FS
	Config    store.Config
	// Theme overrides the config's theme (NO_COLOR forces none).
	Theme string
	// Demo is the folder of a demo workspace deleted when the program
	// ends: the header says so at every width (what is edited there goes
	// with it).
	Demo string
	// Who is whose session this is, first in the header (serve: the key
	// and its role).
	Who  string
	Now  func() time.Time
	Jobs JobRunners
	// Watch turns on the file watcher (live gauges); tests leave it off.
	Watch bool
	// Getenv reads the environment: $VISUAL and $EDITOR name the editor
	// when the config does not, $XDG_CACHE_HOME and $XDG_DATA_HOME where
	// the search index and the backups go. Nil reads the process's
	// environment.
	Getenv func(string) string
	// BackupDir is where the editor keeps previous versions (default: the
	// backups folder of the user's data folder).
	BackupDir string
	// Caps are what the session may change (serve: the key's role).
	Caps Capabilities
	// Index opens the search index, shared by whoever handed it and never
	// closed by the app (serve: one per index folder for all its
	// sessions); nil: the app opens its own and closes it in Close.
	Index func(search.Options) (*search.Index, error)
	// Scan lists the sessions (nil: store.Scan); serve hands its sessions
	// one scanner, so that they share their snapshots.
	Scan func(ctx context.Context, fsys store.FS, ws *store.Workspace, opt store.ScanOptions) (*store.Snapshot, error)
	// MemoryHTTP carries the embedding requests of the search as the
	// agent recalls (nil: the default client; tests point it at theirs).
	MemoryHTTP *http.Client
}

// recallOptionsOf is what the search as the agent recalls reads: the
// agents that keep a SQLite store (and so the memory index).
func recallOptionsOf(opt Options) recallOptions {
	ro := recallOptions{configPath: opt.Workspace.ConfigPath, getenv: opt.Getenv, now: opt.Now, http: opt.MemoryHTTP}
	for _, ag := range opt.Workspace.Agents {
		if ag.SQLitePath != "" {
			ro.agents = append(ro.agents, ag)
		}
	}
	return ro
}

type screen int

const (
	screenSessions screen = iota
	screenTranscript
	screenVault
	screenSearch
	screenJobs
	screens
)

var screenNames = [...]string{"Sessions", "Transcript", "Vault", "Search", "Jobs"}

// pane is what every screen offers the root.
type pane interface {
	SetSize(w, h int)
	View() string
	// Update handles a key and reports whether it used it. Esc (Back) is
	// used only to close or clear something of the pane's (an input, a
	// filter, a search, a result being walked); unused, the app goes back
	// a screen.
	Update(tea.KeyPressMsg) (tea.Cmd, bool)
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// App is the root model: it owns the panes, routes keys, mouse and async
// results, and draws the frame.
type App struct {
	c   *Common
	opt Options

	screen screen
	// history is the screens left, latest last: Esc goes back through them.
	history    []screen
	sessions   *sessionsPane
	transcript *transcriptPane
	vault      *vaultPane
	search     *searchPane
	jobs       *jobsPane
	// editor is the built-in editor while it is open: it has the keyboard
	// and the screen. editorJob is the last open asked for.
	editor    *editorPane
	editorJob int
	// picker chooses the MEMORY.md section of a promote.
	picker *promotePicker

	width, height int
	showHelp      bool
	palette       *palette // the command palette, while open
	helpOffset    int      // the first line of the help's body shown
	confirm       *confirmDialog
	// configProblems are what is wrong in the config file's [keys]: shown
	// in the footer from the start until a key is pressed.
	configProblems []string

	jobCounter int // ids for every background job
	scanJob    int
	scanning   bool
	scanErr    error
	snap       *store.Snapshot
	watcher    *store.Watcher

	// quitting: the user quit while jobs ran; they were cancelled and the
	// program ends when the last one has returned.
	quitting bool

	status    string
	statusJob int
	// statusUntilKey keeps the status until the next key press rather
	// than for a few seconds.
	statusUntilKey bool
}

// New returns the app; run it with tea.NewProgram(app).
func New(opt Options) *App {
	if opt.FS == nil {
		opt.FS = store.OS
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Config.UI.Theme == "" {
		opt.Config = store.DefaultConfig()
	}
	if opt.Getenv == nil {
		opt.Getenv = store.OSEnv().Getenv
	}
	if opt.Scan == nil {
		opt.Scan = store.Scan
	}
	themeName := string(opt.Config.UI.Theme)
	if opt.Theme != "" && opt.Theme != "auto" {
		themeName = opt.Theme
	}
	env := store.OSEnv()
	env.Getenv = opt.Getenv
	if opt.BackupDir == "" {
		opt.BackupDir = vaultfs.DefaultBackupDir(env)
	}
	c := &Common{Keys: DefaultKeyMap(), Help: help.New(), ThemeName: themeName, Now: opt.Now, Config: opt.Config, Tick: tea.Tick,
		Editor: chooseEditor(opt.Config.UI.Editor, opt.Getenv), EditorLine: opt.Config.UI.EditorLine,
		Space:        vaultfs.New(opt.Workspace, vaultfs.Options{BackupDir: opt.BackupDir, Now: opt.Now}),
		DefaultAgent: opt.Workspace.ObserverAgent, Caps: opt.Caps,
		index: &indexHolder{options: func() (search.Options, error) {
			o, err := search.OptionsFor(opt.Workspace, opt.Config.Search, env)
			o.MaxLineBytes = opt.Config.Transcripts.MaxLineBytes()
			return o, err
		}, shared: opt.Index},
	}
	a := &App{c: c, opt: opt}
	a.configProblems = c.Keys.Apply(opt.Config)
	c.SetTheme(true) // until the terminal says what its background is
	a.sessions = newSessionsPane(c)
	cache := transcript.NewCache()
	a.transcript = newTranscriptPane(c, func(row model.SessionRow) transcript.Reader { return store.TranscriptReader(cache, row) }, &a.jobCounter)
	a.vault = newVaultPane(c, &a.jobCounter)
	a.search = newSearchPane(c, &a.jobCounter, recallOptionsOf(opt))
	a.jobs = newJobsPane(c, opt.Jobs)
	a.configProblems = append(a.configProblems, c.Keys.Conflicts(a.keyScopes())...)
	if len(a.configProblems) > 0 {
		a.status, a.statusUntilKey = inert("config: "+strings.Join(a.configProblems, "; ")), true
	} else if opt.Workspace != nil && len(opt.Workspace.Warnings) > 0 {
		// The warnings every command says (a broken openclaw.json).
		a.status, a.statusUntilKey = inert("Warning: "+strings.Join(opt.Workspace.Warnings, "; ")), true
	}
	return a
}

// Close releases what the app holds open (the search index). Call it after
// the program ends.
//
// It stops the file watcher too: its listening command would otherwise
// wait on it for ever and keep the program, and so the whole app, alive;
// a process ends anyway, but serve runs one app per session.
func (a *App) Close() error {
	if a.watcher != nil {
		a.watcher.Close()
	}
	err := a.c.index.close()
	if rerr := a.search.recall.close(); err == nil {
		err = rerr
	}
	return err
}

// keyScopes are the sets of bindings that answer together: each screen's
// with the global ones, and the confirmation's.
func (a *App) keyScopes() []keyScope {
	k := a.c.Keys
	var scopes []keyScope
	for s := screen(0); s < screens; s++ {
		b := k.globalKeys()
		for _, g := range a.paneOf(s).FullHelp() {
			b = append(b, g...)
		}
		scopes = append(scopes, keyScope{"the " + screenNames[s] + " screen", b})
	}
	recalling := k.globalKeys()
	for _, g := range a.search.recall.FullHelp() {
		recalling = append(recalling, g...)
	}
	scopes = append(scopes, keyScope{"the Search screen as the agent recalls", recalling})
	return append(scopes, keyScope{"a confirmation", []key.Binding{k.Confirm, k.Deny}})
}

func (a *App) nextJob() int {
	a.jobCounter++
	return a.jobCounter
}

func (a *App) pane() pane { return a.paneOf(a.screen) }

func (a *App) paneOf(s screen) pane {
	switch s {
	case screenTranscript:
		return a.transcript
	case screenVault:
		return a.vault
	case screenSearch:
		return a.search
	case screenJobs:
		return a.jobs
	}
	return a.sessions
}

// helper is what the footer and the help overlay show the keys of.
type helper interface {
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// keysOf is the editor while it is open, else the screen's pane.
func (a *App) keysOf() helper {
	if a.editor != nil {
		return a.editor
	}
	return a.pane()
}

type (
	scanDoneMsg struct {
		job  int
		snap *store.Snapshot
		err  error
	}
	watcherMsg struct {
		w   *store.Watcher
		err error
	}
	filesChangedMsg struct{ paths []string }
	clearStatusMsg  struct{ job int }
)

// Init asks for the terminal's background, starts the first scan and the
// file watcher; the first frame draws before the scan returns.
func (a *App) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, a.startScan()}
	if a.opt.Watch {
		cmds = append(cmds, a.startWatcher())
	}
	return tea.Batch(cmds...)
}

func (a *App) startScan() tea.Cmd {
	a.scanJob = a.nextJob()
	a.scanning = true
	job, ws, fsys, now, scan := a.scanJob, a.opt.Workspace, a.opt.FS, a.opt.Now(), a.opt.Scan
	return func() tea.Msg {
		snap, err := scan(context.Background(), fsys, ws, store.ScanOptions{Now: now})
		return scanDoneMsg{job: job, snap: snap, err: err}
	}
}

// startWatcher watches the sessions folders and the vault's cursor folder,
// so gauges move as agents write and sweeps advance cursors.
func (a *App) startWatcher() tea.Cmd {
	var dirs []string
	for _, ag := range a.opt.Workspace.Agents {
		dirs = append(dirs, ag.SessionsDir)
	}
	if a.opt.Workspace.Vault != "" {
		dirs = append(dirs, filepath.Dir(store.CursorFile(a.opt.Workspace.Vault)))
	}
	return func() tea.Msg {
		w, err := store.Watch(dirs, 300*time.Millisecond, 2*time.Second)
		return watcherMsg{w: w, err: err}
	}
}

func listenWatcher(w *store.Watcher) tea.Cmd {
	return func() tea.Msg {
		paths, ok := <-w.Events()
		if !ok {
			return nil
		}
		return filesChangedMsg{paths: paths}
	}
}

// rowOf finds a session's row in a newer scan: by file and key, else by
// file.
func rowOf(rows []model.SessionRow, old model.SessionRow) (model.SessionRow, bool) {
	if old.File == "" {
		return model.SessionRow{}, false
	}
	found := -1
	for i, r := range rows {
		if rowIdentity(r) == rowIdentity(old) {
			return r, true // the generations of a SQLite-era key share file and key
		}
		if r.File == old.File {
			if r.Key == old.Key {
				return r, true
			}
			if found < 0 {
				found = i
			}
		}
	}
	if found < 0 {
		return model.SessionRow{}, false
	}
	return rows[found], true
}

func (a *App) setStatus(text string) tea.Cmd {
	a.status, a.statusUntilKey = inert(text), false // it may quote paths and file text
	job := a.nextJob()
	a.statusJob = job
	return a.c.Tick(4*time.Second, func(time.Time) tea.Msg { return clearStatusMsg{job} })
}

// saved tells the app a memory file changed: the index re-reads it (the
// search results follow) and the Vault screen shows it again.
func (a *App) saved(path string) tea.Cmd {
	return tea.Batch(a.c.index.reindex(path), a.vault.Reload(path))
}

// startIndexSync brings the search index in step with the files, as a job
// on the Jobs screen; the Search screen searches meanwhile.
func (a *App) startIndexSync() tea.Cmd {
	if j := a.jobs.find(a.search.syncJob); a.search.syncJob != 0 && j != nil {
		return a.setStatus(fmt.Sprintf("the search index is being brought up to date already (job #%d)", j.num))
	}
	a.search.syncJob = a.nextJob()
	return a.jobs.start(a.search.syncJob, "search index", false, syncWork(a.c.index))
}

// openTranscriptAt shows a transcript at a line or a text: the session is
// found by its file, or by its id.
func (a *App) openTranscriptAt(msg openTranscriptAtMsg) tea.Cmd {
	if a.snap == nil {
		return a.setStatus("the workspace scan has not finished yet")
	}
	for _, r := range a.snap.Rows {
		// The generations of a SQLite-era store share its file: they are
		// told apart by session id.
		if msg.file != "" && r.File == msg.file && r.Origin != model.OriginSQLite || msg.sessionID != "" && r.SessionID == msg.sessionID && store.Readable(r) {
			a.show(screenTranscript)
			return a.transcript.OpenAt(r, msg.line, msg.text)
		}
	}
	return a.setStatus("no session of the workspace has that transcript")
}

// showSource opens the session an observation came from, at its message.
func (a *App) showSource(msg sourceFoundMsg) tea.Cmd {
	switch {
	case msg.err != nil:
		return a.setStatus("cannot read the raw ledger: " + msg.err.Error())
	case !msg.found:
		return a.setStatus("the raw ledger (ledger/raw) has no message with this text: an LLM compressor rewrote it, or the ledger was not kept")
	}
	src := msg.src
	for _, r := range a.snap.Rows {
		// transcriptId is the session id, of a file or of a SQLite-era
		// generation alike.
		if r.SessionID == src.TranscriptID && store.Readable(r) {
			cmd := a.openTranscriptAt(openTranscriptAtMsg{sessionID: r.SessionID, text: src.Quote})
			return tea.Batch(cmd, a.setStatus(fmt.Sprintf("from %s (raw ledger %s:%d)", src.SessionKey, src.RawFile, src.RawLine)))
		}
	}
	return a.setStatus(fmt.Sprintf("it came from %s (transcript %s, per %s:%d), which is no longer in the sessions folders", src.SessionKey, src.TranscriptID, src.RawFile, src.RawLine))
}

// typing reports a pane that has a text input focused: then keys go to it.
func (a *App) typing() bool {
	return (a.screen == screenSessions && a.sessions.filtering) || (a.screen == screenTranscript && a.transcript.searching) ||
		(a.screen == screenSearch && a.search.typing)
}

// handleKey routes a key: to what is open over the screens (a dialog, the
// help, the picker, the editor, the palette, a focused input), else to the
// keys every screen shares, else to the screen's pane.
func (a *App) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if a.statusUntilKey {
		a.status, a.statusUntilKey = "", false
	}
	if cmd, used := a.overlayKey(msg); used {
		return cmd
	}
	if a.typing() {
		return a.typingKey(msg)
	}
	if cmd, used := a.globalKey(msg); used {
		return cmd
	}
	cmd, used := a.pane().Update(msg)
	if used {
		a.layout()
	} else if key.Matches(msg, a.c.Keys.Back) {
		return a.back()
	}
	return cmd
}

// overlayKey gives a key to what has the keyboard over the screens, if
// anything does: each holds it until it closes.
func (a *App) overlayKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case a.confirm != nil:
		return a.confirmKey(msg), true
	case a.showHelp:
		k := a.c.Keys
		if key.Matches(msg, k.Help) || key.Matches(msg, k.Back) || key.Matches(msg, k.Quit) {
			a.showHelp = false
		} else {
			a.scrollHelp(msg)
		}
		return nil, true
	case a.picker != nil:
		cmd, done := a.picker.Update(msg)
		if done {
			a.picker = nil
		}
		return cmd, true
	case a.editor != nil:
		return a.editorKey(msg), true
	case msg.String() == "ctrl+c":
		return a.quit(), true
	case a.palette != nil:
		return a.paletteKey(msg), true
	}
	return nil, false
}

// confirmKey answers the confirmation dialog; other keys wait.
func (a *App) confirmKey(msg tea.KeyPressMsg) tea.Cmd {
	d, k := a.confirm, a.c.Keys
	switch {
	case key.Matches(msg, k.Confirm):
		a.confirm = nil
		return d.onYes(a)
	case key.Matches(msg, k.Deny), key.Matches(msg, k.Quit):
		a.confirm = nil
	}
	return nil
}

// typingKey gives a key to the focused input of the pane.
func (a *App) typingKey(msg tea.KeyPressMsg) tea.Cmd {
	k := a.c.Keys
	// The query of the Search screen has no use for tab: it still moves
	// between screens there.
	if a.screen == screenSearch && (key.Matches(msg, k.NextScreen) || key.Matches(msg, k.PrevScreen)) {
		next := (a.screen + 1) % screens
		if key.Matches(msg, k.PrevScreen) {
			next = (a.screen + screens - 1) % screens
		}
		return a.switchTo(next)
	}
	cmd, _ := a.pane().Update(msg)
	a.layout()
	return cmd
}

// globalKey handles the keys every screen answers (quit, help, the
// palette, moving between screens) and the app's keys of the Sessions
// and Jobs screens.
func (a *App) globalKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := a.c.Keys
	switch {
	case key.Matches(msg, k.Quit):
		return a.quit(), true
	case key.Matches(msg, k.Help):
		a.showHelp, a.helpOffset = true, 0
		return nil, true
	case key.Matches(msg, k.Palette):
		return a.openPalette(), true
	case key.Matches(msg, k.Sessions):
		return a.switchTo(screenSessions), true
	case key.Matches(msg, k.Transcript):
		return a.switchTo(screenTranscript), true
	case key.Matches(msg, k.Vault):
		return a.switchTo(screenVault), true
	case key.Matches(msg, k.SearchScreen):
		return a.switchTo(screenSearch), true
	case key.Matches(msg, k.Jobs):
		return a.switchTo(screenJobs), true
	case key.Matches(msg, k.NextScreen):
		return a.switchTo((a.screen + 1) % screens), true
	case key.Matches(msg, k.PrevScreen):
		return a.switchTo((a.screen + screens - 1) % screens), true
	case a.screen == screenSessions && key.Matches(msg, k.Rescan):
		return a.startScan(), true
	case a.screen == screenJobs:
		return a.jobKey(msg)
	}
	return nil, false
}

// quit ends the program, but never under a running job: each is cancelled
// and the program ends once the last has returned, so a sweep keeps what
// it finished and leaves no file half-written. A sweep asks first.
func (a *App) quit() tea.Cmd {
	active := a.jobs.active()
	switch {
	case len(active) == 0:
		return tea.Quit
	case a.quitting:
		return nil // already waiting; the footer says for what
	}
	writing := a.writingJobs()
	if len(writing) == 0 {
		return a.stopAndQuit()
	}
	a.confirm = &confirmDialog{
		title: fmt.Sprintf("%s is writing to the vault. Stop it and quit?", strings.Join(writing, ", ")),
		text: "It stops where it is: the sessions it finished are recorded, the one it is reading is rolled back, " +
			"and the rest wait for the next sweep.",
		yes: "stop it and quit", no: "keep it running", whileWriting: true,
		onYes: func(a *App) tea.Cmd { return a.stopAndQuit() },
	}
	return nil
}

// writingJobs names the running jobs that write to the vault (sweeps).
func (a *App) writingJobs() []string {
	var writing []string
	for _, j := range a.jobs.active() {
		if j.writes && j.state == jobRunning {
			writing = append(writing, fmt.Sprintf("#%d %s", j.num, j.title))
		}
	}
	return writing
}

// stopAndQuit cancels every running job and quits when they have returned.
func (a *App) stopAndQuit() tea.Cmd {
	active := a.jobs.active()
	if len(active) == 0 {
		return tea.Quit
	}
	a.quitting = true
	for _, j := range active {
		j.stop()
	}
	return nil
}

// ActiveJobs names the jobs whose work has not returned: after the program
// ended, what StopJobs will wait for.
func (a *App) ActiveJobs() []string {
	var out []string
	for _, j := range a.jobs.active() {
		out = append(out, fmt.Sprintf("#%d %s", j.num, j.title))
	}
	return out
}

// StopJobs cancels the jobs still running, lets no other start, and waits
// until they have returned or ctx ends; it reports whether they all
// returned. Call it after the program ends, whatever ended it (a signal, a
// terminal that went away): a sweep that returned has committed what it
// finished and rolled back the rest.
func (a *App) StopJobs(ctx context.Context) bool { return a.jobs.group.stop(ctx) }

// show makes a screen the current one, remembering the one it leaves.
func (a *App) show(s screen) {
	if s != a.screen {
		a.history = append(a.history, a.screen)
		if len(a.history) > 64 {
			a.history = a.history[1:]
		}
	}
	a.screen = s
	a.layout()
}

// switchTo shows a screen and asks for what it needs on screen.
func (a *App) switchTo(s screen) tea.Cmd {
	a.show(s)
	return a.activate()
}

func (a *App) activate() tea.Cmd {
	switch a.screen {
	case screenTranscript:
		return a.transcript.afterMove()
	case screenVault:
		return a.vault.activate()
	case screenSearch:
		return a.search.activate()
	}
	return nil
}

// back returns to the screen shown before this one, if any.
func (a *App) back() tea.Cmd {
	if len(a.history) == 0 {
		return nil
	}
	a.screen = a.history[len(a.history)-1]
	a.history = a.history[:len(a.history)-1]
	a.layout()
	return a.activate()
}

// editorKey gives a key to the built-in editor; leaving it (or quitting)
// with unsaved changes asks first.
func (a *App) editorKey(msg tea.KeyPressMsg) tea.Cmd {
	e := a.editor
	if msg.String() == "ctrl+c" {
		if !e.buf.dirty() {
			return a.quit()
		}
		a.confirm = &confirmDialog{title: "Quit without saving " + e.name() + "?", lines: []string{"Your changes are lost; the file on disk stays as it is."},
			yes: "quit and lose the changes", no: "keep editing",
			onYes: func(a *App) tea.Cmd { return a.quit() }}
		return nil
	}
	cmd, closing := e.Update(msg)
	if !closing {
		return cmd
	}
	if !e.buf.dirty() {
		a.editor = nil
		return cmd
	}
	a.confirm = &confirmDialog{title: "Close " + e.name() + " without saving?", lines: []string{"Your changes are lost; the file on disk stays as it is (ctrl+s saves)."},
		yes: "close and lose the changes", no: "keep editing",
		onYes: func(a *App) tea.Cmd { a.editor = nil; return nil }}
	return cmd
}

// jobKey starts jobs from the Jobs screen; they need the snapshot.
func (a *App) jobKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := a.c.Keys
	notYet := func(what string) (tea.Cmd, bool) {
		return a.setStatus(what + " is not built into this version yet"), true
	}
	if a.snap == nil && (key.Matches(msg, k.DryRun) || key.Matches(msg, k.Sweep) || key.Matches(msg, k.Retention) || key.Matches(msg, k.Space)) {
		return a.setStatus("the workspace scan has not finished yet"), true
	}
	switch {
	case key.Matches(msg, k.DryRun):
		return a.jobs.dryRun(a.nextJob(), a.snap), true
	case key.Matches(msg, k.Sweep):
		if a.opt.Jobs.Sweep == nil {
			return notYet("observation sweeping")
		}
		if why := a.c.Caps.Sweep; why != "" {
			return a.setStatus("sweep: " + why), true
		}
		cands := candidates(a.snap)
		if len(cands) == 0 {
			return a.setStatus("no session has crossed its threshold: nothing to sweep"), true
		}
		var lines []string
		var total int64
		for _, c := range cands {
			line := fmt.Sprintf("%s [%s] Δ%s", c.SessionKey, c.Source, model.Bytes(c.NewBytes))
			if c.Seq != nil {
				line += " (SQLite-era store)"
			}
			lines = append(lines, line)
			total += c.NewBytes
		}
		snap, run := a.snap, a.opt.Jobs.Sweep
		a.confirm = &confirmDialog{
			title: fmt.Sprintf("Observe %s, %s new? This writes to the vault.", model.Plural(len(cands), "session", "sessions"), model.Bytes(total)),
			lines: lines, yes: "start the sweep", no: "cancel",
			onYes: func(a *App) tea.Cmd {
				return a.jobs.start(a.nextJob(), "sweep", true, func(ctx context.Context, pr observer.ProgressFunc) (JobResult, error) {
					return run(ctx, snap, cands, pr)
				})
			},
		}
		return nil, true
	case key.Matches(msg, k.Retention):
		if a.opt.Jobs.Retention == nil {
			return notYet("retention planning")
		}
		snap, run := a.snap, a.opt.Jobs.Retention
		return a.jobs.start(a.nextJob(), "retention dry-run", false, func(ctx context.Context, pr observer.ProgressFunc) (JobResult, error) {
			return run(ctx, snap, pr)
		}), true
	case key.Matches(msg, k.Space):
		return a.startSpace()
	case key.Matches(msg, k.IndexBuild):
		// Through the index the Search screen uses: opening a second one
		// in this process would wait on the first one's lock.
		return a.startIndexSync(), true
	}
	return nil, false
}

// paneTop is the first terminal line of the panes (after the tab bar).
const paneTop = 1

func (a *App) wheel(msg tea.MouseWheelMsg) tea.Cmd {
	n := 3
	if msg.Mouse().Button == tea.MouseWheelUp {
		n = -3
	}
	if a.showHelp {
		_, body, avail := a.helpContent()
		a.helpOffset = max(0, min(a.helpOffset+n, len(body)-avail))
		return nil
	}
	if a.editor != nil {
		a.editor.buf.vertical(n)
		a.editor.scrollTo(false)
		return nil
	}
	switch a.screen {
	case screenSessions:
		a.sessions.Scroll(n)
	case screenTranscript:
		return a.transcript.Scroll(n)
	case screenVault:
		return a.vault.Scroll(n)
	case screenSearch:
		a.search.cursor += n
		a.search.clamp()
	}
	return nil
}

func (a *App) click(msg tea.MouseClickMsg) tea.Cmd {
	m := msg.Mouse()
	if m.Button != tea.MouseLeft || a.confirm != nil || a.showHelp || a.editor != nil || a.picker != nil || a.palette != nil {
		return nil
	}
	if m.Y == 0 {
		// The tab bar: find the tab under the pointer.
		x := 0
		for s := screen(0); s < screens; s++ {
			w := ansi.StringWidth(a.tabLabel(s)) + 2
			if m.X >= x && m.X < x+w {
				return a.switchTo(s)
			}
			x += w
		}
		return nil
	}
	switch a.screen {
	case screenSessions:
		a.sessions.Click(m.X, m.Y-paneTop)
	case screenTranscript:
		return a.transcript.Click(m.X, m.Y-paneTop)
	}
	return nil
}

// layout gives each pane its share of the screen.
func (a *App) layout() {
	a.c.Help.SetWidth(a.width)
	h := max(1, a.height-paneTop-1)
	a.sessions.SetSize(a.width, h)
	a.transcript.SetSize(a.width, h)
	a.vault.SetSize(a.width, h)
	a.search.SetSize(a.width, h)
	a.jobs.SetSize(a.width, h)
	if a.editor != nil {
		a.editor.SetSize(a.width, h)
	}
}

// compactTabsBelow is the width under which only the current screen's tab
// says its name (the others their number), leaving room for the summary.
const compactTabsBelow = 110

func (a *App) tabLabel(s screen) string {
	if a.width < compactTabsBelow && s != a.screen {
		return fmt.Sprint(s + 1)
	}
	return fmt.Sprintf("%d %s", s+1, screenNames[s])
}

// View draws the frame.
func (a *App) View() tea.View {
	t := a.c.Theme
	var b strings.Builder
	b.WriteString(a.tabBar())
	b.WriteByte('\n')
	body := a.pane().View()
	if a.editor != nil {
		body = a.editor.View()
	}
	b.WriteString(block(body, a.width, max(1, a.height-paneTop-1)))
	b.WriteByte('\n')
	b.WriteString(a.footer())
	frame := b.String()
	switch {
	case a.confirm != nil:
		frame = overlay(frame, a.confirmBox(a.confirm), a.width, a.height)
	case a.showHelp:
		frame = overlay(frame, a.helpBox(), a.width, a.height)
	case a.picker != nil:
		frame = overlay(frame, a.box(a.picker.View(a.width, a.height)), a.width, a.height)
	case a.palette != nil:
		frame = overlayTop(frame, a.paletteBox(), a.width)
	}
	v := tea.NewView(t.App.Render(frame))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "clawvault-tui"
	return v
}

func (a *App) tabBar() string {
	t := a.c.Theme
	var tabs []string
	for s := screen(0); s < screens; s++ {
		label := a.tabLabel(s)
		if s == a.screen {
			tabs = append(tabs, t.TabActive.Render(label))
		} else {
			tabs = append(tabs, t.Tab.Render(label))
		}
	}
	bar := strings.Join(tabs, "") + "  "
	info := a.summary()
	// Whose session this is (serve) comes first: it must not be the part a
	// narrow terminal cuts off.
	if a.opt.Who != "" {
		info = inert(a.opt.Who) + " · " + info
	}
	if a.opt.Demo != "" {
		// Before the summary, which a narrow terminal cuts; the folder
		// last, where a wide one has room for it.
		bar += a.demoBadge() + " "
		info += " · demo folder " + inert(a.opt.Demo)
	}
	return cut(bar+t.Muted.Render(info), a.width)
}

// demoBadge says the workspace is a demo deleted on quit, in short on a
// narrow terminal.
func (a *App) demoBadge() string {
	if a.width < 80 {
		return a.c.Theme.BadgeCandidate.Render("DEMO")
	}
	return a.c.Theme.BadgeCandidate.Render("DEMO, deleted on quit")
}

func (a *App) summary() string {
	switch {
	case a.scanErr != nil:
		return "scan failed: " + inert(a.scanErr.Error())
	case a.snap == nil:
		return "scanning " + inert(a.opt.Workspace.StateDir) + " …"
	}
	var candidates, never, problems int
	for _, r := range a.snap.Rows {
		if r.Candidate {
			candidates++
		}
		if r.Cursor == nil && r.Discovered || r.Origin == model.OriginSQLite && r.Has(model.CodeNoCursor) {
			never++
		}
		if severity(r) >= 2 {
			problems++
		}
	}
	need := "need"
	if problems == 1 {
		need = "needs"
	}
	s := fmt.Sprintf("%s · %s · %s · %d never observed · %d %s attention", model.Plural(len(a.snap.Rows), "session", "sessions"),
		model.Plural(len(a.snap.Agents), "agent", "agents"), model.Plural(candidates, "candidate", "candidates"), never, problems, need)
	if a.scanning {
		s += " · rescanning…"
	}
	return s
}

func (a *App) footer() string {
	t := a.c.Theme
	if a.quitting {
		return t.BadgeCandidate.Render(cut("quitting: waiting for "+strings.Join(a.ActiveJobs(), ", ")+" to stop…", a.width))
	}
	if a.status != "" {
		return t.BadgeCandidate.Render(cut(inert(a.status), a.width))
	}
	// The editor has the keyboard: ? is typed there, so it is not offered.
	return a.footerKeys(a.keysOf().ShortHelp(), a.editor == nil)
}

// footerKeys draws as many of the bindings as fit in the width, in order,
// and then, withHelp, always the key of the help, where the rest are.
func (a *App) footerKeys(bindings []key.Binding, withHelp bool) string {
	st, k := a.c.Help.Styles, a.c.Keys
	sep := st.ShortSeparator.Render(" • ")
	item := func(b key.Binding) string {
		return st.ShortKey.Render(b.Help().Key) + " " + st.ShortDesc.Render(b.Help().Desc)
	}
	help := item(k.Help)
	room := a.width - ansi.StringWidth(sep+help)
	if !withHelp {
		room = a.width
	}
	var parts []string
	used := 0
	for _, b := range bindings {
		if !b.Enabled() || b.Help().Desc == k.Help.Help().Desc {
			continue
		}
		s := item(b)
		w := ansi.StringWidth(s)
		if len(parts) > 0 {
			w += ansi.StringWidth(sep)
		}
		if used+w > room {
			break
		}
		parts = append(parts, s)
		used += w
	}
	if withHelp {
		parts = append(parts, help)
	}
	return cut(strings.Join(parts, sep), a.width)
}
