// Package cli is clawvault-tui's command line, on cobra with fang's help,
// errors, version, completions and man page. Each command has its own
// file, with its JSON document types and its text renderer beside it;
// this one holds what they share: the flags every command takes, the
// workspace they resolve, JSON output and exit codes.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"charm.land/fang/v2"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

// Run executes one command line and returns the process's exit code: 0,
// 1 for a failure, 2 for a usage error, or a command's own (75 when the
// vault is busy, 130 when interrupted, 128 + the signal's number for the
// TUI).
//
// SIGINT, SIGTERM and SIGHUP (endSignals) cancel the command's context,
// with the signal as its cause (caughtSignal): every command stops at its
// next check, finishing no more than the atomic write it is in (a sweep
// commits what it finished, an apply records how far it got), so only
// complete files are left. A second signal, or a command still running a
// second later, ends the process at once (130); what it was writing is
// then a temp file of ours, which the next sweep removes. The TUI is the
// one exception: it restores the terminal and waits for its jobs itself
// (runTUI), and a second signal only cuts that wait short (a.hurry).
func Run(args []string, stdout, stderr io.Writer) int {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, endSignals...)
	defer signal.Stop(sigs)
	defer quietLibraryLogs(stderr)()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	hurry := make(chan struct{})
	a := &app{stdout: stdout, stderr: stderr, args: args, ctx: ctx, hurry: hurry}
	a.common.warnings = stderr
	done := make(chan struct{})
	defer close(done)
	go a.afterSignal(sigs, cancel, hurry, done)
	return a.execute()
}

// execute runs the command line a.args: the whole of a process's run, or
// one session of `serve` (a.remote).
func (a *app) execute() int {
	root := a.rootCommand()
	// Never nil: cobra reads os.Args when given nil, which under serve are
	// the server's own.
	root.SetArgs(append([]string{}, a.args...))
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	if a.remote != nil {
		root.SetIn(a.remote.sess.Stdin)
		root.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
			if c.DisableFlagParsing {
				return nil // parseWords checks it once its flags are parsed
			}
			return a.remote.admit(c)
		}
	}
	err := fang.Execute(a.ctx, root,
		fang.WithVersion(version(debug.ReadBuildInfo())),
		fang.WithColorSchemeFunc(helpColors),
		fang.WithErrorHandler(a.printError))
	if a.remote != nil {
		a.remote.finish(err)
	}
	return exitCode(err)
}

// endSignals end any command: an interrupt (in the TUI, from outside it:
// inside, Ctrl-C is a key), kill's default, and the terminal going away (a
// closed window, a killed tmux session).
var endSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// caughtSignal is the cause of a.ctx's cancellation when a signal ended
// the command.
type caughtSignal struct{ os.Signal }

func (c caughtSignal) Error() string { return fmt.Sprintf("ended by a signal (%v)", c.Signal) }

// signalled is the signal that cancelled the command, if one did.
func (a *app) signalled() (os.Signal, bool) {
	var c caughtSignal
	if errors.As(context.Cause(a.ctx), &c) {
		return c.Signal, true
	}
	return nil, false
}

// afterSignal cancels the command's context on the first signal. A
// command that has not stopped a second later, or a second signal, ends
// the process (the signals go back to the system). The TUI ends itself:
// it restores the terminal and waits for its jobs, and a second signal
// closes hurry to cut that wait short.
func (a *app) afterSignal(sigs chan os.Signal, cancel context.CancelCauseFunc, hurry chan struct{}, done chan struct{}) {
	select {
	case <-done:
		return
	case s := <-sigs:
		cancel(caughtSignal{s})
	}
	a.mu.Lock()
	interactive := a.interactive
	a.mu.Unlock()
	if interactive {
		select {
		case <-done:
		case <-sigs:
			close(hurry)
		}
		return
	}
	signal.Stop(sigs)
	grace := signalGrace()
	select {
	case <-done:
	case <-time.After(grace):
		a.mu.Lock()
		for _, f := range a.cleanups {
			f()
		}
		a.mu.Unlock()
		fmt.Fprintf(a.stderr, "%s %v of the signal, so it was ended at once\n", forcedExit, grace)
		os.Exit(130)
	}
}

// forcedExit begins what the backstop says when it ends a command that did
// not stop within its grace of a signal: a command that does is a bug
// (every long loop and blocking call checks the context), and the signal
// tests fail when they read it.
const forcedExit = "clawvault-tui: interrupted: the command did not stop within"

// signalGrace is how long a signalled command has to stop by itself: a
// second, or CLAWVAULT_TUI_SIGNAL_GRACE (a Go duration). The signal tests
// give a few seconds: they test that a command stops by itself, and a
// loaded machine took 1.5 s to reach the next check.
func signalGrace() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("CLAWVAULT_TUI_SIGNAL_GRACE")); err == nil && d > 0 {
		return d
	}
	return time.Second
}

