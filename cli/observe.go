package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"clawvault-tui/model"
	"clawvault-tui/observer"
	"clawvault-tui/store"
)

// observeFlags are the flags of `clawvault-tui observe`.
type observeFlags struct {
	dryRun, includeResets, compat, noProgress bool
	minNew                                    int64
	maxSessions                               int
	compressor, now                           string
	watch                                     time.Duration
}

func (a *app) observeCommand() *cobra.Command {
	var f observeFlags
	c := &cobra.Command{
		Use:   "observe",
		Short: "An observation sweep, as ClawVault's Active Session Observer (--dry-run: what it would take)",
		Long: `An observation sweep: discover the sessions, select those over their
threshold, read their new lines, compress them into observations, route them
into the vault and move the cursors, writing what ClawVault 3.5.2 writes.
--dry-run prints what the next sweep would observe, exactly as
` + "`clawvault observe --active --dry-run`" + ` prints it. One agent: --agent, else
$OPENCLAW_AGENT_ID, else main; --all-agents sweeps every agent.

Exit codes: 1 when a session could not be observed, 75 when another sweep
holds the vault, 130 when interrupted.`,
		Example: `clawvault-tui observe --dry-run
clawvault-tui observe --max-sessions 3
clawvault-tui observe --watch 5m --compressor llm`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			return a.observe(f)
		},
	}
	fs := c.Flags()
	fs.BoolVar(&f.dryRun, "dry-run", false, "list what the next sweep would observe, as ClawVault prints it")
	fs.Int64Var(&f.minNew, "min-new", 0, "minimum new bytes, overriding the scaled threshold")
	fs.IntVar(&f.maxSessions, "max-sessions", 0, "observe at most N sessions, the largest pending first")
	fs.BoolVar(&f.includeResets, "include-resets", false, "also observe the unobserved content of .jsonl.reset.<ts> archives")
	fs.StringVar(&f.compressor, "compressor", "rules", "rules (ClawVault's deterministic rules) or llm (a model; see clawvault-tui config)")
	fs.DurationVar(&f.watch, "watch", 0, "keep watching: every INTERVAL, sweep the sessions that crossed their threshold")
	fs.BoolVar(&f.compat, "clawvault-compat", false, "write exactly what ClawVault 3.5.2 would, its bugs included")
	fs.StringVar(&f.now, "now", "", "a fixed clock (RFC 3339) for the observations' and cursors' times")
	fs.BoolVar(&f.noProgress, "no-progress", false, "no progress bar on stderr")
	_ = c.RegisterFlagCompletionFunc("compressor", cobra.FixedCompletions([]cobra.Completion{"rules", "llm"}, cobra.ShellCompDirectiveNoFileComp))
	return c
}

