package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"clawvault-tui/model"
)

// fleetFlags are the flags of `clawvault-tui fleet status`.
type fleetFlags struct {
	timeout   time.Duration
	sshConfig string
	problems  bool
}

func (a *app) fleetCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "fleet",
		Short: "Commands over several gateway hosts at once, through your ssh",
		Args:  noArgs,
		RunE:  func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	c.AddCommand(a.fleetStatusCommand())
	return c
}

func (a *app) fleetStatusCommand() *cobra.Command {
	var f fleetFlags
	c := &cobra.Command{
		Use:   "status DEST...",
		Short: "status of every host's sessions in one table, with a host column",
		Long: `Runs ` + "`status --json`" + ` on each DEST through the system's ssh client (so
~/.ssh/config, ProxyJump and your agent work as they do for you), each host
served by ` + "`clawvault-tui serve`" + `, and prints one table with a host column, or
with --json one document: the hosts, and every session with its host. A
host that does not answer within --timeout, or refuses, is a row with its
error; the others are printed all the same (exit code 1 then).

DEST is what ssh takes: a Host of your ssh config (with its Port 23234), or
ssh://[user@]host:23234.`,
		Example: `clawvault-tui fleet status ssh://gateway:23234 ssh://pi.lan:23234
clawvault-tui fleet status --json --agent main gw-home gw-office`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("fleet status needs at least one DEST, as in: clawvault-tui fleet status ssh://gateway:23234")
			}
			return nil
		},
		RunE: func(c *cobra.Command, dests []string) error {
			return a.fleetStatus(f, dests)
		},
	}
	c.Flags().DurationVar(&f.timeout, "timeout", 20*time.Second, "the most each host may take to answer")
	c.Flags().StringVar(&f.sshConfig, "ssh-config", "", "the ssh config file FILE (ssh -F; default: ssh's own)")
	c.Flags().BoolVar(&f.problems, "problems", false, "only sessions with a problem")
	_ = c.MarkFlagFilename("ssh-config")
	return c
}

// hostStatus is what one host answered.
type hostStatus struct {
	Host     string
	StateDir string
	Vault    string
	// Sessions are the host's status sessions, as it wrote them.
	Sessions []json.RawMessage
	Err      error
}

func (a *app) fleetStatus(f fleetFlags, dests []string) error {
	if f.timeout <= 0 {
		return usageError("--timeout must be a duration such as 20s")
	}
	args := []string{"status", "--json"}
	loc := a.common.locate
	switch {
	case loc.AllAgents:
		args = append(args, "--all-agents")
	case loc.Agent != "":
		args = append(args, "--agent", loc.Agent)
	}
	if f.problems {
		args = append(args, "--problems")
	}
	hosts := make([]hostStatus, len(dests))
	var wg sync.WaitGroup
	sem := make(chan struct{}, fleetParallel)
	for i, dest := range dests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			hosts[i] = askHost(a.ctx, f, dest, args)
		}()
	}
	wg.Wait()
	var err error
	if a.common.json {
		err = writeFleetJSON(a.stdout, hosts)
	} else {
		err = writeFleetText(a.human(), hosts, time.Now())
	}
	if err != nil {
		return err
	}
	for _, h := range hosts {
		if h.Err != nil {
			return exitError{1, fmt.Errorf("%d of %s did not answer (the table says why)", failed(hosts), model.Plural(len(hosts), "host", "hosts"))}
		}
	}
	return nil
}

// fleetParallel is how many ssh clients run at once.
const fleetParallel = 8

// maxStatusBytes bounds what one host may send.
const maxStatusBytes = 256 << 20

func failed(hosts []hostStatus) int {
	n := 0
	for _, h := range hosts {
		if h.Err != nil {
			n++
		}
	}
	return n
}

// askHost runs status on one host through ssh, within the timeout: ssh is
// killed at the deadline, whatever it waits on.
func askHost(ctx context.Context, f fleetFlags, dest string, args []string) hostStatus {
	h := hostStatus{Host: dest}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	sshArgs := []string{"-o", "BatchMode=yes", "-o", "ConnectTimeout=" + strconv.Itoa(max(1, int(f.timeout/time.Second)))}
	if f.sshConfig != "" {
		sshArgs = append(sshArgs, "-F", f.sshConfig)
	}
	sshArgs = append(append(sshArgs, "--", dest), args...)
	cmd := exec.CommandContext(ctx, "ssh", sshArgs...)
	var stdout limitedBuffer
	var stderr bytes.Buffer
	stdout.limit = maxStatusBytes
	cmd.Stdout, cmd.Stderr = &stdout, &limitedWriter{w: &stderr, left: 64 << 10}
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		h.Err = fmt.Errorf("no answer within %s", f.timeout)
	case stdout.over:
		h.Err = fmt.Errorf("sent more than %d bytes", maxStatusBytes)
	case err != nil:
		h.Err = sshFailure(err, stderr.String())
	default:
		h.Err = h.decode(stdout.Bytes())
	}
	return h
}

