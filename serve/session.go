package serve

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	bm "charm.land/wish/v2/bubbletea"
)

// Session is one SSH session as the Handler sees it: who, what they asked
// for, and where its input and output go.
type Session struct {
	Who Who
	// Args are the client's command line (`ssh host status --json` gives
	// status, --json); none for a login without a command.
	Args   []string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	env   []string // what the client sent (SendEnv, SetEnv), and TERM
	audit *AuditLog
	sess  ssh.Session
}

// Getenv is a variable the client sent (SendEnv or SetEnv in its ssh
// config, TERM with its terminal), "" when it sent none.
func (s *Session) Getenv(key string) string {
	for i := len(s.env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(s.env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// Terminal reports whether the client asked for a terminal, and its size.
func (s *Session) Terminal() (width, height int, ok bool) {
	pty, _, ok := s.sess.Pty()
	return pty.Window.Width, pty.Window.Height, ok
}

// Begin starts recording a write this session makes, for the audit log.
func (s *Session) Begin(action string) *Action {
	return s.audit.Begin(s.Who, action, s.Args)
}

// Program makes a Bubble Tea program on the client's terminal: its input,
// its size, its colours (from the TERM and COLORTERM it sent, NO_COLOR
// too), its environment.
func (s *Session) Program(m tea.Model, opts ...tea.ProgramOption) *tea.Program {
	return tea.NewProgram(m, append(opts, bm.MakeOptions(s.sess)...)...)
}

// RunProgram runs p, resized with the client's terminal, until it ends, or
// until ctx does (then it quits as q does, restoring the terminal).
func (s *Session) RunProgram(ctx context.Context, p *tea.Program) (tea.Model, error) {
	_, windows, _ := s.sess.Pty()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		for {
			select {
			case <-ctx.Done():
				p.Quit()
				return
			case w, ok := <-windows:
				if !ok {
					// The client is gone (or sends no more sizes): keep
					// waiting for ctx, which ends the program. Returning
					// here left it running when the window channel closed
					// before ctx was seen done, and a shutdown waited for
					// it in vain.
					windows = nil
					continue
				}
				p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
			}
		}
	}()
	m, err := p.Run()
	p.Kill() // restores the terminal if the program ended by a panic
	return m, err
}

// handle runs each session through the Handler, within the limits.
func (s *Server) handle(ssh.Handler) ssh.Handler {
	return s.run
}

// run runs a session and sends its exit status before counting it out,
// so that a shutdown waiting for the sessions closes no connection before
// its client has the status.
func (s *Server) run(sess ssh.Session) {
	se := &Session{Who: whoOf(sess), Args: sess.Command(), Stdin: sess, Stdout: sess, Stderr: sess.Stderr(),
		env: sess.Environ(), audit: s.opt.Audit, sess: sess}
	if pty, _, ok := sess.Pty(); ok {
		se.env = append(se.env, "TERM="+pty.Term)
	}
	ctx, cancel := context.WithCancelCause(sess.Context())
	defer cancel(nil)
	if why := s.enter(se, cancel); why != "" {
		fmt.Fprintf(se.Stderr, "clawvault-tui serve: %s\n", why)
		s.logf("refused a session of %s from %s: %s", se.Who.Key.Fingerprint, se.Who.Remote, why)
		_ = sess.Exit(1)
		return
	}
	defer s.leave(se)
	what := "the TUI"
	if len(se.Args) > 0 {
		what = quoteArgs(se.Args)
	}
	s.logf("session of %s (%s, role %s) from %s: %s", se.Who.Key.Fingerprint, strconv.Quote(se.Who.Key.Comment), se.Who.Key.Role, se.Who.Remote, what)
	code := s.opt.Handler(ctx, se)
	s.logf("session of %s from %s ended: exit %d", se.Who.Key.Fingerprint, se.Who.Remote, code)
	_ = sess.Exit(code)
}

// quoteArgs is a client's command line for the server's log, every
// control character escaped.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = strconv.Quote(a)
	}
	return strings.Join(q, " ")
}

// enter counts a session in, or says why it cannot start.
func (s *Server) enter(se *Session, cancel context.CancelCauseFunc) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return ErrShuttingDown.Error()
	case len(s.sessions) >= s.opt.MaxSessions:
		return fmt.Sprintf("%d sessions are open, the most this server runs at once; try again when one ends", s.opt.MaxSessions)
	}
	s.sessions[se] = cancel
	s.running.Add(1)
	return ""
}

func (s *Server) leave(se *Session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, se)
	s.running.Done()
}

// Sessions is how many sessions are running.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}
