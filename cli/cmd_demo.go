package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"clawvault-tui/store/demo"
)

func cmdDemo(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	var common commonFlags
	common.register(fs)
	scale := fs.Int("scale", 1, "grow the workspace: 100 gives 10,000 sessions, a 300 MB heartbeat transcript and a 15 MB vault")
	seed := fs.Int64("seed", 1, "random seed: the same seed and clock give the same files")
	nowFlag := fs.String("now", "", "the generator's clock, RFC 3339 (default: now); pins every timestamp and age")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return exitError{2, errors.New("demo takes one DIR, which must be empty or not exist yet")}
	}
	if *scale < 1 {
		return exitError{2, errors.New("--scale must be 1 or more")}
	}
	dir, err := filepath.Abs(pos[0])
	if err != nil {
		return err
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty; the demo writes only into an empty or new folder", dir)
	}
	start := time.Now()
	clock := start
	if *nowFlag != "" {
		if clock, err = time.Parse(time.RFC3339, *nowFlag); err != nil {
			return exitError{2, fmt.Errorf("--now %q is not an RFC 3339 time such as 2026-11-21T12:00:00Z", *nowFlag)}
		}
	}
	m, err := demo.Generate(dir, demo.ScaleOptions(*scale, *seed, clock))
	if err != nil {
		return err
	}
	if common.json {
		return writeJSON(stdout, m)
	}
	fmt.Fprintf(stdout, "Demo workspace written in %s (%d sessions, %s).\n\n", dir, m.Sessions, time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(stdout, "  state dir: %s\n  vault:     %s\n\nTry:\n", m.StateDir, m.VaultDir)
	flags := fmt.Sprintf("--state-dir %s -v %s", m.StateDir, m.VaultDir)
	fmt.Fprintf(stdout, "  clawvault-tui status %s\n", flags)
	fmt.Fprintf(stdout, "  clawvault-tui tree %s %s\n", flags, m.MainNeverObserved.SessionID)
	fmt.Fprintf(stdout, "  clawvault-tui observe --dry-run %s\n", flags)
	fmt.Fprintf(stdout, "  clawvault-tui %s\n", flags)
	return nil
}
