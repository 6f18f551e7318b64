package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"maps"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	gossh "golang.org/x/crypto/ssh"

	"clawvault-tui/serve"
	"clawvault-tui/serve/servetest"
	"clawvault-tui/store"
	"clawvault-tui/store/search"
)

// Every command of the tree has a policy over SSH: a command added without
// one fails here until someone decides whether it writes and what role it
// needs (or that it is not served at all).
func TestEveryCommandHasARemotePolicy(t *testing.T) {
	t.Parallel()
	root := (&app{}).rootCommand()
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	seen := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		seen[c.CommandPath()] = true
		if _, ok := remotePolicies[c.CommandPath()]; !ok {
			t.Errorf("%q has no entry in remotePolicies: say whether it is served over SSH, and what it writes", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for path := range remotePolicies {
		// man (fang) and cobra's completion requests are added as the
		// command line runs.
		if !seen[path] && path != "clawvault-tui man" && !strings.Contains(path, "__complete") {
			t.Errorf("remotePolicies names %q, which is no command", path)
		}
	}
}

// remotePlainStringFlags are the string flags that name no path. A new
// string flag must be put here or be a path flag (isPathFlag), so that a
// flag naming a file cannot slip through unrefused.
var remotePlainStringFlags = []string{
	"agent", "theme", "section", "compressor", "now", "only", "active-key", "prune-after", "max-entries",
	"reset-archive-retention", "max-disk-bytes", "high-water-bytes", "cron-retention", "listen",
}

func TestEveryStringFlagIsClassified(t *testing.T) {
	t.Parallel()
	root := (&app{}).rootCommand()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		visit := func(f *pflag.Flag) {
			if f.Value.Type() == "string" && !isPathFlag(f) && !slices.Contains(remotePlainStringFlags, f.Name) {
				t.Errorf("%s --%s: a string flag neither a path flag (isPathFlag) nor in remotePlainStringFlags", c.CommandPath(), f.Name)
			}
		}
		c.LocalFlags().VisitAll(visit)
		c.PersistentFlags().VisitAll(visit)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// The write each command line makes, and the role it needs.
func TestRemotePolicyOfEachWrite(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args   []string
		action string
		need   serve.Role
	}{
		{[]string{"observe"}, "sweep", serve.RoleOperate},
		{[]string{"observe", "--max-sessions", "2"}, "sweep", serve.RoleOperate},
		{[]string{"observe", "--watch", "5m"}, "sweep", serve.RoleOperate},
		{[]string{"observe", "--dry-run"}, "", 0},
		{[]string{"retention"}, "", 0},
		{[]string{"retention", "--dry-run"}, "", 0},
		{[]string{"retention", "--apply"}, "retention-apply", serve.RoleOperate},
		{[]string{"retention", "--undo", "x/manifest.json"}, "retention-undo", serve.RoleOperate},
		{[]string{"promote", "--section", "S", "text"}, "promote", serve.RoleCurate},
		{[]string{"status"}, "", 0},
		{[]string{"search", "x"}, "", 0},
	} {
		root := (&app{}).rootCommand()
		c, rest, err := root.Find(tc.args)
		if err != nil {
			t.Fatal(err)
		}
		if !c.DisableFlagParsing {
			if err := c.ParseFlags(rest); err != nil {
				t.Fatal(err)
			}
		}
		var action string
		var need serve.Role
		if w := remotePolicies[c.CommandPath()].write; w != nil {
			action, need = w(c)
		}
		if action != tc.action || need != tc.need {
			t.Errorf("%v: %q needing %v, want %q needing %v", tc.args, action, need, tc.action, tc.need)
		}
	}
}

// --- a server in-process, clients from golang.org/x/crypto/ssh ---

type servedWorkspace struct {
	addr         string
	hostKey      gossh.PublicKey
	signers      map[string]gossh.Signer // by role, and "stranger" (unlisted)
	auditPath    string
	state, vault string
	srv          *serve.Server
	authorized   string // the keys file
	shared       *serveShared
}

// startServed serves a workspace on 127.0.0.1 with a key per role.
func startServed(t testing.TB, state, vault string) *servedWorkspace {
	t.Helper()
	dir := t.TempDir()
	sw := &servedWorkspace{signers: map[string]gossh.Signer{}, state: state, vault: vault,
		auditPath: filepath.Join(dir, "state", "audit.log"), authorized: filepath.Join(dir, "authorized_keys")}
	var keys strings.Builder
	for _, role := range []string{"read", "curate", "operate", "stranger"} {
		sw.signers[role] = servetest.NewSigner(t)
		if role != "stranger" {
			keys.WriteString(servetest.AuthorizedLine(sw.signers[role], `role="`+role+`"`, role+"@test"))
		}
	}
	if err := os.WriteFile(sw.authorized, []byte(keys.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	host, _, _, err := serve.LoadHostKey(filepath.Join(dir, "host"))
	if err != nil {
		t.Fatal(err)
	}
	sw.hostKey = host.PublicKey()
	audit, err := serve.OpenAuditLog(sw.auditPath)
	if err != nil {
		t.Fatal(err)
	}
	a := &app{stderr: io.Discard}
	shared := newServeShared()
	sw.shared = shared
	sw.srv, err = serve.New(serve.Options{KeysFile: sw.authorized, HostKey: host, Audit: audit,
		Handler: a.serveSession(store.LocateOptions{StateDir: state, Vault: vault}, shared)})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sw.addr = l.Addr().String()
	served := make(chan error, 1)
	go func() { served <- sw.srv.Serve(l) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := sw.srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		<-served
		audit.Close()
		shared.indexes.closeAll()
	})
	return sw
}

// shellQuote quotes an argument for the server's command line, which it
// splits as a POSIX shell would.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// run runs a command line over SSH with the key of a role.
func (sw *servedWorkspace) run(t *testing.T, role string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	c, err := gossh.Dial("tcp", sw.addr, &gossh.ClientConfig{User: "x", Auth: []gossh.AuthMethod{gossh.PublicKeys(sw.signers[role])},
		HostKeyCallback: gossh.FixedHostKey(sw.hostKey), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("dial as %s: %v", role, err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	sess.Stdout, sess.Stderr = &out, &errOut
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	err = sess.Run(strings.Join(quoted, " "))
	var exit *gossh.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitStatus()
	case err != nil:
		t.Fatalf("run %v: %v", args, err)
	}
	return out.String(), errOut.String(), code
}

// digest is every file under the folders with its SHA-256, to show that
// nothing changed.
func digest(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h := sha256.Sum256(data)
			out[p] = hex.EncodeToString(h[:])
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func auditLines(t *testing.T, path string) []serve.AuditRecord {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []serve.AuditRecord
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r serve.AuditRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("an audit line that is not JSON: %.200q", sc.Text())
		}
		recs = append(recs, r)
	}
	return recs
}

// takenAt matches what differs between two runs: the time taken at, a search's time.
var takenAt = regexp.MustCompile(`"takenAt": "[^"]*"|"searchMs": [0-9.e+-]+`)

// Commands over SSH print the bytes they print on the host.
func TestServedCommandsPrintWhatTheyPrintHere(t *testing.T) {
	state, vault := demoCopy(t)
	t.Setenv("OPENCLAW_AGENT_ID", "")
	sw := startServed(t, state, vault)
	local := []string{"--state-dir", state, "-v", vault}
	// The search index is built once, here (its progress is on stderr).
	runCLI(t, append([]string{"search", "--reindex"}, local...)...)
	for _, args := range [][]string{
		{"status", "--json"},
		{"status", "--problems", "--agent", "main", "--json"},
		{"tree", "agent:main:main", "--json"},
		{"observe", "--dry-run"},
		{"search", "billing", "--json"},
		{"retention", "--now", "2026-11-21T12:00:00Z", "--json"},
		{"config", "--path"},
		{"memory", "search", "restore test", "--agent", "ops", "--now", "2026-11-21T12:00:00Z", "--json"},
		{"memory", "status", "--no-probe"},
		{"tree", "no-such-session"},
		{"status", "--no-such-flag"},
	} {
		lOut, lErr, lCode := runCLI(t, append(args, local...)...)
		rOut, rErr, rCode := sw.run(t, "read", args...)
		rOut, lOut = takenAt.ReplaceAllString(rOut, ""), takenAt.ReplaceAllString(lOut, "")
		if rOut != lOut || rErr != lErr || rCode != lCode {
			t.Errorf("%v over SSH: exit %d, %d bytes, stderr %q; here: exit %d, %d bytes, stderr %q", args, rCode, len(rOut), rErr, lCode, len(lOut), lErr)
		}
	}
}

// A client names no path of the server's, and runs no command that would
// write outside the workspace or reach other hosts.
func TestServedRefusals(t *testing.T) {
	state, vault := demoCopy(t)
	sw := startServed(t, state, vault)
	before := digest(t, state, vault)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"status", "--state-dir", "/etc"}, "--state-dir names a path on the server"},
		{[]string{"status", "-v", "/tmp"}, "--vault names a path on the server"},
		{[]string{"status", "--sessions-dir", "/tmp"}, "--sessions-dir names a path"},
		{[]string{"status", "--profile", "other"}, "--profile names a path"},
		{[]string{"retention", "--config", "/etc/x.toml"}, "--config names a path"},
		{[]string{"retention", "--apply", "--archive-dir", "/tmp/a"}, "--archive-dir names a path"},
		{[]string{"search", "--vault", "/tmp", "x"}, "--vault names a path"},
		{[]string{"promote", "--state-dir", "/tmp", "--section", "S", "x"}, "--state-dir names a path"},
		{[]string{"tree", "/etc/passwd"}, "tree over SSH takes a SESSION"},
		{[]string{"memory", "search", "x", "--explain", "MEMORY.md"}, "--explain names a path"},
		{[]string{"demo", "/tmp/x"}, "demo is not served over SSH"},
		{[]string{"serve"}, "serve is not served over SSH"},
		{[]string{"fleet", "status", "h"}, "status is not served over SSH"},
		{[]string{"man"}, "man is not served over SSH"},
		{[]string{"--demo"}, "--demo makes a workspace"},
		{[]string{}, "the TUI needs a terminal"},
		{[]string{"retention", "--undo", "/etc/passwd"}, "--undo over SSH takes a manifest inside the archive folder"},
	} {
		_, stderr, code := sw.run(t, "operate", tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line saying %q", tc.args, code, stderr, tc.want)
		}
	}
	if after := digest(t, state, vault); !maps.Equal(before, after) {
		t.Error("a refused command changed the workspace")
	}
}

// Each write needs its role: refused below it with nothing changed, and
// audited at it, each file's hash before and after matching the disk.
func TestServedWritesByRole(t *testing.T) {
	state, vault := demoCopy(t)
	t.Setenv("OPENCLAW_AGENT_ID", "")
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // promote's backups
	sw := startServed(t, state, vault)
	promote := []string{"promote", "--section", "Lessons", "Invoices are sent on the first of the month."}
	observe := []string{"observe", "--max-sessions", "1", "--now", "2026-11-21T12:00:00Z"}
	before := digest(t, state, vault)
	for _, tc := range []struct {
		role string
		args []string
	}{
		{"read", promote}, {"read", observe}, {"read", []string{"retention", "--apply"}},
		{"curate", observe}, {"curate", []string{"retention", "--apply"}},
	} {
		_, stderr, code := sw.run(t, tc.role, tc.args...)
		if code != exitNotPermitted || !strings.Contains(stderr, "role and this key") || !strings.Contains(stderr, "nothing was changed") {
			t.Errorf("%s %v: exit %d, %q", tc.role, tc.args, code, stderr)
		}
	}
	if !maps.Equal(before, digest(t, state, vault)) {
		t.Fatal("a refused write changed the workspace")
	}
	if recs := auditLines(t, sw.auditPath); len(recs) != 0 {
		t.Fatalf("refused writes left %d audit lines", len(recs))
	}
	if _, stderr, code := sw.run(t, "curate", promote...); code != 0 {
		t.Fatalf("promote as curate: exit %d, %s", code, stderr)
	}
	if _, stderr, code := sw.run(t, "operate", observe...); code != 0 {
		t.Fatalf("observe as operate: exit %d, %s", code, stderr)
	}
	recs := auditLines(t, sw.auditPath)
	if len(recs) != 2 || recs[0].Action != "promote" || recs[0].Role != "curate" || recs[1].Action != "sweep" || recs[1].Role != "operate" {
		t.Fatalf("audit: %+v", recs)
	}
	for _, r := range recs {
		if r.Fingerprint != gossh.FingerprintSHA256(sw.signers[r.Role].PublicKey()) || r.Comment != r.Role+"@test" || !strings.HasPrefix(r.Remote, "127.0.0.1:") || len(r.Files) == 0 {
			t.Errorf("%s: %+v", r.Action, r)
		}
		for _, f := range r.Files {
			if f.After == nil {
				continue
			}
			if got := digest(t, f.Path)[f.Path]; got != *f.After {
				t.Errorf("%s: %s is %s on disk, the audit says %s", r.Action, f.Path, got, *f.After)
			}
		}
	}
	memory := filepath.Join(state, "workspace", "MEMORY.md")
	if f := recs[0].Files[len(recs[0].Files)-1]; f.Path != memory || f.Before == nil || *f.Before != before[memory] {
		t.Errorf("promote's audit of MEMORY.md: %+v (before: %s)", f, before[memory])
	}
}

// One sweep per vault across every session and process: the vault's lock.
func TestServedSweepWaitsForTheVaultLock(t *testing.T) {
	state, vault := demoCopy(t)
	sw := startServed(t, state, vault)
	unlock, err := store.LockVault(vault, store.CurrentOwner("a test", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	_, stderr, code := sw.run(t, "operate", "observe")
	if code != 75 || !strings.Contains(stderr, "busy") {
		t.Errorf("a sweep while the vault is locked: exit %d, %q", code, stderr)
	}
}

// The sessions of a server share its search index: one session's search
// leaves it open for the next (a TUI's Search screen, another command),
// where each opening its own found it busy.
func TestServedSearchesShareTheIndex(t *testing.T) {
	state, vault := demoCopy(t)
	sw := startServed(t, state, vault)
	first, stderr, code := sw.run(t, "read", "search", "billing", "--json")
	if code != 0 || len(sw.shared.indexes.byDir) != 1 {
		t.Fatalf("exit %d, %s; %d indexes open", code, stderr, len(sw.shared.indexes.byDir))
	}
	again, stderr, code := sw.run(t, "curate", "search", "billing", "--json")
	if code != 0 || again != first {
		t.Errorf("the second search: exit %d, %s", code, stderr)
	}
	for _, ix := range sw.shared.indexes.byDir {
		if _, err := ix.Search(context.Background(), "billing", search.SearchOptions{Limit: 1}); err != nil {
			t.Errorf("the shared index was closed after the searches: %v", err)
		}
	}
}