func (a *app) observe(f observeFlags) error {
	stdout, stderr, common := a.human(), a.stderr, &a.common
	if f.minNew < 0 {
		return usageError("--min-new must be a positive number of bytes")
	}
	if f.maxSessions < 0 {
		return usageError("--max-sessions must be a positive number of sessions")
	}
	if f.compressor != "rules" && f.compressor != "llm" {
		return usageError("--compressor %q: use rules or llm", f.compressor)
	}
	if f.watch < 0 || f.watch > 0 && f.dryRun {
		return usageError("--watch takes a positive interval such as 30s, and does not go with --dry-run")
	}
	now := time.Now
	if f.now != "" {
		t, err := time.Parse(time.RFC3339, f.now)
		if err != nil {
			return usageError("--now %q is not a time such as 2026-11-21T12:00:00Z", f.now)
		}
		now = func() time.Time { return t }
	}
	ws, err := common.workspace()
	if err != nil {
		return err
	}
	if err := store.CheckVault(ws.Vault); err != nil {
		return err
	}
	// The agents status and the TUI show: every one, or the one --agent
	// names (ClawVault's own sweep takes agent main unless told).
	agents := observer.WorkspaceAgents(ws)
	if f.dryRun {
		return observeDryRun(a.ctx, ws, agents, f.minNew, f.includeResets, common.json, stdout)
	}

	fixes := observer.DefaultFixes()
	if f.compat {
		fixes = observer.Fixes{}
	}
	cfg, err := store.LoadConfig(store.ConfigPath(store.OSEnv()))
	if err != nil {
		return err
	}
	opt := observer.SweepOptions{Workspace: ws, Agents: agents, MinNewBytes: f.minNew, MaxSessions: f.maxSessions,
		IncludeResets: f.includeResets, Fixes: &fixes, Now: now, Command: strings.Join(append([]string{"clawvault-tui"}, a.args...), " "),
		MaxLineBytes: cfg.Transcripts.MaxLineBytes(), CacheDir: statsCacheDir(), WriteFS: a.writer()}
	if f.compressor == "llm" {
		if opt.Compressor, err = observer.NewCompressor("llm", cfg.LLM, os.Getenv, fixes); err != nil {
			return exitError{2, err}
		}
	}
	var bar *progressBar
	if file, ok := stderr.(*os.File); ok && !f.noProgress && term.IsTerminal(file.Fd()) {
		bar = &progressBar{w: stderr}
		opt.Progress = bar.update
	}
	ctx := a.ctx
	if f.watch > 0 {
		return observeWatch(ctx, opt, f.watch, common.json, stdout, stderr, bar)
	}
	report, err := observer.Sweep(ctx, opt)
	bar.clear()
	return finishSweep(report, err, common.json, stdout)
}

// finishSweep prints a sweep's report and turns its outcome into an exit.
func finishSweep(report *observer.SweepReport, err error, asJSON bool, stdout io.Writer) error {
	var busy *store.BusyError
	if errors.As(err, &busy) {
		return exitError{75, err}
	}
	// A sweep that stopped before it looked at anything (an unreadable
	// cursor file) has no text report: "no session crossed its threshold"
	// would be a guess. --json still gets its document.
	stoppedBlind := err != nil && report != nil && report.Checked == 0 && len(report.Observed) == 0
	if report != nil && !(stoppedBlind && !asJSON) {
		if asJSON {
			if werr := writeJSON(stdout, report); werr != nil {
				return werr
			}
		} else {
			writeSweepText(stdout, report)
		}
	}
	switch {
	case errors.Is(err, context.Canceled) && report != nil && report.Abandoned > 0:
		return exitError{130, errors.New("the sweep was interrupted: its last commit could not end within a second and was dropped whole; what it had not recorded waits for the next sweep")}
	case errors.Is(err, context.Canceled):
		return exitError{130, errors.New("the sweep was interrupted: what it finished is recorded, the rest waits for the next sweep")}
	case err != nil:
		return err
	case report != nil && len(report.Failed) > 0:
		return exitError{1, fmt.Errorf("%s could not be observed (see above); their cursors stay and the next sweep tries again", model.Plural(len(report.Failed), "session", "sessions"))}
	case report != nil && len(report.UnreadableStores) > 0:
		return exitError{1, errors.New(strings.Join(report.UnreadableStores, "; "))}
	}
	return nil
}

func observeWatch(ctx context.Context, opt observer.SweepOptions, interval time.Duration, asJSON bool, stdout, stderr io.Writer, bar *progressBar) error {
	fmt.Fprintf(stderr, "Watching every %s; Ctrl-C stops.\n", interval)
	failed := false
	err := observer.Watch(ctx, observer.WatchOptions{Sweep: opt, Interval: interval, OnLook: func(n int, r *observer.SweepReport, err error) {
		bar.clear()
		stamp := time.Now().Format("15:04:05")
		var busy *store.BusyError
		switch {
		case errors.As(err, &busy):
			fmt.Fprintf(stderr, "%s %v\n", stamp, err)
		case err != nil && r == nil:
			fmt.Fprintf(stderr, "%s the look failed: %v\n", stamp, err)
			failed = true
		case r == nil:
			if !asJSON {
				fmt.Fprintf(stdout, "%s nothing crossed its threshold\n", stamp)
			}
		case asJSON:
			_ = writeJSON(stdout, r)
		default:
			fmt.Fprintf(stdout, "%s ", stamp)
			writeSweepText(stdout, r)
			if err != nil && !errors.Is(err, context.Canceled) {
				fmt.Fprintf(stderr, "%s %v\n", stamp, err)
				failed = true
			}
		}
	}})
	if err != nil {
		return exitError{2, err}
	}
	if failed {
		return errors.New("some looks failed (see above)")
	}
	return nil
}

