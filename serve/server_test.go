package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"clawvault-tui/serve/servetest"
)

// A server in-process on 127.0.0.1 with generated keys, and clients made
// with golang.org/x/crypto/ssh (the OpenSSH client's flows are in
// cli/serve_e2e_test.go).

type testServer struct {
	t        *testing.T
	srv      *Server
	addr     string
	keysFile string
	audit    *AuditLog
	hostKey  gossh.PublicKey
}

var (
	newSigner      = servetest.NewSigner
	authorizedLine = servetest.AuthorizedLine
)

func startServer(t *testing.T, keys string, handler Handler, tune func(*Options)) *testServer {
	t.Helper()
	dir := t.TempDir()
	ts := &testServer{t: t, keysFile: filepath.Join(dir, "authorized_keys")}
	if err := os.WriteFile(ts.keysFile, []byte(keys), 0o600); err != nil {
		t.Fatal(err)
	}
	host, _, _, err := LoadHostKey(filepath.Join(dir, "host"))
	if err != nil {
		t.Fatal(err)
	}
	ts.hostKey = host.PublicKey()
	if ts.audit, err = OpenAuditLog(filepath.Join(dir, "state", "audit.log")); err != nil {
		t.Fatal(err)
	}
	opt := Options{KeysFile: ts.keysFile, HostKey: host, Audit: ts.audit, Handler: handler}
	if tune != nil {
		tune(&opt)
	}
	if ts.srv, err = New(opt); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts.addr = l.Addr().String()
	served := make(chan error, 1)
	go func() { served <- ts.srv.Serve(l) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = ts.srv.Shutdown(ctx)
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
		ts.audit.Close()
	})
	return ts
}

func (ts *testServer) dial(signer gossh.Signer) (*gossh.Client, error) {
	return gossh.Dial("tcp", ts.addr, &gossh.ClientConfig{
		User:            "anyone",
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.FixedHostKey(ts.hostKey),
		Timeout:         10 * time.Second,
	})
}

// refuses reports whether the server turns signer's login away.
func (ts *testServer) refuses(signer gossh.Signer) bool {
	c, err := ts.dial(signer)
	if err == nil {
		c.Close()
	}
	return err != nil
}

