package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"clawvault-tui/store"
	"clawvault-tui/store/demo"
	"clawvault-tui/ui"
)

// tuiCommand is the root command: without a command, the terminal UI.
func (a *app) tuiCommand() *cobra.Command {
	var useDemo, demoIfNone bool
	var theme string
	c := &cobra.Command{
		Use:   "clawvault-tui",
		Short: "Inspect OpenClaw sessions and ClawVault memory",
		Long: `clawvault-tui inspects the memory of OpenClaw agents kept by ClawVault: every
session of every agent, its transcript tree, the observer's byte cursor, the
pending bytes against the threshold, and a plain-language diagnosis of why a
session was observed, will be, or never will be.

Without a command it opens the terminal UI on the workspace the flags, the
environment or the defaults point at.`,
		Example: `# The TUI on a generated demo workspace (in a temp folder, deleted on exit):
clawvault-tui --demo

# The TUI on a workspace of your own:
clawvault-tui --state-dir ~/.openclaw -v ~/vault

# Write a demo workspace to look at with the other commands:
clawvault-tui demo /tmp/demo
clawvault-tui status --state-dir /tmp/demo/state -v /tmp/demo/vault`,
		Args: unknownCommand,
		RunE: func(*cobra.Command, []string) error {
			return a.runTUI(useDemo, demoIfNone, theme)
		},
	}
	c.SuggestionsMinimumDistance = 2
	c.Flags().BoolVar(&useDemo, "demo", false, "open a generated demo workspace (in a temp folder)")
	c.Flags().BoolVar(&demoIfNone, "demo-if-none", false, "open a demo workspace when no workspace is found (make run)")
	c.Flags().StringVar(&theme, "theme", "", "the colours: auto, dark, light, ansi or none (default: the config file's, else auto)")
	_ = c.RegisterFlagCompletionFunc("theme", cobra.FixedCompletions(store.ThemeNames, cobra.ShellCompDirectiveNoFileComp))
	return c
}

// unknownCommand: the root command takes no arguments, so one is a
// command that does not exist.
func unknownCommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if s := c.SuggestionsFor(args[0]); len(s) > 0 {
		return usageError("unknown command %q (did you mean %s?); run `clawvault-tui help` for the commands", args[0], strings.Join(s, " or "))
	}
	return usageError("unknown command %q; run `clawvault-tui help` for the commands", args[0])
}

// tuiConfig checks --theme and reads the config file, for the TUI here or
// over SSH.
func tuiConfig(theme string) (store.Config, error) {
	if theme != "" {
		if err := store.CheckTheme(theme); err != nil {
			return store.Config{}, usageError("--theme %v", err)
		}
	}
	cfg, err := store.LoadConfig(store.ConfigPath(store.OSEnv()))
	if err != nil {
		return cfg, fmt.Errorf("%w\n(`clawvault-tui config` prints a valid file with the defaults)", err)
	}
	return cfg, nil
}

// runTUI opens the TUI on the workspace (or a demo one) and, when it
// ends, stops its jobs and closes the search index.
func (a *app) runTUI(useDemo, demoIfNone bool, theme string) error {
	if a.remote != nil {
		return a.runRemoteTUI(theme)
	}
	a.mu.Lock()
	a.interactive = true
	a.mu.Unlock()
	cfg, err := tuiConfig(theme)
	if err != nil {
		return err
	}
	if os.Getenv("NO_COLOR") != "" {
		theme = "none"
	}
	opt := ui.Options{Config: cfg, Theme: theme, Watch: true, Jobs: jobRunners(cfg)}
	cleanup, err := a.tuiWorkspace(&opt, useDemo, demoIfNone)
	defer cleanup()
	if err != nil {
		return err
	}
	if s, ok := a.signalled(); ok {
		return signalExit(s)
	}
	app := ui.New(opt)
	err = a.runProgram(app)
	// Whatever ended the program, no job outlives it unfinished.
	stopJobs(app, a.hurry, a.stderr)
	if cerr := app.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("closing the search index: %w", cerr)
	}
	if s, ok := a.signalled(); ok {
		return signalExit(s)
	}
	switch {
	case errors.Is(err, tea.ErrInterrupted):
		return nil
	case err != nil && strings.Contains(err.Error(), "TTY"):
		return fmt.Errorf("the TUI needs a terminal and there is none here (%v); `clawvault-tui status` prints the same facts as text", err)
	}
	return err
}

// tuiWorkspace sets the workspace the TUI opens: the one the flags find,
// or a demo workspace generated in a temp folder, which cleanup removes.
func (a *app) tuiWorkspace(opt *ui.Options, useDemo, demoIfNone bool) (cleanup func(), err error) {
	cleanup = func() {}
	common := a.common
	common.warnings = nil // the TUI shows them on its status line
	ws, err := common.workspace()
	if err != nil && !useDemo {
		var none nothingFound
		if !errors.As(err, &none) {
			return cleanup, err
		}
		if !demoIfNone {
			return cleanup, fmt.Errorf("%w\nTo look around first: clawvault-tui --demo", err)
		}
		fmt.Fprintf(a.stderr, "clawvault-tui: %v\nOpening a demo workspace instead.\n", err)
		useDemo = true
	}
	if !useDemo {
		opt.Workspace = ws
		return cleanup, nil
	}
	dir, err := os.MkdirTemp("", "clawvault-tui-demo-")
	if err != nil {
		return cleanup, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	fmt.Fprintf(a.stderr, "Generating a demo workspace in %s …\n", dir)
	m, err := demo.Generate(a.ctx, dir, demo.ScaleOptions(1, 1, time.Now()))
	if err != nil {
		if s, ok := a.signalled(); ok {
			return cleanup, signalExit(s)
		}
		return cleanup, fmt.Errorf("generate the demo workspace: %w", err)
	}
	if opt.Workspace, err = store.Locate(store.OSEnv(), store.LocateOptions{StateDir: m.StateDir, Vault: m.VaultDir}); err != nil {
		return cleanup, err
	}
	opt.Demo = filepath.Dir(m.StateDir)
	// The demo's search index and the editor's backups go with it when
	// the TUI ends, rather than piling up in the user's folders.
	opt.Config.Search.CacheDir = filepath.Join(dir, "cache")
	opt.BackupDir = filepath.Join(dir, "backups")
	return cleanup, nil
}

// runProgram runs the TUI until it quits or a signal ends it.
func (a *app) runProgram(app *ui.App) error {
	// A signal (Run cancels a.ctx) ends the program as q does, without
	// the question: Bubble Tea's own handler is off, so that there is one.
	p := tea.NewProgram(app, tea.WithOutput(a.stdout), tea.WithoutSignalHandler())
	ended := make(chan struct{})
	watching := make(chan struct{})
	go func() {
		defer close(watching)
		select {
		case <-a.ctx.Done():
			p.Quit() // restores the terminal; the jobs are stopped by the caller
		case <-ended:
		}
	}()
	_, err := p.Run()
	close(ended)
	<-watching
	return err
}
