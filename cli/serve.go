package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	gossh "golang.org/x/crypto/ssh"

	"clawvault-tui/model"
	"clawvault-tui/serve"
	"clawvault-tui/store"
)

// serveFlags are the flags of `clawvault-tui serve`.
type serveFlags struct {
	listen, keysFile, hostKeyDir, auditLog string
	maxSessions                            int
	idleTimeout                            time.Duration
}

// DefaultListen is serve's address: this host only, until told otherwise.
const defaultListen = "127.0.0.1:23234"

func (a *app) serveCommand() *cobra.Command {
	var f serveFlags
	env := store.OSEnv()
	c := &cobra.Command{
		Use:   "serve",
		Short: "The TUI and the commands as an SSH app on this host, for the keys you list",
		Long: `Serves the workspace the flags point at over SSH: ` + "`ssh -p 23234 HOST`" + ` opens the
TUI in that terminal, and ` + "`ssh -p 23234 HOST status --json`" + ` (or any other command)
prints what it prints here. Paths are the server's: a client's --state-dir,
--vault and other path flags are refused.

Keys are listed in --authorized-keys, in OpenSSH's format, read again at
each login. An option before a key gives its role: role="read" (the
default: look, search, dry runs), role="curate" (adds the editor's save and
promote) or role="operate" (adds sweeps and retention apply and undo).
Every write is one JSON line in --audit-log: when, which key, from where,
what, and each file's SHA-256 before and after.

SIGTERM ends every session (the TUI says why) and waits for the writes in
progress to finish.`,
		Example: `# On the gateway host: let your laptop's key in to curate.
mkdir -p ~/.config/clawvault-tui
echo "role=\"curate\" $(cat laptop_id_ed25519.pub)" >> ~/.config/clawvault-tui/authorized_keys
clawvault-tui serve --state-dir ~/.openclaw -v ~/vault

# From the laptop (an ssh tunnel, or --listen 0.0.0.0:23234 on a trusted network):
ssh -t -p 23234 gateway
ssh -p 23234 gateway status --json`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			return a.serve(f)
		},
	}
	fs := c.Flags()
	fs.StringVar(&f.listen, "listen", defaultListen, "the address to listen on, HOST:PORT")
	fs.StringVar(&f.keysFile, "authorized-keys", filepath.Join(filepath.Dir(store.ConfigPath(env)), "authorized_keys"), "the keys let in, in OpenSSH's authorized_keys format, with role=\"…\" options")
	fs.StringVar(&f.hostKeyDir, "host-key-dir", filepath.Join(store.DataDir(env), "ssh"), "where the server's host key is kept (made on the first start)")
	fs.StringVar(&f.auditLog, "audit-log", filepath.Join(stateHome(env), "clawvault-tui", "audit.log"), "the audit log: one JSON line per write")
	fs.IntVar(&f.maxSessions, "max-sessions", 8, "sessions served at once")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", 30*time.Minute, "close a connection with no traffic for this long (0: never)")
	_ = c.MarkFlagFilename("authorized-keys")
	_ = c.MarkFlagDirname("host-key-dir")
	_ = c.MarkFlagFilename("audit-log")
	return c
}

// stateHome is $XDG_STATE_HOME, else ~/.local/state: where logs go.
func stateHome(env store.Env) string {
	if dir := env.Getenv("XDG_STATE_HOME"); dir != "" {
		return dir
	}
	return filepath.Join(env.Home, ".local", "state")
}