// observeDryRun prints ClawVault's dry-run lines; --include-resets adds a
// block of its own after them.
func observeDryRun(ctx context.Context, ws *store.Workspace, agents []string, minNew int64, includeResets, asJSON bool, stdout io.Writer) error {
	snap, err := store.Scan(ctx, store.OS, ws, store.ScanOptions{MinNewBytes: minNew, CacheDir: statsCacheDir()})
	if err != nil {
		return err
	}
	if err := cursorsReadable(snap, agents); err != nil {
		return err
	}
	// A store that cannot be read hides its sessions: the run fails,
	// naming it, after what could be read is printed.
	storeErrs := snap.StoreErrors(agents)
	var failed error
	if len(storeErrs) > 0 {
		failed = exitError{1, errors.New(strings.Join(storeErrs, "; "))}
	}
	var selections []observer.Selection
	var resets [][]observer.Candidate
	for _, id := range agents {
		selections = append(selections, observer.SelectWithSQLite(snap, id, minNew))
		if includeResets {
			resets = append(resets, observer.SelectResets(snap, id, minNew))
		} else {
			resets = append(resets, nil)
		}
	}
	if asJSON {
		doc := observeDoc{DryRun: true, Candidates: []observer.Candidate{}, Observed: []any{}, Errors: append([]string{}, storeErrs...)}
		for i, s := range selections {
			doc.Checked += s.Checked
			doc.Candidates = append(doc.Candidates, s.Candidates...)
			doc.NewBytes += s.NewBytes()
			doc.Candidates = append(doc.Candidates, resets[i]...)
			for _, c := range resets[i] {
				doc.NewBytes += c.NewBytes
			}
			doc.Checked += s.SQLiteChecked
			doc.Candidates = append(doc.Candidates, s.SQLite...)
			for _, c := range s.SQLite {
				doc.NewBytes += c.NewBytes
			}
		}
		if err := writeJSON(stdout, doc); err != nil {
			return err
		}
		return failed
	}
	for i, s := range selections {
		if len(selections) > 1 {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "Agent: %s\n", s.Agent)
		}
		if err := observer.WriteDryRun(stdout, s); err != nil {
			return err
		}
		if includeResets {
			var total int64
			for _, c := range resets[i] {
				total += c.NewBytes
			}
			fmt.Fprintf(stdout, "Reset archives (--include-resets): %d would be observed (%d new bytes).\n", len(resets[i]), total)
			for _, c := range resets[i] {
				fmt.Fprintf(stdout, "- %s [%s] \u0394%dB (%s)\n", esc(c.SessionKey), esc(c.Source), c.NewBytes, esc(c.CursorID))
			}
		}
		writeSQLiteDryRun(stdout, s, snap.Cursors.Seq)
	}
	return failed
}

// cursorsReadable stops a dry run where a sweep would stop: on a cursor
// file that exists and cannot be read (a FIFO, a link loop, a folder, no
// permission), and on a seq cursor file that cannot be read when a swept
// agent has SQLite-era sessions. ClawVault loads an unreadable file as
// empty and would list every session as never observed: that is a guess,
// and a sweep of ours refuses to make it.
func cursorsReadable(snap *store.Snapshot, agents []string) error {
	if err := snap.Cursors.ReadError; err != nil {
		return err
	}
	if snap.Cursors.Seq.ReadError == nil {
		return nil
	}
	for _, r := range snap.Rows {
		if r.Origin == model.OriginSQLite && r.Generation != nil && slices.Contains(agents, r.Agent) {
			return snap.Cursors.Seq.ReadError
		}
	}
	return nil
}

