// Package serve is clawvault-tui as an SSH app on the gateway host, on
// Charm's wish: keys from an authorized_keys file with a role each (read,
// curate, operate), a session per channel (the TUI in a terminal, or one
// command), an audit log of every write, and the limits a server needs
// (sessions, idle time, failed logins, a graceful shutdown). It knows
// nothing of the commands or the TUI: it runs the Handler it is given, so
// it need not import the command line that starts it.
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"
)

// Handler runs one session (a command, or the TUI when the client asked
// for a terminal and gave no command) and returns its exit code. ctx ends
// when the client goes, or when the server shuts down (context.Cause is
// then ErrShuttingDown): the handler stops, finishing no more than the
// write it is in, and returns.
type Handler func(ctx context.Context, s *Session) int

// ErrShuttingDown is the cause of a session's context when the server
// stops (SIGTERM).
var ErrShuttingDown = errors.New("the server is shutting down")

// Options configure a server.
type Options struct {
	// KeysFile is the authorized_keys file, read again at each login.
	KeysFile string
	HostKey  gossh.Signer
	Audit    *AuditLog
	Handler  Handler
	// MaxSessions is how many sessions run at once (default 8); the next
	// is told so and ends.
	MaxSessions int
	// IdleTimeout closes a connection with no traffic for that long
	// (0: never).
	IdleTimeout time.Duration
	// MaxFailedLogins from one address within FailWindow close that
	// address's next connections unanswered (defaults 10 a minute).
	MaxFailedLogins int
	FailWindow      time.Duration
	// Log is where the server says what happens (logins, refusals), one
	// line each; nil discards.
	Log io.Writer
}

// Server is an SSH server of clawvault-tui sessions.
type Server struct {
	opt     Options
	ssh     *ssh.Server
	limiter *loginLimiter
	logMu   sync.Mutex

	mu        sync.Mutex
	sessions  map[*Session]context.CancelCauseFunc
	closing   bool
	running   sync.WaitGroup
	listeners []net.Listener
}

// New makes a server; Serve starts it on a listener.
func New(opt Options) (*Server, error) {
	if opt.MaxSessions <= 0 {
		opt.MaxSessions = 8
	}
	if opt.MaxFailedLogins <= 0 {
		opt.MaxFailedLogins = 10
	}
	if opt.FailWindow <= 0 {
		opt.FailWindow = time.Minute
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	if opt.HostKey == nil || opt.Audit == nil || opt.Handler == nil {
		return nil, errors.New("serve: a host key, an audit log and a handler are needed")
	}
	s := &Server{opt: opt, limiter: newLoginLimiter(opt.MaxFailedLogins, opt.FailWindow), sessions: map[*Session]context.CancelCauseFunc{}}
	srv, err := wish.NewServer(
		// Given before anything else: without a host key, wish makes one
		// in the working folder.
		func(srv *ssh.Server) error { srv.AddHostKey(opt.HostKey); return nil },
		ssh.PublicKeyAuth(s.publicKey),
		ssh.EmulatePty(),
		wish.WithIdleTimeout(opt.IdleTimeout),
		wish.WithMiddleware(s.handle, s.checkKey),
	)
	if err != nil {
		return nil, err
	}
	srv.Version = "clawvault-tui"
	// Sessions only: no forwarding of any kind, no subsystem (sftp).
	srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": ssh.DefaultSessionHandler}
	srv.RequestHandlers = map[string]ssh.RequestHandler{}
	srv.SubsystemHandlers = map[string]ssh.SubsystemHandler{}
	srv.HandshakeTimeout = 30 * time.Second
	srv.ConnCallback = s.admit
	srv.ConnectionFailedCallback = s.connectionFailed
	s.ssh = srv
	return s, nil
}

// Serve answers connections on l until Shutdown.
func (s *Server) Serve(l net.Listener) error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return nil
	}
	s.listeners = append(s.listeners, l)
	s.mu.Unlock()
	err := s.ssh.Serve(l)
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing || errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops taking connections, tells every session (its context
// ends with ErrShuttingDown: a command stops at its next check, the TUI
// quits and waits for its jobs), waits for them to end, so that no write
// is cut short, then closes every connection. If ctx ends first, the
// connections are closed all the same and ctx's error is returned.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	for _, l := range s.listeners {
		_ = l.Close()
	}
	for _, cancel := range s.sessions {
		cancel(ErrShuttingDown)
	}
	s.mu.Unlock()
	done := make(chan struct{})
	go func() {
		s.running.Wait()
		close(done)
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("%d sessions had not ended: %w", s.Sessions(), ctx.Err())
	}
	_ = s.ssh.Close()
	return err
}

func (s *Server) logf(format string, args ...any) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.opt.Log, time.Now().UTC().Format(time.RFC3339)+" "+format+"\n", args...)
}

// admit closes, unanswered, a connection from an address that failed to
// log in too often lately.
func (s *Server) admit(_ ssh.Context, conn net.Conn) net.Conn {
	if host := hostOf(conn.RemoteAddr()); !s.limiter.allowed(host) {
		s.logf("refused a connection from %s: too many failed logins in the last %s", host, s.opt.FailWindow)
		return nil
	}
	return conn
}

// connectionFailed counts a connection that ended before it logged in
// as a failed login: a client whose keys were all refused gives up and
// closes it (the handshake then ends on EOF, not on an auth error).
func (s *Server) connectionFailed(conn net.Conn, err error) {
	s.limiter.failed(hostOf(conn.RemoteAddr()))
	s.logf("failed login from %s (%v)", conn.RemoteAddr(), err)
}

// Permission extensions the key check carries from the login to the
// session.
const (
	extFingerprint = "clawvault-tui-fingerprint"
	extRole        = "clawvault-tui-role"
	extComment     = "clawvault-tui-comment"
)

// publicKey lets in a key the authorized keys file lists, reading the
// file again (it may have changed since the last login).
func (s *Server) publicKey(ctx ssh.Context, pk ssh.PublicKey) bool {
	kf, err := ReadKeysFile(s.opt.KeysFile)
	if err != nil {
		s.logf("%v", err)
		return false
	}
	key, ok := kf.Lookup(pk)
	if !ok {
		return false
	}
	perms := ctx.Permissions()
	if perms.Extensions == nil {
		perms.Extensions = map[string]string{}
	}
	perms.Extensions[extFingerprint] = key.Fingerprint
	perms.Extensions[extRole] = strconv.Itoa(int(key.Role))
	perms.Extensions[extComment] = key.Comment
	return true
}

// checkKey checks, as soft-serve does, that the key the session was
// authenticated with is the one the key check let in: the SSH library
// calls the check for keys a client only offers, and does not promise
// the last one checked is the one used.
func (s *Server) checkKey(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		pk := sess.PublicKey()
		ext := sess.Permissions().Extensions
		if pk == nil || ext == nil || ext[extFingerprint] != gossh.FingerprintSHA256(pk) {
			s.logf("refused a session from %s: its key is not the one that logged in", sess.RemoteAddr())
			wish.Fatalln(sess, "clawvault-tui serve: permission denied")
			return
		}
		next(sess)
	}
}

// whoOf is the key a checked session logged in with.
func whoOf(sess ssh.Session) Who {
	ext := sess.Permissions().Extensions
	role, _ := strconv.Atoi(ext[extRole])
	return Who{
		Key:    Key{Fingerprint: ext[extFingerprint], Comment: ext[extComment], Role: Role(role)},
		Remote: sess.RemoteAddr().String(),
	}
}