// sshFailure is why ssh failed: the last line it (or the remote command)
// wrote, else its exit.
func sshFailure(err error, stderr string) error {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
		return errors.New(strings.TrimPrefix(last, "clawvault-tui: "))
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("ssh exited with %d", exit.ExitCode())
	}
	return err
}

func (h *hostStatus) decode(data []byte) error {
	var doc struct {
		StateDir string            `json:"stateDir"`
		Vault    string            `json:"vault"`
		Sessions []json.RawMessage `json:"sessions"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("its status --json did not parse (%v): is it clawvault-tui serve?", err)
	}
	h.StateDir, h.Vault, h.Sessions = doc.StateDir, doc.Vault, doc.Sessions
	return nil
}

// limitedBuffer keeps up to limit bytes, and says when more came.
type limitedBuffer struct {
	bytes.Buffer
	limit int
	over  bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.limit {
		b.over = true
		return 0, errors.New("too much output")
	}
	return b.Buffer.Write(p)
}

// limitedWriter keeps the first bytes written, and drops the rest.
type limitedWriter struct {
	w    io.Writer
	left int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.left > 0 {
		n := min(len(p), l.left)
		l.left -= n
		_, _ = l.w.Write(p[:n])
	}
	return len(p), nil
}

// fleetSession is what the table shows of a session.
type fleetSession struct {
	Agent          string  `json:"agent"`
	SessionKey     string  `json:"sessionKey"`
	SessionID      string  `json:"sessionId"`
	SizeBytes      int64   `json:"sizeBytes"`
	LastObservedAt *string `json:"lastObservedAt"`
	PendingBytes   int64   `json:"pendingBytes"`
	ThresholdBytes int64   `json:"thresholdBytes"`
	Diagnosis      []struct {
		Code string `json:"code"`
	} `json:"diagnosis"`
}

func writeFleetText(w io.Writer, hosts []hostStatus, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tAGENT\tKEY\tSIZE\tOBSERVED\tPENDING\tTHRESHOLD\tSTATE")
	for _, h := range hosts {
		if h.Err != nil {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\terror: %s\n", esc(h.Host), esc(h.Err.Error()))
			continue
		}
		if len(h.Sessions) == 0 {
			fmt.Fprintf(tw, "%s\t-\t(no sessions)\t-\t-\t-\t-\t-\n", esc(h.Host))
		}
		for _, raw := range h.Sessions {
			var s fleetSession
			if err := json.Unmarshal(raw, &s); err != nil {
				continue
			}
			key := s.SessionKey
			if key == "" {
				key = s.SessionID
			}
			var codes []string
			for _, d := range s.Diagnosis {
				codes = append(codes, d.Code)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", esc(h.Host), esc(s.Agent), shortKey(esc(key), 44), model.Bytes(s.SizeBytes),
				observedAgo(s.LastObservedAt, now), model.Bytes(s.PendingBytes), model.Bytes(s.ThresholdBytes), esc(strings.Join(codes, ",")))
		}
	}
	return tw.Flush()
}

// observedAgo is a session's last observation as the status table says it.
func observedAgo(at *string, now time.Time) string {
	if at == nil {
		return "never"
	}
	t, err := time.Parse(time.RFC3339, *at)
	if err != nil {
		return "?"
	}
	return model.Ago(now.Sub(t)) + " ago"
}

// fleetHostDoc is a host in `fleet status --json`.
type fleetHostDoc struct {
	Host     string  `json:"host"`
	StateDir string  `json:"stateDir,omitempty"`
	Vault    string  `json:"vault,omitempty"`
	Sessions int     `json:"sessions"`
	Error    *string `json:"error"`
}

// writeFleetJSON writes {"hosts":[…],"sessions":[…]}: each session as its
// host's status --json wrote it, with "host" first.
func writeFleetJSON(w io.Writer, hosts []hostStatus) error {
	doc := struct {
		Hosts    []fleetHostDoc    `json:"hosts"`
		Sessions []json.RawMessage `json:"sessions"`
	}{Hosts: []fleetHostDoc{}, Sessions: []json.RawMessage{}}
	for _, h := range hosts {
		hd := fleetHostDoc{Host: h.Host, StateDir: h.StateDir, Vault: h.Vault, Sessions: len(h.Sessions)}
		if h.Err != nil {
			msg := h.Err.Error()
			hd.Error = &msg
		}
		doc.Hosts = append(doc.Hosts, hd)
		host, _ := json.Marshal(h.Host)
		for _, s := range h.Sessions {
			s = bytes.TrimSpace(s)
			if len(s) < 2 || s[0] != '{' {
				continue
			}
			merged := append(append([]byte(`{"host":`), host...), ',')
			if rest := bytes.TrimSpace(s[1:]); len(rest) > 0 && rest[0] == '}' {
				merged = append(merged[:len(merged)-1], '}')
			} else {
				merged = append(merged, s[1:]...)
			}
			doc.Sessions = append(doc.Sessions, merged)
		}
	}
	return writeJSON(w, doc)
}
