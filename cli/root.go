// Package cli is clawvault-tui's command line: one file per command, each
// with its JSON document types and its text renderer.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"clawvault-tui/store"
)

const usage = `clawvault-tui: inspect OpenClaw sessions and ClawVault memory

Usage:
  clawvault-tui [flags]                      open the terminal UI (--demo: on a generated demo workspace)
  clawvault-tui status [--deep] [--json]     one row per session: size, cursor, pending, threshold, diagnosis
  clawvault-tui tree [--json] FILE|SESSION   the entry tree of a transcript
  clawvault-tui observe --dry-run [--json]   what the next observation sweep would take (ClawVault's lines)
  clawvault-tui retention [--dry-run|--apply] what session maintenance, transcript retention and the
                                             ledger archive would remove; --apply moves it (never deletes)
  clawvault-tui retention --undo MANIFEST    put back everything an apply moved
  clawvault-tui search [--json] QUERY        search all memory: path:line, score, snippet
                                             (--limit N, --reindex, --transcripts; words, "phrases",
                                             -word, word*, path:, type:, i>=0.8, c<0.5)
  clawvault-tui demo DIR [--scale N] [--seed S]
                                             write a demo workspace: DIR/state and DIR/vault
  clawvault-tui config [--path]              print the config file's defaults (or where it lives)

Flags on every command:
  --state-dir DIR     OpenClaw state dir (else $OPENCLAW_STATE_DIR, ~/.openclaw, ~/.clawdbot)
  --profile NAME      use ~/.openclaw-NAME
  --agent ID          one agent only      --all-agents   every agent
  --sessions-dir DIR  one bare folder of transcripts, as ClawVault's flag
  -v, --vault DIR     ClawVault vault (else $CLAWVAULT_PATH, then walk up from here)
  --json              machine output on stdout
`

// exitError carries an exit code other than 1.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }

// Run executes one command line and returns the exit code.
func Run(args []string, stdout, stderr io.Writer) int {
	cmd := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "":
		err = cmdTUI(args, stdout, stderr)
	case "status":
		err = cmdStatus(args, stdout)
	case "tree":
		err = cmdTree(args, stdout)
	case "observe":
		err = cmdObserve(args, stdout, stderr)
	case "retention":
		err = cmdRetention(args, stdout)
	case "search":
		err = cmdSearch(args, stdout, stderr)
	case "demo":
		err = cmdDemo(args, stdout)
	case "config":
		err = cmdConfig(args, stdout)
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "clawvault-tui: unknown command %q; run `clawvault-tui help` for the commands\n", cmd)
		return 2
	}
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "clawvault-tui: %v\n", err)
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}

// commonFlags are accepted by every command.
type commonFlags struct {
	locate store.LocateOptions
	json   bool
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.locate.StateDir, "state-dir", "", "OpenClaw state dir")
	fs.StringVar(&c.locate.Profile, "profile", "", "OpenClaw profile (~/.openclaw-NAME)")
	fs.StringVar(&c.locate.Agent, "agent", "", "agent id")
	fs.BoolVar(&c.locate.AllAgents, "all-agents", false, "every agent")
	fs.StringVar(&c.locate.SessionsDir, "sessions-dir", "", "one folder of transcripts")
	fs.StringVar(&c.locate.Vault, "vault", "", "ClawVault vault")
	fs.StringVar(&c.locate.Vault, "v", "", "ClawVault vault (shorthand)")
	fs.BoolVar(&c.json, "json", false, "machine output on stdout")
}

// locate resolves the workspace for a command and says, in one sentence,
// when there is nothing to look at.
func (c *commonFlags) workspace() (*store.Workspace, error) {
	ws, err := store.Locate(store.OSEnv(), c.locate)
	if err != nil {
		return nil, err
	}
	if !ws.Found() {
		where := ws.StateDir
		if !ws.StateDirExists {
			return nil, fmt.Errorf("no OpenClaw state dir at %s (%s): pass --state-dir DIR or --sessions-dir DIR, or try `clawvault-tui demo DIR`", where, ws.StateDirSource)
		}
		return nil, fmt.Errorf("the state dir %s has no agents (no agents/<id>/sessions folder)", where)
	}
	return ws, nil
}

// parseFlags parses flags placed anywhere among the positional arguments
// (`tree FILE --json` as well as `tree --json FILE`).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, exitError{2, fmt.Errorf("%v (see clawvault-tui help)", err)}
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}