func (a *app) serve(f serveFlags) error {
	if f.maxSessions < 1 {
		return usageError("--max-sessions must be 1 or more")
	}
	if f.idleTimeout < 0 {
		return usageError("--idle-timeout must be a duration such as 30m, or 0 for never")
	}
	// Like the TUI, a signal ends serve gracefully: Shutdown waits for the
	// sessions' writes; a second signal stops the wait.
	a.mu.Lock()
	a.interactive = true
	a.mu.Unlock()
	ws, err := a.common.workspace()
	if err != nil {
		return err
	}
	keys, err := serve.ReadKeysFile(f.keysFile)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("no authorized keys file at %s: make it with the public keys to let in, one a line, e.g. `cat ~/.ssh/id_ed25519.pub >> %s` (role=\"curate\" or role=\"operate\" before a key gives it more than reading)", f.keysFile, f.keysFile)
	}
	if err != nil {
		return err
	}
	hostKey, hostKeyPath, created, err := serve.LoadHostKey(f.hostKeyDir)
	if err != nil {
		return err
	}
	audit, err := serve.OpenAuditLog(f.auditLog)
	if err != nil {
		return err
	}
	defer audit.Close()
	l, err := net.Listen("tcp", f.listen)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", f.listen, err)
	}
	shared := newServeShared()
	defer func() {
		if err := shared.indexes.closeAll(); err != nil {
			fmt.Fprintf(a.stderr, "clawvault-tui serve: closing the search index: %v\n", err)
		}
	}()
	srv, err := serve.New(serve.Options{KeysFile: f.keysFile, HostKey: hostKey, Audit: audit, MaxSessions: f.maxSessions,
		IdleTimeout: f.idleTimeout, Log: a.stderr, Handler: a.serveSession(a.common.locate, shared)})
	if err != nil {
		l.Close()
		return err
	}
	a.printServing(ws, l.Addr(), f, keys, hostKey, hostKeyPath, created)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	select {
	case err := <-served:
		return err
	case <-a.ctx.Done():
	}
	return a.shutdown(srv, served)
}

// shutdown ends every session and waits for them, a minute at most, or
// until a second signal.
func (a *app) shutdown(srv *serve.Server, served chan error) error {
	fmt.Fprintf(a.stderr, "clawvault-tui serve: shutting down: %s to end…\n", model.Plural(srv.Sessions(), "session", "sessions"))
	ctx, cancel := context.WithTimeout(context.Background(), stopJobsFor+10*time.Second)
	defer cancel()
	go func() {
		select {
		case <-a.hurry:
			cancel()
		case <-ctx.Done():
		}
	}()
	err := srv.Shutdown(ctx)
	if serr := <-served; err == nil {
		err = serr
	}
	if err != nil {
		return err
	}
	// A stop asked for and carried out is a success (systemd counts an
	// exit 0 on SIGTERM as a clean stop).
	fmt.Fprintln(a.stderr, "clawvault-tui serve: stopped")
	return nil
}

// printServing says where everything is, once, at start.
func (a *app) printServing(ws *store.Workspace, addr net.Addr, f serveFlags, keys *serve.KeysFile, hostKey gossh.Signer, hostKeyPath string, created bool) {
	w := a.stdout
	made := ""
	if created {
		made = ", made now"
	}
	fmt.Fprintf(w, "clawvault-tui serve: listening on %s\n", addr)
	vault := ws.Vault
	if vault == "" {
		vault = "(none)"
	}
	fmt.Fprintf(w, "  state dir  %s\n  vault      %s\n", ws.StateDir, vault)
	fmt.Fprintf(w, "  keys       %s (%s)\n", f.keysFile, model.Plural(keys.Len(), "key", "keys"))
	for _, p := range keys.Problems {
		fmt.Fprintf(w, "             line %d lets no key in: %s\n", p.Line, p.Reason)
	}
	fmt.Fprintf(w, "  host key   %s (%s%s)\n", hostKeyPath, gossh.FingerprintSHA256(hostKey.PublicKey()), made)
	fmt.Fprintf(w, "  audit log  %s\n", f.auditLog)
	if tcp, ok := addr.(*net.TCPAddr); ok {
		fmt.Fprintf(w, "Connect with: ssh -t -p %d %s\n", tcp.Port, tcp.IP)
	}
}

// serveSession runs each session's command line, as if typed here, on the
// workspace the server serves.
func (a *app) serveSession(served store.LocateOptions, shared *serveShared) serve.Handler {
	return func(ctx context.Context, sess *serve.Session) int {
		r := &remoteRun{sess: sess, served: served, shared: shared, logf: func(format string, args ...any) {
			fmt.Fprintf(a.stderr, "clawvault-tui serve: "+format+"\n", args...)
		}}
		session := &app{stdout: sess.Stdout, stderr: sess.Stderr, args: sess.Args, ctx: ctx, remote: r}
		r.common = &session.common
		return session.execute()
	}
}

// serveShared is what a server's sessions share: the workspace's scans
// and the search indexes.
type serveShared struct {
	scans   *sharedScans
	indexes *sharedIndexes
}

func newServeShared() *serveShared {
	return &serveShared{scans: newSharedScans(), indexes: newSharedIndexes()}
}

// shutDown says the server ended the session.
func (a *app) shutDown() bool {
	return a.remote != nil && errors.Is(context.Cause(a.ctx), serve.ErrShuttingDown)
}
