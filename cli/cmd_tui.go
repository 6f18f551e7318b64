package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/store"
	"clawvault-tui/store/demo"
	"clawvault-tui/ui"
)

func cmdTUI(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("clawvault-tui", flag.ContinueOnError)
	var common commonFlags
	common.register(fs)
	useDemo := fs.Bool("demo", false, "open a generated demo workspace (in a temp folder)")
	demoIfNone := fs.Bool("demo-if-none", false, "open a demo workspace when no workspace is found (make run)")
	theme := fs.String("theme", "", "auto, dark, light, ansi or none (default: the config file's, else auto)")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := store.LoadConfig(store.ConfigPath(store.OSEnv()))
	if err != nil {
		return fmt.Errorf("%w\n(`clawvault-tui config` prints a valid file with the defaults)", err)
	}
	if os.Getenv("NO_COLOR") != "" {
		*theme = "none"
	}
	var banner string
	ws, err := common.workspace()
	if err != nil && !*useDemo {
		if !*demoIfNone {
			return fmt.Errorf("%w\nTo look around first: clawvault-tui --demo", err)
		}
		fmt.Fprintf(stderr, "clawvault-tui: %v\nOpening a demo workspace instead.\n", err)
		*useDemo = true
	}
	if *useDemo {
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
		// The demo's search index goes with it when the TUI ends, rather
		// than piling up in the user's cache folder.
		cfg.Search.CacheDir = filepath.Join(dir, "cache")
	}
	app := ui.New(ui.Options{Workspace: ws, Config: cfg, Theme: *theme, Banner: banner, Watch: true, Jobs: jobRunners(cfg)})
	_, err = tea.NewProgram(app, tea.WithOutput(stdout)).Run()
	switch {
	case errors.Is(err, tea.ErrInterrupted):
		return nil
	case err != nil && strings.Contains(err.Error(), "TTY"):
		return fmt.Errorf("the TUI needs a terminal and there is none here (%v); `clawvault-tui status` prints the same facts as text", err)
	}
	return err
}