// run runs a command over a new connection: its stdout, stderr and exit.
func (ts *testServer) run(signer gossh.Signer, command string) (stdout, stderr string, code int) {
	ts.t.Helper()
	c, err := ts.dial(signer)
	if err != nil {
		ts.t.Fatalf("dial: %v", err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		ts.t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	sess.Stdout, sess.Stderr = &out, &errOut
	err = sess.Run(command)
	var exit *gossh.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitStatus()
	case err != nil:
		ts.t.Fatalf("run %q: %v", command, err)
	}
	return out.String(), errOut.String(), code
}

// echoHandler prints who ran what, and exits with the number of
// arguments.
func echoHandler(_ context.Context, s *Session) int {
	fmt.Fprintf(s.Stdout, "%s %s %q %s\n", s.Who.Key.Role, s.Who.Key.Comment, s.Args, s.Getenv("NO_COLOR"))
	return len(s.Args)
}

func TestListedKeysLogInWithTheirRole(t *testing.T) {
	t.Parallel()
	reader, curator, operator := newSigner(t), newSigner(t), newSigner(t)
	keys := authorizedLine(reader, "", "ann@laptop") +
		authorizedLine(curator, `role="curate",no-port-forwarding`, "bo@desk") +
		authorizedLine(operator, `role="operate"`, "cy@ops")
	ts := startServer(t, keys, echoHandler, nil)
	for _, tc := range []struct {
		signer gossh.Signer
		want   string
	}{
		{reader, `read ann@laptop ["status" "--json"] ` + "\n"},
		{curator, `curate bo@desk ["status" "--json"] ` + "\n"},
		{operator, `operate cy@ops ["status" "--json"] ` + "\n"},
	} {
		out, _, code := ts.run(tc.signer, "status --json")
		if out != tc.want || code != 2 {
			t.Errorf("got %q, exit %d; want %q, exit 2", out, code, tc.want)
		}
	}
}

func TestUnlistedKeyIsRefused(t *testing.T) {
	t.Parallel()
	ts := startServer(t, authorizedLine(newSigner(t), "", "ann"), echoHandler, nil)
	if !ts.refuses(newSigner(t)) {
		t.Fatal("a key the file does not list logged in")
	}
}

func TestKeysFileIsReadAtEachLogin(t *testing.T) {
	t.Parallel()
	first, second := newSigner(t), newSigner(t)
	ts := startServer(t, authorizedLine(first, "", "first"), echoHandler, nil)
	if !ts.refuses(second) {
		t.Fatal("the second key logged in before it was listed")
	}
	if err := os.WriteFile(ts.keysFile, []byte(authorizedLine(second, `role="operate"`, "second")), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, _, _ := ts.run(second, "x"); !strings.HasPrefix(out, "operate second") {
		t.Errorf("the key added to the file: %q", out)
	}
	if !ts.refuses(first) {
		t.Error("the key removed from the file still logs in")
	}
}

func TestWorldWritableKeysFileLetsNoOneIn(t *testing.T) {
	t.Parallel()
	signer := newSigner(t)
	ts := startServer(t, authorizedLine(signer, "", "ann"), echoHandler, nil)
	if err := os.Chmod(ts.keysFile, 0o666); err != nil {
		t.Fatal(err)
	}
	if !ts.refuses(signer) {
		t.Fatal("a listed key logged in through a world-writable keys file")
	}
}

func TestFailedLoginsAreRateLimited(t *testing.T) {
	t.Parallel()
	good := newSigner(t)
	ts := startServer(t, authorizedLine(good, "", "ann"), echoHandler, func(o *Options) {
		o.MaxFailedLogins, o.FailWindow = 3, time.Hour
	})
	for range 3 {
		if !ts.refuses(newSigner(t)) {
			t.Fatal("an unlisted key logged in")
		}
	}
	// The server counts a failure when the client hangs up, which may come
	// after the client's Dial returned.
	for deadline := time.Now().Add(10 * time.Second); ts.srv.limiter.allowed("127.0.0.1"); {
		if time.Now().After(deadline) {
			t.Fatal("three failed logins were not counted")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// From the same address, even a good key is turned away now.
	_, err := ts.dial(good)
	if err == nil {
		t.Fatal("a fourth login within the window was answered")
	}
	if strings.Contains(err.Error(), "unable to authenticate") {
		t.Errorf("the connection got as far as authentication: %v", err)
	}
}

func TestExitCodeAndEnvironmentPassThrough(t *testing.T) {
	t.Parallel()
	signer := newSigner(t)
	ts := startServer(t, authorizedLine(signer, "", "ann"), echoHandler, nil)
	c, err := ts.dial(signer)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Setenv("NO_COLOR", "1"); err != nil {
		t.Fatal(err)
	}
	out, err := sess.Output("a b c")
	var exit *gossh.ExitError
	if !errors.As(err, &exit) || exit.ExitStatus() != 3 {
		t.Errorf("exit: %v, want status 3", err)
	}
	if want := `read ann ["a" "b" "c"] 1` + "\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestNoForwardingNoSubsystem(t *testing.T) {
	t.Parallel()
	signer := newSigner(t)
	ts := startServer(t, authorizedLine(signer, "", "ann"), echoHandler, nil)
	c, err := ts.dial(signer)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if conn, err := c.Dial("tcp", ts.addr); err == nil {
		conn.Close()
		t.Error("a direct-tcpip channel (ssh -L) was opened")
	}
	if l, err := c.Listen("tcp", "127.0.0.1:0"); err == nil {
		l.Close()
		t.Error("a tcpip-forward (ssh -R) was granted")
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.RequestSubsystem("sftp"); err == nil {
		t.Error("the sftp subsystem was granted")
	}
}

func TestMaxSessions(t *testing.T) {
	t.Parallel()
	signer := newSigner(t)
	started, release := make(chan struct{}, 4), make(chan struct{})
	block := func(ctx context.Context, s *Session) int {
		started <- struct{}{}
		<-release
		return 0
	}
	ts := startServer(t, authorizedLine(signer, "", "ann"), block, func(o *Options) { o.MaxSessions = 2 })
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ts.run(signer, "hold")
		}()
		<-started
	}
	_, stderr, code := ts.run(signer, "one more")
	if code != 1 || !strings.Contains(stderr, "2 sessions are open, the most this server runs at once") {
		t.Errorf("the third session: exit %d, stderr %q", code, stderr)
	}
	close(release)
	wg.Wait()
}

func TestShutdownTellsSessionsAndWaitsForThem(t *testing.T) {
	t.Parallel()
	signer := newSigner(t)
	started := make(chan struct{})
	var finished atomic.Bool
	slowWrite := func(ctx context.Context, s *Session) int {
		defer finished.Store(true)
		close(started)
		<-ctx.Done()
		if !errors.Is(context.Cause(ctx), ErrShuttingDown) {
			fmt.Fprintf(s.Stderr, "cause: %v\n", context.Cause(ctx))
			return 1
		}
		time.Sleep(100 * time.Millisecond) // the write in progress finishes
		fmt.Fprintln(s.Stdout, "finished the write")
		return 75
	}
	ts := startServer(t, authorizedLine(signer, "", "ann"), slowWrite, nil)
	type result struct {
		out  string
		code int
	}
	got := make(chan result, 1)
	go func() {
		out, _, code := ts.run(signer, "sweep")
		got <- result{out, code}
	}()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if !finished.Load() {
		t.Error("Shutdown returned before the session's handler did")
	}
	if r := <-got; r.out != "finished the write\n" || r.code != 75 {
		t.Errorf("the session saw %q, exit %d", r.out, r.code)
	}
	if !ts.refuses(signer) {
		t.Error("a connection was taken after the shutdown")
	}
}