// onInterrupt registers what to undo if the process must end before the
// command returns (the half-written demo folder).
func (a *app) onInterrupt(f func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cleanups = append(a.cleanups, f)
}

// app is one run of the command line: where output goes, and the flags
// every command shares.
type app struct {
	stdout, stderr io.Writer
	args           []string // as typed, to name the sweep's owner in the vault's lock
	common         commonFlags
	// ctx is cancelled by SIGINT, SIGTERM and SIGHUP (see Run).
	ctx context.Context
	// hurry closes on a second signal: the TUI stops waiting for its jobs.
	hurry <-chan struct{}
	// interactive: the TUI, which ends itself on a signal (under mu).
	interactive bool
	mu          sync.Mutex
	cleanups    []func()
	// remote is the SSH session this command line came from, under
	// `serve`; nil for a command typed on this host.
	remote *remoteRun
}

// rootCommand is the TUI's command, with every other command below it.
func (a *app) rootCommand() *cobra.Command {
	root := a.tuiCommand()
	a.common.register(root.PersistentFlags())
	_ = root.RegisterFlagCompletionFunc("agent", a.completeAgents)
	root.SetFlagErrorFunc(flagError)
	root.PersistentPreRun = a.warnConfig
	root.AddCommand(a.statusCommand(), a.treeCommand(), a.observeCommand(), a.retentionCommand(),
		a.searchCommand(), a.promoteCommand(), a.demoCommand(), a.configCommand(), a.serveCommand(), a.fleetCommand(), a.spaceCommand(),
		a.memoryCommand())
	return root
}

// commonFlags are accepted by every command.
type commonFlags struct {
	locate store.LocateOptions
	json   bool
	// warnings receives the workspace's warnings (a broken openclaw.json):
	// every command says them the same way, on stderr (status says them
	// in its header, and sets none).
	warnings io.Writer
}

func (c *commonFlags) register(fs *pflag.FlagSet) {
	// fang capitalises the first word of each usage, so none starts with
	// OpenClaw or ClawVault.
	fs.StringVar(&c.locate.StateDir, "state-dir", "", "the OpenClaw state dir DIR (else $OPENCLAW_STATE_DIR, ~/.openclaw, ~/.clawdbot)")
	fs.StringVar(&c.locate.Profile, "profile", "", "use the OpenClaw profile ~/.openclaw-NAME")
	fs.StringVar(&c.locate.Agent, "agent", "", "one agent only, by its ID")
	fs.BoolVar(&c.locate.AllAgents, "all-agents", false, "every agent")
	fs.StringVar(&c.locate.SessionsDir, "sessions-dir", "", "one bare folder of transcripts DIR, as ClawVault's flag")
	fs.StringVarP(&c.locate.Vault, "vault", "v", "", "the ClawVault vault DIR (else $CLAWVAULT_PATH, then walk up from here)")
	fs.BoolVar(&c.json, "json", false, "machine output on stdout")
	for _, dir := range []string{"state-dir", "sessions-dir", "vault"} {
		_ = cobra.MarkFlagDirname(fs, dir)
	}
}

// completeAgents offers the agent ids of the workspace the other flags
// point at, for --agent.
func (a *app) completeAgents(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	ws, err := store.Locate(store.OSEnv(), a.common.locate)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var ids []cobra.Completion
	for _, ag := range ws.Agents {
		ids = append(ids, ag.ID)
	}
	return ids, cobra.ShellCompDirectiveNoFileComp
}

// workspace resolves the workspace for a command and says, in one
// sentence, when there is nothing to look at (a nothingFound error) or
// when a path the flags or the environment name cannot be used.
func (c *commonFlags) workspace() (*store.Workspace, error) {
	ws, err := store.Locate(store.OSEnv(), c.locate)
	if err != nil {
		return nil, err
	}
	if !ws.Found() {
		where := ws.StateDir
		if !ws.StateDirExists {
			return nil, nothingFound{fmt.Errorf("no OpenClaw state dir at %s (%s): pass --state-dir DIR or --sessions-dir DIR, or try `clawvault-tui demo DIR`", where, ws.StateDirSource)}
		}
		return nil, nothingFound{fmt.Errorf("the state dir %s has no agents (no agents/<id>/sessions folder)", where)}
	}
	if c.warnings != nil {
		for _, w := range ws.Warnings {
			fmt.Fprintf(c.warnings, "Warning: %s\n", esc(w))
		}
	}
	return ws, nil
}

// nothingFound says the workspace holds nothing to look at, as opposed to
// a path given on purpose that is wrong: only the first opens the demo
// under --demo-if-none.
type nothingFound struct{ error }

