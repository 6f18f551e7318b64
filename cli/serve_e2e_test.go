//go:build unix

package cli

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"clawvault-tui/serve"
	"clawvault-tui/serve/servetest"
)

// The serve flows with the real OpenSSH client (.ci/run installs
// openssh-client): the real binary serving a demo workspace on 127.0.0.1,
// ssh run as a user runs it, the TUI in tmux.

// writeClientKey writes a new ed25519 key in OpenSSH's private key format
// (mode 0600, as ssh demands) and returns its public half.
func writeClientKey(t *testing.T, path string) gossh.PublicKey {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	sshPub, err := gossh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return sshPub
}

// sshSetup is an ssh_config with a Host per role (and "stranger", a key
// the server does not list), all pointing at one server, whose host key
// is the only one known.
type sshSetup struct {
	dir, config string
}

func needSSH(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("the OpenSSH client is not installed (.ci/run installs openssh-client)")
	}
	if testing.Short() {
		t.Skip("end-to-end flows are not short")
	}
}

// newSSHSetup makes the client keys, and the server's keys file with a
// role for each but "stranger".
func newSSHSetup(t *testing.T) (setup *sshSetup, authorizedKeys string) {
	t.Helper()
	dir := t.TempDir()
	var keys strings.Builder
	for _, role := range []string{"read", "curate", "operate", "stranger"} {
		pub := writeClientKey(t, filepath.Join(dir, role))
		if role != "stranger" {
			fmt.Fprintf(&keys, "role=%q %s %s@e2e\n", role, strings.TrimSpace(string(gossh.MarshalAuthorizedKey(pub))), role)
		}
	}
	return &sshSetup{dir: dir, config: filepath.Join(dir, "ssh_config")}, keys.String()
}

// addServer points Hosts NAME-ROLE (NAME alone for read) at a server.
func (s *sshSetup) addServer(t *testing.T, name, addr string, hostKey gossh.PublicKey) {
	t.Helper()
	host, port, _ := strings.Cut(addr, ":")
	known := fmt.Sprintf("[%s]:%s %s", host, port, gossh.MarshalAuthorizedKey(hostKey))
	f, err := os.OpenFile(filepath.Join(s.dir, "known_hosts"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(known)
	f.Close()
	cfg, err := os.OpenFile(s.config, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	for _, role := range []string{"read", "curate", "operate", "stranger"} {
		alias := name + "-" + role
		if role == "read" {
			alias += " " + name
		}
		fmt.Fprintf(cfg, "Host %s\n  HostName %s\n  Port %s\n  User e2e\n  IdentityFile %s\n  IdentitiesOnly yes\n  IdentityAgent none\n"+
			"  UserKnownHostsFile %s\n  StrictHostKeyChecking yes\n  LogLevel ERROR\n  SetEnv COLORTERM=truecolor\n",
			alias, host, port, filepath.Join(s.dir, role), filepath.Join(s.dir, "known_hosts"))
	}
}

// ssh runs the real client: its stdout, stderr and exit code.
func (s *sshSetup) ssh(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command("ssh", append([]string{"-F", s.config, "-o", "BatchMode=yes"}, args...)...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("ssh %v: %v", args, err)
	}
	return out.String(), errOut.String(), code
}

// servedProcess is the real binary serving a workspace.
type servedProcess struct {
	cmd       *exec.Cmd
	addr      string
	hostKey   gossh.PublicKey
	auditPath string
	stderr    *strings.Builder
	exited    chan error
}

func startServeProcess(t *testing.T, state, vault, authorizedKeys string) *servedProcess {
	t.Helper()
	dir := t.TempDir()
	keysFile := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(keysFile, []byte(authorizedKeys), 0o600); err != nil {
		t.Fatal(err)
	}
	sp := &servedProcess{auditPath: filepath.Join(dir, "audit.log"), stderr: &strings.Builder{}, exited: make(chan error, 1)}
	sp.cmd = exec.Command(builtBinary(t), "serve", "--listen", "127.0.0.1:0", "--authorized-keys", keysFile,
		"--host-key-dir", filepath.Join(dir, "host"), "--audit-log", sp.auditPath, "--state-dir", state, "-v", vault)
	sp.cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"OPENCLAW_AGENT_ID=")
	sp.cmd.Stderr = sp.stderr
	stdout, err := sp.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sp.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sp.cmd.Process.Kill()
		<-sp.exited
	})
	listening := regexp.MustCompile(`listening on (\S+)`)
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && sp.addr == "" {
		if m := listening.FindStringSubmatch(sc.Text()); m != nil {
			sp.addr = m[1]
		}
	}
	go func() {
		for sc.Scan() {
		}
		sp.exited <- sp.cmd.Wait()
	}()
	if sp.addr == "" {
		t.Fatalf("serve did not say where it listens: %s", sp.stderr)
	}
	signer, _, _, err := serve.LoadHostKey(filepath.Join(dir, "host"))
	if err != nil {
		t.Fatal(err)
	}
	sp.hostKey = signer.PublicKey()
	return sp
}

