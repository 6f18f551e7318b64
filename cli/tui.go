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

func (a *app) runTUI(useDemo, demoIfNone bool, theme string) error {
	if a.remote != nil {
		return a.runRemoteTUI(theme)
	}
	a.mu.Lock()
	a.interactive = true
	a.mu.Unlock()
	stdout, stderr, common := a.stdout, a.stderr, &a.common
	cfg, err := tuiConfig(theme)
	if err != nil {
		return err
	}
	if os.Getenv("NO_COLOR") != "" {
		theme = "none"
	}
	var banner, backups string
	ws, err := common.workspace()
	if err != nil && !useDemo {
		var none nothingFound
		if !errors.As(err, &none) {
			return err
		}
		if !demoIfNone {
			return fmt.Errorf("%w\nTo look around first: clawvault-tui --demo", err)
		}
		fmt.Fprintf(stderr, "clawvault-tui: %v\nOpening a demo workspace instead.\n", err)
		useDemo = true
	}
	if useDemo {
		dir, err := os.MkdirTemp("", "clawvault-tui-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		fmt.Fprintf(stderr, "Generating a demo workspace in %s …\n", dir)
		m, err := demo.Generate(dir, demo.ScaleOptions(1, 1, time.Now()))
		if err != nil {
			return fmt.Errorf("generate the demo workspace: %w", err)
		}
		ws, err = store.Locate(store.OSEnv(), store.LocateOptions{StateDir: m.StateDir, Vault: m.VaultDir})
		if err != nil {
			return err
		}
		banner = "demo workspace in " + filepath.Dir(m.StateDir)
		// The demo's search index and the editor's backups go with it when
		// the TUI ends, rather than piling up in the user's folders.
		cfg.Search.CacheDir = filepath.Join(dir, "cache")
		backups = filepath.Join(dir, "backups")
	}
	if s, ok := a.signalled(); ok {
		return signalExit(s)
	}
	app := ui.New(ui.Options{Workspace: ws, Config: cfg, Theme: theme, Banner: banner, Watch: true, Jobs: jobRunners(cfg), BackupDir: backups})
	// A signal (Run cancels a.ctx) ends the program as q does, without
	// the question: Bubble Tea's own handler is off, so that there is one.
	p := tea.NewProgram(app, tea.WithOutput(stdout), tea.WithoutSignalHandler())
	ended := make(chan struct{})
	watching := make(chan struct{})
	go func() {
		defer close(watching)
		select {
		case <-a.ctx.Done():
			p.Quit() // restores the terminal; the jobs are stopped below
		case <-ended:
		}
	}()
	_, err = p.Run()
	close(ended)
	<-watching
	// Whatever ended the program, no job outlives it unfinished.
	stopJobs(app, a.hurry, stderr)
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
