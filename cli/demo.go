package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"clawvault-tui/model"
	"clawvault-tui/store/demo"
)

func (a *app) demoCommand() *cobra.Command {
	var scale, sessions int
	var seed int64
	var now string
	c := &cobra.Command{
		Use:   "demo DIR",
		Short: "Write a demo workspace: DIR/state (OpenClaw) and DIR/vault (ClawVault)",
		Long: `Writes a deterministic demo workspace into an empty or new folder: three
agents (main, work, and ops on the SQLite-era store), 48 sessions of every key
kind and one instance of each situation the diagnosis names, and a vault. The
same --seed and --now give the same bytes.`,
		Example: `clawvault-tui demo /tmp/demo
clawvault-tui demo /tmp/big --scale 100 --now 2026-11-21T12:00:00Z
clawvault-tui demo /tmp/fleet --scale 100 --sessions 50000`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("demo takes one DIR, which must be empty or not exist yet")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			return a.demo(args[0], scale, sessions, seed, now)
		},
	}
	c.Flags().IntVar(&scale, "scale", 1, "grow the workspace: 100 gives 10,000 sessions, a 300 MB heartbeat transcript and a 15 MB vault")
	c.Flags().IntVar(&sessions, "sessions", 0, "this many sessions; above the scale's own count, filler transcripts shrink so their bytes stay the scale's")
	c.Flags().Int64Var(&seed, "seed", 1, "random seed: the same seed and clock give the same files")
	c.Flags().StringVar(&now, "now", "", "the generator's clock, RFC 3339 (default: now); pins every timestamp and age")
	c.ValidArgsFunction = func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	return c
}

func (a *app) demo(arg string, scale, sessions int, seed int64, nowFlag string) error {
	if scale < 1 {
		return usageError("--scale must be 1 or more")
	}
	if sessions < 0 {
		return usageError("--sessions must be 0 (the scale's count) or more")
	}
	dir, err := filepath.Abs(arg)
	if err != nil {
		return err
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty; the demo writes only into an empty or new folder", dir)
	}
	start := time.Now()
	clock := start
	if nowFlag != "" {
		if clock, err = time.Parse(time.RFC3339, nowFlag); err != nil {
			return usageError("--now %q is not an RFC 3339 time such as 2026-11-21T12:00:00Z", nowFlag)
		}
	}
	// The folder was empty: if the process must end midway, it is emptied
	// again rather than left half-written.
	a.onInterrupt(func() { removeContents(dir) })
	opt := demo.ScaleOptions(scale, seed, clock)
	if sessions > 0 {
		opt = opt.WithSessions(sessions)
	}
	m, err := demo.Generate(a.ctx, dir, opt)
	if err != nil {
		if a.ctx.Err() != nil {
			removeContents(dir) // it was empty, and is again rather than half-written
		}
		return err
	}
	stdout := a.stdout
	if a.common.json {
		return writeJSON(stdout, m)
	}
	fmt.Fprintf(stdout, "Demo workspace written in %s (%s, %s).\n\n", dir, model.Plural(m.Sessions, "session", "sessions"), time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(stdout, "  state dir: %s\n  vault:     %s\n\nTry:\n", m.StateDir, m.VaultDir)
	flags := fmt.Sprintf("--state-dir %s -v %s", m.StateDir, m.VaultDir)
	fmt.Fprintf(stdout, "  clawvault-tui status %s\n", flags)
	fmt.Fprintf(stdout, "  clawvault-tui tree %s %s\n", flags, m.MainNeverObserved.SessionID)
	fmt.Fprintf(stdout, "  clawvault-tui observe --dry-run %s\n", flags)
	fmt.Fprintf(stdout, "  clawvault-tui %s\n", flags)
	return nil
}

// removeContents empties dir.
func removeContents(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}
