package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"clawvault-tui/serve"
	"clawvault-tui/store"
)

// remoteRun is one command line run for an SSH session under `serve`: the
// session, the workspace the server serves, and the write in progress.
type remoteRun struct {
	sess *serve.Session
	// served is what the server was started on (its --state-dir, --vault,
	// --agent…): a client names no path of the server's.
	served store.LocateOptions
	common *commonFlags
	// action records the command's write for the audit log; nil for a
	// command that writes nothing.
	action *serve.Action
	logf   func(format string, args ...any)
	// shared are the server's scans and search indexes.
	shared *serveShared
}

// remotePolicy says how a command is served over SSH.
type remotePolicy struct {
	// refused says why the command is not served over SSH ("": it is).
	refused string
	// write says, from the command's flags, which write a run is (its
	// audit action) and the role it needs; "" for a run that only reads.
	// nil: the command never writes.
	write func(c *cobra.Command) (action string, need serve.Role)
}

// remotePolicies covers every command of the tree, by its path; a
// command missing here is refused over SSH, and TestEveryCommandHasARemotePolicy
// fails until it is classified.
var remotePolicies = map[string]remotePolicy{
	"clawvault-tui":        {}, // the TUI, whose writes are gated one by one
	"clawvault-tui status": {},
	"clawvault-tui tree":   {},
	"clawvault-tui search": {}, // the index is our cache, not the user's files
	"clawvault-tui space":  {}, // reads the stores
	"clawvault-tui config": {},
	// memory reads the agent's index and embeds a query (a status probe)
	// through the agent's provider; --explain names a path, so it is not
	// taken over SSH.
	"clawvault-tui memory":        {},
	"clawvault-tui memory search": {},
	"clawvault-tui memory status": {},
	"clawvault-tui observe": {write: func(c *cobra.Command) (string, serve.Role) {
		if flagOn(c, "dry-run") {
			return "", 0
		}
		return "sweep", serve.RoleOperate
	}},
	"clawvault-tui retention": {write: func(c *cobra.Command) (string, serve.Role) {
		switch {
		case flagOn(c, "apply"):
			return "retention-apply", serve.RoleOperate
		case c.Flags().Changed("undo"):
			return "retention-undo", serve.RoleOperate
		}
		return "", 0
	}},
	"clawvault-tui promote":                            {write: func(*cobra.Command) (string, serve.Role) { return "promote", serve.RoleCurate }},
	"clawvault-tui demo":                               {refused: "demo writes a workspace into a folder of the server's; run it on your own machine"},
	"clawvault-tui serve":                              {refused: "serve starts a server; run it on the host itself"},
	"clawvault-tui fleet":                              {refused: "fleet connects to other hosts with the server's own ssh keys; run it on your own machine"},
	"clawvault-tui fleet status":                       {refused: "fleet connects to other hosts with the server's own ssh keys; run it on your own machine"},
	"clawvault-tui man":                                {refused: "man writes the manual to the server's own terminal; run it on your own machine"},
	"clawvault-tui help":                               {},
	"clawvault-tui completion":                         {},
	"clawvault-tui completion bash":                    {},
	"clawvault-tui completion zsh":                     {},
	"clawvault-tui completion fish":                    {},
	"clawvault-tui completion powershell":              {},
	"clawvault-tui " + cobra.ShellCompRequestCmd:       {},
	"clawvault-tui " + cobra.ShellCompNoDescRequestCmd: {},
}

func flagOn(c *cobra.Command, name string) bool {
	on, err := c.Flags().GetBool(name)
	return err == nil && on
}

// remoteRefusedFlags are flags refused over SSH for what they do rather
// than for naming a path.
var remoteRefusedFlags = map[string]string{
	"demo":         "--demo makes a workspace in a folder of the server's",
	"demo-if-none": "--demo-if-none makes a workspace in a folder of the server's",
}

// remotePathFlags name paths (or, for --profile, a folder by its name);
// every flag cobra knows to complete as a file or a folder is one too.
var remotePathFlags = map[string]bool{"state-dir": true, "profile": true, "sessions-dir": true, "vault": true, "config": true, "archive-dir": true, "undo": true}

// remoteCheckedPathFlags are path flags taken over SSH with a check of
// where they point: --undo names a manifest, which must be in the archive
// folder (retentionUndo).
var remoteCheckedPathFlags = map[string]bool{"undo": true}

// isPathFlag reports whether a flag names a file or a folder.
func isPathFlag(f *pflag.Flag) bool {
	if remotePathFlags[f.Name] {
		return true
	}
	_, file := f.Annotations[cobra.BashCompFilenameExt]
	_, dir := f.Annotations[cobra.BashCompSubdirsInDir]
	return file || dir
}