func (e nothingFound) Unwrap() error { return e.error }

// exitError carries an exit code other than 1.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }

func usageError(format string, args ...any) error {
	return exitError{2, fmt.Errorf(format, args...)}
}

// exitCode is the process's exit code for what a command returned.
func exitCode(err error) int {
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, context.Canceled):
		return 130
	case isCobraUsageError(err):
		return 2
	}
	return 1
}

// isCobraUsageError recognises the argument errors of the commands cobra
// adds (completion, help), which come as plain errors.
func isCobraUsageError(err error) bool {
	for _, prefix := range []string{"unknown command", "invalid argument", "accepts ", "requires at least"} {
		if strings.HasPrefix(err.Error(), prefix) {
			return true
		}
	}
	return false
}

// flagError turns pflag's errors into one sentence that says where the
// flags are listed, with exit code 2.
func flagError(c *cobra.Command, err error) error {
	var notExist *pflag.NotExistError
	var invalid *pflag.InvalidValueError
	var required *pflag.ValueRequiredError
	switch {
	case errors.As(err, &notExist):
		name := "--" + notExist.GetSpecifiedName()
		if group := notExist.GetSpecifiedShortnames(); group != "" {
			if c.Flags().Lookup(group) != nil {
				return usageError("-%s: long flags take two dashes: --%s", group, group)
			}
			name = "-" + notExist.GetSpecifiedName()
		}
		err = fmt.Errorf("flag provided but not defined: %s", name)
	case errors.As(err, &required) && required.GetFlag().Name == "vault" && required.GetSpecifiedShortnames() != "":
		return usageError("-v is --vault and needs a folder; --version prints the version")
	case errors.As(err, &invalid):
		want := map[string]string{"int": "a whole number", "int64": "a whole number", "float64": "a number",
			"duration": "a duration such as 30s or 5m", "bool": "true or false"}[invalid.GetFlag().Value.Type()]
		if want == "" {
			want = "a " + invalid.GetFlag().Value.Type()
		}
		err = fmt.Errorf("--%s %q: give %s", invalid.GetFlag().Name, invalid.GetValue(), want)
	}
	return usageError("%v (see `%s --help`)", err, c.CommandPath())
}

// printError is fang's error handler: one line, `clawvault-tui: …`, when
// stderr is a file or a pipe (scripts and tests read it); fang's styled
// block on a terminal.
func (a *app) printError(w io.Writer, styles fang.Styles, err error) {
	msg := model.EscapeControlsText(err.Error()) // errors name files and keys from disk
	if errors.Is(err, context.Canceled) {
		msg = "interrupted: stopped before it finished; what it wrote is complete"
		if a.shutDown() {
			msg = "the server is shutting down: stopped before it finished; what it wrote is complete"
		}
	}
	if f, ok := a.stderr.(*os.File); !ok || !term.IsTerminal(f.Fd()) {
		fmt.Fprintf(w, "clawvault-tui: %s\n", msg)
		return
	}
	fmt.Fprintln(w, styles.ErrorHeader.String())
	fmt.Fprintln(w, styles.ErrorText.UnsetTransform().Render(msg))
	fmt.Fprintln(w)
}

// version is the module version and the commit the binary was built
// from, as the Go toolchain recorded them. `go build` in a git checkout
// records both; a build without version control information says so.
func version(info *debug.BuildInfo, ok bool) string {
	return versionOf(releaseVersion, info, ok)
}

// releaseVersion is the release a build is of (the VERSION file), set by
// the Makefile's -ldflags "-X clawvault-tui/cli.releaseVersion=…"; a plain
// go build leaves it empty and the module's version is shown instead.
var releaseVersion string

// versionOf is what --version prints: the release (or the module's
// version) and the commit it was built from, as go build records it.
func versionOf(release string, info *debug.BuildInfo, ok bool) string {
	if !ok {
		if release != "" {
			return release
		}
		return "(devel), without build information"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	v := info.Main.Version
	if release != "" {
		v = release
	}
	commit := settings["vcs.revision"]
	if commit == "" {
		if v == "" || v == "(devel)" {
			return "(devel), built without version control information (go build -buildvcs=false, or outside a git checkout)"
		}
		return v
	}
	if len(commit) > 12 {
		commit = commit[:12]
	}
	v += ", commit " + commit
	if t := settings["vcs.time"]; t != "" {
		v += " of " + t
	}
	if settings["vcs.modified"] == "true" {
		v += ", with uncommitted changes"
	}
	return v
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// noArgs is cobra.NoArgs with a usage error's exit code.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError("%s takes no arguments, and %q is not a flag (see `%s --help`)", c.Name(), args[0], c.CommandPath())
	}
	return nil
}
