package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/observer"
	"clawvault-tui/serve"
	"clawvault-tui/store"
	"clawvault-tui/ui"
)

// runRemoteTUI opens the TUI in an SSH client's terminal, on the
// server's workspace, with the writes the key's role allows.
func (a *app) runRemoteTUI(theme string) error {
	sess := a.remote.sess
	if _, _, ok := sess.Terminal(); !ok {
		return usageError("the TUI needs a terminal: connect with ssh -t (or with no command), or give a command such as status")
	}
	cfg, err := tuiConfig(theme)
	if err != nil {
		return err
	}
	if sess.Getenv("NO_COLOR") != "" {
		theme = "none"
	}
	common := a.common
	common.warnings = nil // the TUI shows them on its status line
	ws, err := common.workspace()
	if err != nil {
		return err
	}
	who := sess.Who.Key
	app := ui.New(ui.Options{Workspace: ws, Config: cfg, Theme: theme, Watch: true,
		Jobs: a.remote.jobRunners(cfg), Getenv: serverEnvWithoutEditor, Caps: a.remote.capabilities(), Scan: a.remote.shared.scans.forSession(), Index: a.remote.shared.indexes.open,
		Who: fmt.Sprintf("over SSH as %s (%s)", who.Comment, who.Role)})
	p := sess.Program(app, tea.WithoutSignalHandler())
	_, err = sess.RunProgram(a.ctx, p)
	stopJobs(app, nil, a.stderr)
	if cerr := app.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("closing the search index: %w", cerr)
	}
	if a.shutDown() {
		return exitError{1, serve.ErrShuttingDown}
	}
	if errors.Is(err, tea.ErrInterrupted) || errors.Is(err, tea.ErrProgramKilled) {
		return nil
	}
	return err
}

// serverEnvWithoutEditor is the server's environment (where the search
// index and the backups go) less $VISUAL and $EDITOR: an external editor
// started over SSH gets no terminal, and the keys typed next are lost.
func serverEnvWithoutEditor(key string) string {
	if key == "VISUAL" || key == "EDITOR" {
		return ""
	}
	return os.Getenv(key)
}

// capabilities are what the key's role lets the TUI change, each write
// audited.
func (r *remoteRun) capabilities() ui.Capabilities {
	role := r.sess.Who.Key.Role
	caps := ui.Capabilities{ExternalEditor: "no terminal is wired to an external editor over SSH"}
	needs := func(need serve.Role) string {
		if role.Allows(need) {
			return ""
		}
		return fmt.Sprintf("needs the %s role; this key has %s", need, role)
	}
	caps.Save, caps.Promote, caps.Sweep = needs(serve.RoleCurate), needs(serve.RoleCurate), needs(serve.RoleOperate)
	caps.Writes = func(action string) (store.WriteFS, func(error)) {
		act := r.sess.Begin(action)
		return act.WriteFS(store.OSWriter), func(err error) {
			if aerr := act.End(err); aerr != nil {
				r.logf("%v", aerr)
			}
		}
	}
	return caps
}

// jobRunners are the Jobs screen's jobs for a session: a sweep needs the
// operate role and is audited.
func (r *remoteRun) jobRunners(cfg store.Config) ui.JobRunners {
	jobs := jobRunners(cfg)
	jobs.Sweep = func(ctx context.Context, snap *store.Snapshot, confirmed []observer.Candidate, progress observer.ProgressFunc) (ui.JobResult, error) {
		if role := r.sess.Who.Key.Role; !role.Allows(serve.RoleOperate) {
			return nil, fmt.Errorf("a sweep needs the operate role and this key has %s: nothing was changed", role)
		}
		action := r.sess.Begin("sweep")
		res, err := sweepJob(cfg, action.WriteFS(store.OSWriter))(ctx, snap, confirmed, progress)
		if aerr := action.End(err); aerr != nil {
			r.logf("%v", aerr)
		}
		return res, err
	}
	return jobs
}