// writeSQLiteDryRun adds the block of the agent's SQLite-era sessions,
// which ClawVault cannot observe and a sweep of ours does.
func writeSQLiteDryRun(w io.Writer, s observer.Selection, seq model.SeqCursorState) {
	if s.SQLiteChecked == 0 {
		return
	}
	var total int64
	for _, c := range s.SQLite {
		total += c.NewBytes
	}
	fmt.Fprintf(w, "SQLite-era store (ClawVault 3.5.2 cannot observe it; clawvault-tui does, by seq): %d of %s would be observed (%d new bytes).\n",
		len(s.SQLite), model.Plural(s.SQLiteChecked, "session", "sessions"), total)
	for _, c := range s.SQLite {
		from := "from its first event"
		switch {
		case c.Seq.Restart != "":
			from = "from its first event again: " + esc(c.Seq.Restart)
		case c.Seq.AfterSeq >= 0:
			from = fmt.Sprintf("after seq %d", c.Seq.AfterSeq)
		}
		if c.Seq.Cold {
			from += ", from its cold archive"
		}
		fmt.Fprintf(w, "- %s [%s] \u0394%dB (threshold %dB), %s %s (%s)\n", esc(c.SessionKey), esc(c.Source), c.NewBytes, c.ThresholdBytes,
			model.Plural(c.Seq.Events, "event", "events"), from, esc(c.SessionID))
	}
	if seq.Corrupt != "" {
		fmt.Fprintf(w, "The seq cursor file %s cannot be used (%s): a sweep refuses to run until it is restored or moved aside.\n", esc(seq.Path), esc(seq.Corrupt))
	}
}

type observeDoc struct {
	DryRun     bool                 `json:"dryRun"`
	Checked    int                  `json:"checked"`
	Candidates []observer.Candidate `json:"candidates"`
	Observed   []any                `json:"observed"`
	Errors     []string             `json:"errors"`
	NewBytes   int64                `json:"newBytes"`
}

// writeSweepText prints a sweep report for people.
func writeSweepText(w io.Writer, r *observer.SweepReport) {
	for _, l := range r.TextLines() {
		fmt.Fprintln(w, esc(l.Text)) // one line each, whatever a key holds
	}
}

// progressBar draws a sweep's progress on a terminal, at most ten times a
// second.
type progressBar struct {
	w     io.Writer
	last  time.Time
	drawn bool
}

func (b *progressBar) update(p observer.Progress) {
	if b == nil || p.Total == 0 && p.Stage != "flush" {
		return
	}
	if time.Since(b.last) < 100*time.Millisecond && p.Stage != "flush" {
		return
	}
	b.last = time.Now()
	frac := 0.0
	if p.Total > 0 {
		frac = min(1, float64(p.Done)/float64(p.Total))
	}
	const width = 24
	filled := int(frac * width)
	item := p.Item
	if len([]rune(item)) > 32 {
		item = string([]rune(item)[:31]) + "…"
	}
	line := fmt.Sprintf("\r[%s%s] %3.0f%% %s/%s · %d/%d sessions · %d observations · %s %s",
		strings.Repeat("█", filled), strings.Repeat("░", width-filled), frac*100, model.Bytes(p.Done), model.Bytes(p.Total),
		p.Sessions, p.SessionsTotal, p.Observations, p.Stage, item)
	fmt.Fprint(b.w, line+"\x1b[K")
	b.drawn = true
}

func (b *progressBar) clear() {
	if b != nil && b.drawn {
		fmt.Fprint(b.w, "\r\x1b[K")
		b.drawn = false
	}
}
