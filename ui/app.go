package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"clawvault-tui/store"
)

// Options configure the app.
type Options struct {
	Workspace *store.Workspace
	FS        store.FS
	// Theme is auto, dark, light, ansi or none; NO_COLOR forces none.
	Theme string
	// Banner is shown in the header, e.g. where a demo workspace was made.
	Banner string
	Now    func() time.Time
}

// App is the root model: it owns the panes, routes keys and async results,
// and draws the frame.
type App struct {
	common   *Common
	opt      Options
	sessions *sessionsPane

	width, height int
	showHelp      bool

	// The latest scan job; results of older jobs are dropped.
	scanJob  int
	scanning bool
	scanErr  error
	snap     *store.Snapshot
}

// New returns the app; run it with tea.NewProgram(app).
func New(opt Options) *App {
	if opt.FS == nil {
		opt.FS = store.OS
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	c := &Common{Keys: DefaultKeyMap(), Help: help.New(), ThemeName: opt.Theme, Now: opt.Now}
	c.SetTheme(true) // until the terminal says what its background is
	return &App{common: c, opt: opt, sessions: newSessionsPane(c)}
}

// scanDoneMsg carries a finished workspace scan.
type scanDoneMsg struct {
	job  int
	snap *store.Snapshot
	err  error
}

// Init asks for the terminal's background and starts the first scan; the
// first frame draws before the scan returns.
func (a *App) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, a.startScan())
}

func (a *App) startScan() tea.Cmd {
	a.scanJob++
	a.scanning = true
	job, ws, fsys, now := a.scanJob, a.opt.Workspace, a.opt.FS, a.opt.Now()
	return func() tea.Msg {
		snap, err := store.Scan(context.Background(), fsys, ws, store.ScanOptions{Now: now})
		return scanDoneMsg{job: job, snap: snap, err: err}
	}
}

// Update handles one message.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		a.layout()
	case tea.BackgroundColorMsg:
		a.common.SetTheme(msg.IsDark())
	case scanDoneMsg:
		if msg.job != a.scanJob {
			return a, nil
		}
		a.scanning = false
		a.scanErr = msg.err
		if msg.err == nil {
			a.snap = msg.snap
			a.sessions.SetRows(msg.snap.Rows)
		}
	case tea.KeyPressMsg:
		return a, a.handleKey(msg)
	}
	return a, nil
}

func (a *App) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := a.common.Keys
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Help):
		a.showHelp = !a.showHelp
		a.layout()
		return nil
	case key.Matches(msg, k.Rescan):
		return a.startScan()
	}
	a.sessions.HandleKey(msg)
	return nil
}

// layout gives each pane its share of the screen.
func (a *App) layout() {
	a.common.Help.SetWidth(a.width)
	a.sessions.SetSize(a.width, max(1, a.height-2-a.footerHeight()))
}

func (a *App) footerHeight() int {
	if a.showHelp {
		return strings.Count(a.common.Help.FullHelpView(a.sessions.FullHelp()), "\n") + 1
	}
	return 1
}

// View draws the frame.
func (a *App) View() tea.View {
	var b strings.Builder
	b.WriteString(a.header())
	b.WriteByte('\n')
	b.WriteString(a.sessions.View())
	b.WriteByte('\n')
	if a.showHelp {
		b.WriteString(a.common.Help.FullHelpView(a.sessions.FullHelp()))
	} else {
		b.WriteString(a.common.Help.ShortHelpView(a.sessions.ShortHelp()))
	}
	v := tea.NewView(a.common.Theme.App.Render(b.String()))
	v.AltScreen = true
	v.WindowTitle = "clawvault-tui"
	return v
}

func (a *App) header() string {
	t := a.common.Theme
	title := t.Title.Render("clawvault-tui")
	var status string
	switch {
	case a.scanErr != nil:
		status = t.Error.Render("scan failed: " + a.scanErr.Error())
	case a.snap == nil:
		status = t.Muted.Render("scanning " + a.opt.Workspace.StateDir + " …")
	default:
		status = t.Muted.Render(a.summary())
	}
	line := title + "  " + status
	if a.opt.Banner != "" {
		line += "  " + t.Muted.Render(a.opt.Banner)
	}
	return ansi.Truncate(line, max(a.width, 1), "…") + "\n"
}

func (a *App) summary() string {
	var candidates, never, problems int
	for _, r := range a.snap.Rows {
		if r.Candidate {
			candidates++
		}
		if r.Cursor == nil && r.Discovered {
			never++
		}
		if severity(r) >= 2 {
			problems++
		}
	}
	s := fmt.Sprintf("%d sessions · %d agents · %d candidates · %d never observed · %d need attention",
		len(a.snap.Rows), len(a.snap.Agents), candidates, never, problems)
	if a.scanning {
		s += " · rescanning…"
	}
	return s
}
