package ui

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/store"
	"clawvault-tui/store/demo"
	"clawvault-tui/store/demo/demotest"
)

var update = flag.Bool("update", false, "rewrite the golden views")

// fixedNow is the clock of the demo and of the app in these tests.
var fixedNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// demoWorkspace is the demo, generated once for the package's tests, at a
// path of fixed length: transcript headers carry absolute paths, so sizes
// (and the golden views) would otherwise depend on where the temp folder is.
func demoWorkspace(t testing.TB) (*store.Workspace, *demo.Manifest) {
	t.Helper()
	man := demotest.Shared(t, demotest.Spec{Options: demo.ScaleOptions(1, 1, fixedNow), PathLength: 72})
	ws, err := store.Locate(store.Env{Getenv: func(string) string { return "" }, Home: "/nonexistent", Cwd: "/"},
		store.LocateOptions{StateDir: man.StateDir, Vault: man.VaultDir})
	if err != nil {
		t.Fatal(err)
	}
	return ws, man
}

func TestMain(m *testing.M) { os.Exit(demotest.Main(m)) }

// newApp builds the app on the demo workspace, sized, with the scan done.
// Timers are switched off so that drive can run every command to the end.
func newApp(t testing.TB, width, height int, opt Options) *App {
	t.Helper()
	ws, _ := demoWorkspace(t)
	return newAppOn(t, ws, width, height, opt)
}

// newAppOn is newApp on another workspace.
func newAppOn(t testing.TB, ws *store.Workspace, width, height int, opt Options) *App {
	t.Helper()
	opt.Workspace = ws
	opt.Now = func() time.Time { return fixedNow }
	if opt.Config.UI.Theme == "" {
		opt.Config = store.DefaultConfig()
	}
	// The search index and the backups go to the test's temp folder, never
	// into the user's cache and data folders.
	if opt.Config.Search.CacheDir == "" {
		opt.Config.Search.CacheDir = filepath.Join(t.TempDir(), "cache")
	}
	if opt.BackupDir == "" {
		opt.BackupDir = filepath.Join(t.TempDir(), "backups")
	}
	if opt.Theme == "" {
		opt.Theme = "dark"
	}
	a := New(opt)
	t.Cleanup(func() { a.Close() })
	a.c.Tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	a.Update(tea.WindowSizeMsg{Width: width, Height: height})
	drive(t, a, a.startScan())
	if a.snap == nil {
		t.Fatalf("the scan did not finish: %v", a.scanErr)
	}
	return a
}

// drive runs a command and every command its messages lead to, feeding
// each message to Update, until nothing is left. Background tasks finish
// before their final message arrives, so the result is deterministic.
func drive(t testing.TB, a *App, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 100000 {
			t.Fatal("commands keep coming")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			return
		default:
			_, next := a.Update(msg)
			queue = append(queue, next)
		}
	}
}

// press sends key presses through Update and runs what they start.
func press(t testing.TB, a *App, keys ...string) {
	t.Helper()
	for _, k := range keys {
		drive(t, a, func() tea.Msg { return keyMsg(k) })
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "delete":
		return tea.KeyPressMsg{Code: tea.KeyDelete}
	}
	if c, ok := strings.CutPrefix(k, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: []rune(c)[0], Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// typeText sends each character of s as a key press.
func typeText(t testing.TB, a *App, s string) {
	t.Helper()
	for _, r := range s {
		press(t, a, string(r))
	}
}