func TestServeEndToEnd(t *testing.T) {
	needSSH(t)
	state, vault := demoCopy(t)
	t.Setenv("OPENCLAW_AGENT_ID", "")
	setup, keys := newSSHSetup(t)
	sp := startServeProcess(t, state, vault, keys)
	setup.addServer(t, "gw", sp.addr, sp.hostKey)
	local := []string{"--state-dir", state, "-v", vault}

	t.Run("commands print the bytes they print here, exit codes too", func(t *testing.T) {
		for _, args := range [][]string{{"status", "--json"}, {"tree", "agent:main:main", "--json"}, {"observe", "--dry-run"}, {"tree", "nope"}} {
			lOut, lErr, lCode := runCLI(t, append(args, local...)...)
			rOut, rErr, rCode := setup.ssh(t, append([]string{"gw"}, args...)...)
			rOut, lOut = takenAt.ReplaceAllString(rOut, ""), takenAt.ReplaceAllString(lOut, "")
			if rOut != lOut || rErr != lErr || rCode != lCode {
				t.Errorf("%v over ssh: exit %d, %d bytes, %q; here: exit %d, %d bytes, %q", args, rCode, len(rOut), rErr, lCode, len(lOut), lErr)
			}
		}
	})
	t.Run("an unlisted key is refused", func(t *testing.T) {
		_, stderr, code := setup.ssh(t, "gw-stranger", "status")
		if code != 255 || !strings.Contains(stderr, "Permission denied (publickey)") {
			t.Errorf("exit %d, %q", code, stderr)
		}
	})
	t.Run("a forbidden write is refused and changes nothing", func(t *testing.T) {
		before := digest(t, state, vault)
		_, stderr, code := setup.ssh(t, "gw", "observe")
		if code != exitNotPermitted || !strings.Contains(stderr, "sweep needs the operate role") || !maps.Equal(before, digest(t, state, vault)) {
			t.Errorf("observe as read: exit %d, %q", code, stderr)
		}
	})
	t.Run("each role's TUI, two sessions at once, resized", func(t *testing.T) {
		sshTUI := func(host string) *terminal {
			return startTerminal(t, fmt.Sprintf("ssh -F %s -t %s; echo EXIT:$?; sleep 60", setup.config, host), 100, 30)
		}
		reader, operator := sshTUI("gw"), sshTUI("gw-operate")
		reader.waitText("over SSH as read@e2e (read)")
		operator.waitText("over SSH as operate@e2e (operate)")
		reader.keys("5")
		reader.waitText("S sweep (needs the operate role; this key has read)")
		reader.keys("S")
		reader.waitText("sweep: needs the operate role")
		reader.tmux("resize-window", "-t", "e2e", "-x", "80", "-y", "24")
		reader.waitFor("the screen redrawn at 80×24", func(s string) bool {
			lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
			return len(lines) == 24 && strings.Contains(lines[0], "over SSH as read@e2e") && len([]rune(lines[0])) == 80
		})
		curator := sshTUI("gw-curate")
		curator.waitText("over SSH as curate@e2e (curate)")
		operator.keys("5", "S")
		operator.waitText("This writes to the vault")
		operator.keys("y")
		operator.waitText("done observed")
		recs := auditLines(t, sp.auditPath)
		if len(recs) != 1 || recs[0].Action != "sweep" || recs[0].Comment != "operate@e2e" || len(recs[0].Files) == 0 {
			t.Errorf("the sweep's audit: %+v", recs)
		}
		reader.keys("q")
		reader.waitText("EXIT:0")
	})
	t.Run("SIGTERM tells each session and ends serve cleanly", func(t *testing.T) {
		tm := startTerminal(t, fmt.Sprintf("ssh -F %s -t gw-curate; echo EXIT:$?; sleep 60", setup.config), 100, 30)
		tm.waitText("over SSH as curate@e2e (curate)")
		sp.cmd.Process.Signal(syscall.SIGTERM)
		tm.waitText("the server is shutting down")
		select {
		case err := <-sp.exited:
			sp.exited <- err // for the cleanup
			if err != nil || !strings.Contains(sp.stderr.String(), "clawvault-tui serve: stopped") {
				t.Errorf("serve ended with %v:\n%s", err, sp.stderr)
			}
		case <-time.After(time.Minute):
			sp.cmd.Process.Signal(syscall.SIGQUIT) // its goroutines to stderr, and an end
			select {
			case err := <-sp.exited:
				sp.exited <- err
			case <-time.After(10 * time.Second):
			}
			t.Fatalf("serve did not end after SIGTERM:\n%s", sp.stderr)
		}
	})
}