// admit decides, once the command's flags are parsed, whether the session
// may run it: a command served over SSH, no path of the client's, and the
// role its write needs. It starts the audit record of a write.
func (r *remoteRun) admit(c *cobra.Command) error {
	pol, ok := remotePolicies[c.CommandPath()]
	if !ok {
		pol.refused = "it is not one of the commands served over SSH"
	}
	if pol.refused != "" {
		return usageError("%s is not served over SSH: %s", c.Name(), pol.refused)
	}
	var refused error
	c.Flags().Visit(func(f *pflag.Flag) {
		switch {
		case refused != nil:
		case remoteRefusedFlags[f.Name] != "":
			refused = usageError("%s, so it is not taken over SSH", remoteRefusedFlags[f.Name])
		case isPathFlag(f) && !remoteCheckedPathFlags[f.Name]:
			refused = usageError("--%s names a path on the server, which a client does not choose over SSH: the server serves the workspace it was started on", f.Name)
		}
	})
	if refused != nil {
		return refused
	}
	r.serveWorkspace(c.Flags())
	if pol.write == nil {
		return nil
	}
	action, need := pol.write(c)
	if action == "" {
		return nil
	}
	if role := r.sess.Who.Key.Role; !role.Allows(need) {
		return exitError{exitNotPermitted, fmt.Errorf("%s needs the %s role and this key (%s) has %s: nothing was changed", action, need, r.sess.Who.Key.Fingerprint, role)}
	}
	r.action = r.sess.Begin(action)
	return nil
}

// exitNotPermitted is the exit code of a write the key's role does not
// allow (EX_NOPERM of sysexits.h).
const exitNotPermitted = 77

// serveWorkspace points the command at the server's workspace: its paths
// always, its agent unless the client chose one.
func (r *remoteRun) serveWorkspace(fs *pflag.FlagSet) {
	loc := &r.common.locate
	agent, all := loc.Agent, loc.AllAgents
	*loc = r.served
	if fs.Changed("agent") || fs.Changed("all-agents") {
		loc.Agent, loc.AllAgents = agent, all
	}
}

// finish writes the audit line of the write the command made, if any.
func (r *remoteRun) finish(err error) {
	if r.action == nil {
		return
	}
	if aerr := r.action.End(err); aerr != nil {
		r.logf("%v", aerr)
	}
	r.action = nil
}

// writer is what a command writes files through: the audit's recorder
// over SSH, and for a run admitted as a read, nothing at all.
func (a *app) writer() store.WriteFS {
	if a.remote == nil {
		return store.OSWriter
	}
	if a.remote.action == nil {
		return readOnly{store.OSWriter}
	}
	return a.remote.action.WriteFS(store.OSWriter)
}

// mover is what a command moves files through (retention's apply and
// undo), recorded as writer is.
func (a *app) mover() store.MoveFS {
	if a.remote == nil {
		return store.OSMover
	}
	if a.remote.action == nil {
		return readOnlyMover{store.OSMover}
	}
	return a.remote.action.MoveFS(store.OSMover)
}

// errReadOnly is a write attempted by a session admitted to read only: a
// command whose policy missed a write is refused here rather than let
// through unaudited.
var errReadOnly = errors.New("this command was admitted over SSH as a read, and may not write")

type readOnly struct{ store.WriteFS }

func (readOnly) CreateTemp(string, string) (store.TempFile, error) { return nil, errReadOnly }
func (readOnly) Rename(string, string) error                       { return errReadOnly }
func (readOnly) Remove(string) error                               { return errReadOnly }

type readOnlyMover struct{ store.MoveFS }

func (readOnlyMover) CreateTemp(string, string) (store.TempFile, error) { return nil, errReadOnly }
func (readOnlyMover) Rename(string, string) error                       { return errReadOnly }
func (readOnlyMover) Remove(string) error                               { return errReadOnly }
func (readOnlyMover) Link(string, string) error                         { return errReadOnly }
func (readOnlyMover) MkdirAll(string, fs.FileMode) error                { return errReadOnly }
func (readOnlyMover) CreateExclusive(string, fs.FileMode) (io.WriteCloser, error) {
	return nil, errReadOnly
}

// checkRemoteManifest lets --undo over SSH name only a manifest inside
// the archive folder of the server's workspace.
func checkRemoteManifest(manifest, archiveRoot string) error {
	real, err := store.RealPath(manifest)
	if err != nil {
		return err
	}
	root, err := filepath.EvalSymlinks(archiveRoot)
	if err != nil || !store.Within(root, real) {
		return usageError("--undo over SSH takes a manifest inside the archive folder %s, as the apply printed it", archiveRoot)
	}
	if strings.TrimSpace(manifest) == "" {
		return usageError("--undo needs a MANIFEST")
	}
	return nil
}