// fleet status through the real ssh, against two servers in-process and a
// port where nothing listens.
func TestFleetStatusThroughSSH(t *testing.T) {
	needSSH(t)
	state, vault := demoCopy(t)
	setup, _ := newSSHSetup(t)
	for _, name := range []string{"gw1", "gw2"} {
		sw := startServed(t, state, vault)
		// The in-process server lets in its own keys: list the setup's
		// read key there too.
		pub, err := os.ReadFile(filepath.Join(setup.dir, "read"))
		if err != nil {
			t.Fatal(err)
		}
		signer, err := gossh.ParsePrivateKey(pub)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := os.OpenFile(sw.authorized, os.O_APPEND|os.O_WRONLY, 0)
		f.Write(gossh.MarshalAuthorizedKey(signer.PublicKey()))
		f.Close()
		setup.addServer(t, name, sw.addr, sw.hostKey)
	}
	setup.addServer(t, "dead", "127.0.0.1:1", servetest.NewSigner(t).PublicKey())

	out, stderr, code := runCLI(t, "fleet", "status", "--ssh-config", setup.config, "--timeout", "20s", "gw1", "gw2", "dead")
	if code != 1 || !strings.Contains(stderr, "1 of 3 hosts did not answer") {
		t.Errorf("exit %d, %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "HOST") {
		t.Fatalf("no table:\n%s", out)
	}
	rows := map[string]int{}
	for _, l := range lines[1:] {
		rows[strings.Fields(l)[0]]++
	}
	statusOut, _, _ := runCLI(t, "status", "--json", "--state-dir", state, "-v", vault)
	var status struct {
		Sessions []json.RawMessage `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(statusOut), &status); err != nil {
		t.Fatal(err)
	}
	sessions := len(status.Sessions)
	if rows["gw1"] != sessions || rows["gw2"] != sessions || rows["dead"] != 1 || !regexp.MustCompile(`dead .*error: ssh: connect to host 127.0.0.1 port 1`).MatchString(out) {
		t.Errorf("rows by host %v (each host has %d sessions):\n%s", rows, sessions, out)
	}
	jsonOut, _, _ := runCLI(t, "fleet", "status", "--json", "--ssh-config", setup.config, "gw1", "dead")
	requireKeys(t, "fleet status --json", []byte(jsonOut), "hosts", "sessions")
	if strings.Count(jsonOut, `"host": "gw1"`) != sessions+1 || !strings.Contains(jsonOut, `"error": "ssh: connect to host`) {
		t.Errorf("fleet --json:\n%.2000s", jsonOut)
	}
}
