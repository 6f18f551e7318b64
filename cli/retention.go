package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/observer"
	"clawvault-tui/store"
)

// retentionFlags are the flags of `clawvault-tui retention`.
type retentionFlags struct {
	common             *commonFlags
	apply, dryRun      bool
	undo               string
	now                string
	configPath         string
	archiveDir         string
	only               string
	activeKey          string
	fixMissing         bool
	pruneAfter         string
	maxEntries         string
	resetArchive       string
	maxDisk, highWater string
	cronRetention      string
	maxAgeDays         int
	maxSizeMB          float64
	heartbeats         bool
	olderThan          int
	includeUnobserved  bool
	wait               time.Duration
	set                func(name string) bool // whether the flag was given
}

func (f *retentionFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.dryRun, "dry-run", true, "print the plan and change nothing")
	fs.BoolVar(&f.apply, "apply", false, "carry out the maintenance and ledger plans, moving files into a dated archive folder (never deleting)")
	fs.StringVar(&f.undo, "undo", "", "put back everything an apply moved, from its MANIFEST (manifest.json or its folder)")
	fs.StringVar(&f.now, "now", "", "the plan's clock, RFC 3339 (default: now)")
	fs.StringVar(&f.configPath, "config", "", "the config file (default: "+store.ConfigPath(store.OSEnv())+")")
	fs.StringVar(&f.archiveDir, "archive-dir", "", "where --apply keeps what it moves (default: <state dir>/clawvault-tui-retention)")
	fs.StringVar(&f.only, "only", "", "plan only some of: maintenance,transcripts,ledger,sqlite")
	fs.StringVar(&f.activeKey, "active-key", "", "spare this session key from the disk budget, as openclaw's --active-key")
	fs.BoolVar(&f.fixMissing, "fix-missing", false, "also prune rows whose transcript is missing, as openclaw's --fix-missing")
	fs.StringVar(&f.pruneAfter, "prune-after", "", "what if session.maintenance.pruneAfter were this (e.g. 30d)")
	fs.StringVar(&f.maxEntries, "max-entries", "", "what if maxEntries were this")
	fs.StringVar(&f.resetArchive, "reset-archive-retention", "", "what if resetArchiveRetention were this (a duration, or false)")
	fs.StringVar(&f.maxDisk, "max-disk-bytes", "", "what if maxDiskBytes were this (e.g. 2gb)")
	fs.StringVar(&f.highWater, "high-water-bytes", "", "what if highWaterBytes were this (e.g. 1.6gb)")
	fs.StringVar(&f.cronRetention, "cron-retention", "", "what if cron.sessionRetention were this (a duration, or false)")
	fs.IntVar(&f.maxAgeDays, "max-age-days", 0, "transcripts: drop entries older than this many days (0: off)")
	fs.Float64Var(&f.maxSizeMB, "max-size-mb", 0, "transcripts: drop the oldest entries beyond this size (0: off)")
	fs.BoolVar(&f.heartbeats, "heartbeats", true, "transcripts: drop turns answered only HEARTBEAT_OK or NO_REPLY")
	fs.IntVar(&f.olderThan, "older-than", 0, "ledger: archive observation days older than this (default 14, as clawvault archive)")
	fs.BoolVar(&f.includeUnobserved, "include-unobserved", false, "With --apply, also move transcripts holding bytes no sweep has observed (by default they stay until a sweep has)")
	fs.DurationVar(&f.wait, "wait", 0, "With --apply or --undo, wait up to this long for a sweep that holds the vault (default: refuse at once)")
}

// maintenanceLayer is the what-if flags as a settings layer.
func (f *retentionFlags) maintenanceLayer() model.MaintenanceSettings {
	set := func(name, v string) model.Setting {
		if v == "" {
			return model.Setting{}
		}
		return model.Setting{Value: v, Source: "--" + name}
	}
	return model.MaintenanceSettings{
		PruneAfter: set("prune-after", f.pruneAfter), MaxEntries: set("max-entries", f.maxEntries),
		ResetArchiveRetention: set("reset-archive-retention", f.resetArchive), MaxDiskBytes: set("max-disk-bytes", f.maxDisk),
		HighWaterBytes: set("high-water-bytes", f.highWater), CronRetention: set("cron-retention", f.cronRetention),
	}
}

func (a *app) retentionCommand() *cobra.Command {
	f := retentionFlags{common: &a.common}
	c := &cobra.Command{
		Use:   "retention",
		Short: "What session maintenance, transcript retention and the ledger archive would remove; --apply moves it",
		Long: `The retention dry-runs: what OpenClaw's session maintenance
(` + "`openclaw sessions cleanup --enforce`" + `, then the cron reaper), the transcript
retain policy and ClawVault's ledger archive (` + "`clawvault archive`" + `) would
remove, with the bytes each action frees and where each setting came from;
and, beside each agent's SQLite-era store, the leftover JSONL whose every
entry is in the store (import-verified) and the memory reindex's temp
databases no OpenClaw process holds. Nothing changes unless --apply, which
moves what maintenance, the ledger archive and the SQLite-era plan remove
into a dated archive folder (nothing is deleted); --undo MANIFEST puts it
all back. Transcript rewrites are never applied.`,
		Example: `# The plan, and what if the disk budget were set:
clawvault-tui retention
clawvault-tui retention --agent main --max-disk-bytes 2gb --high-water-bytes 1.6gb

# Carry it out, then put it all back (the apply prints the manifest's path):
clawvault-tui retention --apply
clawvault-tui retention --undo MANIFEST`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			f.set = func(name string) bool { return c.Flags().Changed(name) }
			return a.retention(f)
		},
	}
	f.register(c.Flags())
	_ = c.MarkFlagFilename("undo", "json")
	_ = c.MarkFlagFilename("config", "toml")
	_ = c.MarkFlagDirname("archive-dir")
	_ = c.RegisterFlagCompletionFunc("only", cobra.FixedCompletions([]cobra.Completion{"maintenance", "transcripts", "ledger", "sqlite"}, cobra.ShellCompDirectiveNoFileComp))
	return c
}

func (a *app) retention(f retentionFlags) error {
	stdout := a.human()
	if f.apply && f.set("dry-run") && f.dryRun {
		return usageError("--apply and --dry-run contradict each other: pick one")
	}
	if f.undo != "" && (f.apply || f.set("dry-run")) {
		return usageError("--undo MANIFEST runs alone, without --apply or --dry-run")
	}
	ctx := a.ctx
	if f.undo != "" {
		return retentionUndo(ctx, a, f, stdout)
	}
	opt, err := f.planOptions()
	if err != nil {
		return err
	}
	plan, err := observer.PlanRetention(ctx, opt)
	if err != nil {
		return err
	}
	var applied *appliedDoc
	if f.apply {
		apply := f.applyOptions(a, archiveRoot(f, opt))
		apply.Workspace, apply.CacheDir = opt.Workspace, opt.CacheDir
		man, path, err := observer.ApplyRetention(ctx, plan, apply)
		switch {
		case observer.IsNothingToApply(err):
			applied = &appliedDoc{Nothing: true, Why: err.Error()}
		case err != nil:
			return busyExit(err)
		default:
			applied = appliedJSON(man, path)
		}
	}
	if f.common.json {
		doc := retentionJSON(plan)
		doc.DryRun = !f.apply
		for i := range doc.Maintenance {
			doc.Maintenance[i].DryRun = doc.DryRun
		}
		doc.Applied = applied
		return writeJSON(stdout, doc)
	}
	return writeRetentionText(stdout, plan, applied)
}

// archiveRoot is where an apply keeps what it moves: --archive-dir, else
// the config's, else the state dir's clawvault-tui-retention.
func archiveRoot(f retentionFlags, opt observer.RetentionOptions) string {
	root := f.archiveDir
	if root == "" {
		root = opt.Config.ArchiveDir
	}
	if root == "" {
		root = observer.DefaultArchiveRoot(opt.Workspace)
	}
	return root
}

// planOptions resolves the workspace, the config file and the flags.
func (f *retentionFlags) planOptions() (observer.RetentionOptions, error) {
	var opt observer.RetentionOptions
	ws, err := f.common.workspace()
	if err != nil {
		return opt, err
	}
	cfgPath := f.configPath
	if cfgPath == "" {
		cfgPath = store.ConfigPath(store.OSEnv())
	}
	cfg, err := store.LoadConfig(cfgPath)
	if err != nil {
		return opt, err
	}
	opt = observer.RetentionOptions{
		Workspace: ws, Config: cfg.Retention, Maintenance: f.maintenanceLayer(),
		ActiveKey: f.activeKey, FixMissing: f.fixMissing, OlderThanDays: f.olderThan,
		CacheDir: statsCacheDir(), MaxLineBytes: cfg.Transcripts.MaxLineBytes(),
	}
	if f.now != "" {
		if opt.Now, err = time.Parse(time.RFC3339, f.now); err != nil {
			return opt, usageError("--now %q is not an RFC 3339 time such as 2026-11-21T12:00:00Z", f.now)
		}
	}
	if f.set("max-age-days") {
		if f.maxAgeDays < 0 {
			return opt, usageError("--max-age-days must be 0 (off) or more")
		}
		opt.Transcripts.MaxAgeDays = &f.maxAgeDays
	}
	if f.set("max-size-mb") {
		if f.maxSizeMB < 0 || math.IsNaN(f.maxSizeMB) {
			return opt, usageError("--max-size-mb must be 0 (off) or more")
		}
		opt.Transcripts.MaxSizeMB = &f.maxSizeMB
	}
	if f.set("heartbeats") {
		opt.Transcripts.Heartbeats = &f.heartbeats
	}
	if f.set("older-than") && f.olderThan <= 0 {
		return opt, usageError("--older-than must be a positive number of days, not %d", f.olderThan)
	}
	if f.only != "" {
		opt.SkipMaintenance, opt.SkipTranscripts, opt.SkipLedger, opt.SkipSQLite = true, true, true, true
		for _, p := range strings.Split(f.only, ",") {
			switch strings.TrimSpace(p) {
			case "maintenance":
				opt.SkipMaintenance = false
			case "transcripts":
				opt.SkipTranscripts = false
			case "ledger":
				opt.SkipLedger = false
			case "sqlite":
				opt.SkipSQLite = false
			default:
				return opt, usageError("--only takes maintenance, transcripts, ledger and sqlite, not %q", p)
			}
		}
	}
	return opt, nil
}

// applyOptions are what --apply and --undo take from the flags.
func (f retentionFlags) applyOptions(a *app, root string) observer.ApplyOptions {
	return observer.ApplyOptions{ArchiveRoot: root, IncludeUnobserved: f.includeUnobserved, Wait: f.wait, Mover: a.mover(),
		Command: "clawvault-tui " + strings.Join(a.args, " "),
		OnWait: func(o store.LockOwner) {
			fmt.Fprintf(a.stderr, "Waiting up to %s for the sweep that holds the vault (pid %d, started %s) to finish…\n", f.wait, o.PID, o.StartedAt)
		}}
}

// busyExit gives a vault a sweep holds exit code 75, and says how to wait.
func busyExit(err error) error {
	var busy *store.BusyError
	if errors.As(err, &busy) {
		return exitError{75, fmt.Errorf("%w (or pass --wait 5m)", err)}
	}
	return err
}

func retentionUndo(ctx context.Context, a *app, f retentionFlags, stdout io.Writer) error {
	if a.remote != nil {
		opt, err := f.planOptions()
		if err != nil {
			return err
		}
		if err := checkRemoteManifest(f.undo, archiveRoot(f, opt)); err != nil {
			return err
		}
	}
	undo := f.applyOptions(a, "")
	// The workspace, when there is one, names the state dir a manifest
	// outside its own may move files into.
	undo.Workspace, _ = store.Locate(store.OSEnv(), f.common.locate)
	man, err := observer.UndoRetention(ctx, f.undo, undo)
	if err != nil {
		return busyExit(err)
	}
	stores, moves := len(man.Stores), len(man.Moves)
	if f.common.json {
		return writeJSON(stdout, struct {
			Undone     bool   `json:"undone"`
			ArchiveDir string `json:"archiveDir"`
			Stores     int    `json:"stores"`
			Moves      int    `json:"moves"`
		}{true, man.ArchiveDir, stores, moves})
	}
	fmt.Fprintf(stdout, "Undone: %s moved back and %d sessions.json restored, as they were before the apply of %s.\n", model.Plural(moves, "file", "files"), stores, man.CreatedAt)
	fmt.Fprintf(stdout, "%s keeps only its manifest now (status %q).\n", man.ArchiveDir, man.Status)
	return nil
}

// --- JSON (a contract: fields are added, never renamed) ---

type retentionDoc struct {
	DryRun      bool             `json:"dryRun"`
	Now         string           `json:"now"`
	StateDir    string           `json:"stateDir"`
	Vault       string           `json:"vault"`
	Maintenance []maintenanceDoc `json:"maintenance"`
	Transcripts transcriptsDoc   `json:"transcripts"`
	Ledger      *ledgerDoc       `json:"ledger"`
	// SQLite is the SQLite era's part (null when no agent has a store).
	SQLite   *sqliteRetentionDoc `json:"sqlite"`
	Totals   retentionTotalDoc   `json:"totals"`
	Problems []string            `json:"problems"`
	Applied  *appliedDoc         `json:"applied"`
}

// maintenanceDoc starts with `openclaw sessions cleanup --json`'s fields.
type maintenanceDoc struct {
	AgentID     string                    `json:"agentId"`
	StorePath   string                    `json:"storePath"`
	Mode        string                    `json:"mode"`
	DryRun      bool                      `json:"dryRun"`
	BeforeCount int                       `json:"beforeCount"`
	AfterCount  int                       `json:"afterCount"`
	Missing     int                       `json:"missing"`
	Pruned      int                       `json:"pruned"`
	Capped      int                       `json:"capped"`
	DiskBudget  *model.DiskBudget         `json:"diskBudget"`
	WouldMutate bool                      `json:"wouldMutate"`
	CronPruned  int                       `json:"cronPruned"`
	FinalCount  int                       `json:"finalCount"`
	FreedBytes  int64                     `json:"freedBytes"`
	ActiveKey   string                    `json:"activeKey,omitempty"`
	Settings    model.MaintenanceSettings `json:"settings"`
	Warnings    []string                  `json:"warnings"`
	Actions     []rowActionDoc            `json:"actions"`
	Files       []fileActionDoc           `json:"files"`
}

type rowActionDoc struct {
	Action          string  `json:"action"`
	Key             string  `json:"key"`
	SessionID       string  `json:"sessionId"`
	UpdatedAt       *string `json:"updatedAt"`
	Transcript      string  `json:"transcript,omitempty"`
	TranscriptBytes int64   `json:"transcriptBytes"`
	RowBytes        int64   `json:"rowBytes"`
	FreedBytes      int64   `json:"freedBytes"`
	Protected       bool    `json:"protected,omitempty"`
}

type fileActionDoc struct {
	Step       string `json:"step"`
	Path       string `json:"path"`
	SizeBytes  int64  `json:"sizeBytes"`
	ModifiedAt string `json:"modifiedAt"`
	Key        string `json:"key,omitempty"`
	BudgetToo  bool   `json:"budgetToo,omitempty"`
	// UnobservedBytes no sweep has observed; HeldUntilObserved: --apply
	// leaves the file (and its row) until a sweep has.
	UnobservedBytes   int64 `json:"unobservedBytes"`
	HeldUntilObserved bool  `json:"heldUntilObserved"`
}

type transcriptsDoc struct {
	Checked   int             `json:"checked"`
	DropBytes int64           `json:"dropBytes"`
	Applied   bool            `json:"applied"`
	Plans     []transcriptDoc `json:"plans"`
}

type transcriptDoc struct {
	Agent          string                     `json:"agent"`
	SessionKey     string                     `json:"sessionKey"`
	SessionID      string                     `json:"sessionId"`
	File           string                     `json:"file"`
	SizeBytes      int64                      `json:"sizeBytes"`
	Entries        int                        `json:"entries"`
	HeartbeatTurns int                        `json:"heartbeatTurns"`
	Drop           map[string]model.DropCount `json:"drop"`
	DropBytes      int64                      `json:"dropBytes"`
	KeptBytes      int64                      `json:"keptBytes"`
	Policy         policyDoc                  `json:"policy"`
	Cursor         *cursorEffectDoc           `json:"cursor"`
}

type policyDoc struct {
	MaxAgeDays   int   `json:"maxAgeDays"`
	MaxSizeBytes int64 `json:"maxSizeBytes"`
	Heartbeats   bool  `json:"heartbeats"`
}

type cursorEffectDoc struct {
	CursorID      string `json:"cursorId"`
	Offset        int64  `json:"offset"`
	NewOffset     int64  `json:"newOffset"`
	DroppedBefore int64  `json:"droppedBefore"`
	Invalidated   bool   `json:"invalidated"`
	RereadBytes   int64  `json:"rereadBytes"`
	SkippedBytes  int64  `json:"skippedBytes"`
}

type ledgerDoc struct {
	Vault         string          `json:"vault"`
	OlderThanDays int             `json:"olderThanDays"`
	Cutoff        string          `json:"cutoff"`
	Scanned       int             `json:"scanned"`
	Archived      int             `json:"archived"`
	Bytes         int64           `json:"bytes"`
	Files         []ledgerMoveDoc `json:"files"`
	Shadowed      []string        `json:"shadowed"`
	Reflect       reflectDoc      `json:"reflect"`
}

type ledgerMoveDoc struct {
	Date      string `json:"date"`
	From      string `json:"from"`
	To        string `json:"to"`
	Location  string `json:"location"`
	SizeBytes int64  `json:"sizeBytes"`
	Conflict  bool   `json:"conflict,omitempty"`
}

type reflectDoc struct {
	OlderThanDays int `json:"olderThanDays"`
	Archived      int `json:"archived"`
}

type retentionTotalDoc struct {
	MaintenanceBytes int64 `json:"maintenanceBytes"`
	TranscriptBytes  int64 `json:"transcriptBytes"`
	LedgerBytes      int64 `json:"ledgerBytes"`
	SQLiteBytes      int64 `json:"sqliteBytes"`
}

type appliedDoc struct {
	Nothing bool `json:"nothing"`
	// Why says why there was nothing to apply.
	Why string `json:"why,omitempty"`
	// Kept are the transcripts left in place because no sweep has observed
	// all of them, and their unobserved bytes; UnobservedMoved what
	// --include-unobserved moved of such bytes.
	Kept            int    `json:"kept"`
	KeptBytes       int64  `json:"keptUnobservedBytes"`
	UnobservedMoved int64  `json:"unobservedMoved"`
	ArchiveDir      string `json:"archiveDir,omitempty"`
	Manifest        string `json:"manifest,omitempty"`
	Stores          int    `json:"stores"`
	RowsRemoved     int    `json:"rowsRemoved"`
	Moved           int    `json:"moved"`
	MovedBytes      int64  `json:"movedBytes"`
	LedgerMoved     int    `json:"ledgerMoved"`
	// SQLiteMoved are the files moved from beside the SQLite-era stores.
	SQLiteMoved int `json:"sqliteMoved"`
}

func appliedJSON(man *model.RetentionManifest, path string) *appliedDoc {
	d := &appliedDoc{ArchiveDir: man.ArchiveDir, Manifest: path, Stores: len(man.Stores), Moved: len(man.Moves), UnobservedMoved: man.UnobservedMoved}
	d.Kept, d.KeptBytes = man.KeptBytes()
	for _, s := range man.Stores {
		d.RowsRemoved += len(s.RemovedKeys)
	}
	for _, mv := range man.Moves {
		d.MovedBytes += mv.Size
		switch mv.Plan {
		case "ledger":
			d.LedgerMoved++
		case "sqlite":
			d.SQLiteMoved++
		}
	}
	return d
}

func retentionJSON(p *model.RetentionPlan) retentionDoc {
	doc := retentionDoc{
		Now: jscompat.FormatISOTime(p.Now), StateDir: p.StateDir, Vault: p.Vault,
		Maintenance: []maintenanceDoc{}, Problems: nonNil(p.Problems),
		Transcripts: transcriptsDoc{Checked: p.TranscriptsChecked, DropBytes: p.TranscriptBytes(), Plans: []transcriptDoc{}},
		Totals:      retentionTotalDoc{MaintenanceBytes: p.MaintenanceBytes(), TranscriptBytes: p.TranscriptBytes(), LedgerBytes: p.LedgerBytes(), SQLiteBytes: p.SQLite.Bytes()},
		SQLite:      sqliteRetentionJSON(p.SQLite),
	}
	for _, m := range p.Maintenance {
		d := maintenanceDoc{
			AgentID: m.Agent, StorePath: m.StorePath, Mode: m.Policy.Mode, DryRun: true, BeforeCount: m.BeforeCount,
			AfterCount: m.AfterCount, Missing: m.Missing, Pruned: m.Pruned, Capped: m.Capped, DiskBudget: m.Budget,
			WouldMutate: m.WouldMutate(), CronPruned: m.CronPruned, FinalCount: m.FinalCount, FreedBytes: m.FreedBytes(),
			ActiveKey: m.ActiveKey, Settings: m.Policy.Settings, Warnings: nonNil(m.Warnings),
			Actions: []rowActionDoc{}, Files: []fileActionDoc{},
		}
		for _, r := range m.Rows {
			rd := rowActionDoc{Action: string(r.Action), Key: r.Key, SessionID: r.SessionID, Transcript: r.Transcript,
				TranscriptBytes: r.TranscriptBytes, RowBytes: r.RowBytes, FreedBytes: r.FreedBytes, Protected: r.Protected}
			if ms := r.UpdatedAt.Ms(); ms > 0 {
				s := jscompat.FormatISOTime(time.UnixMilli(ms))
				rd.UpdatedAt = &s
			}
			d.Actions = append(d.Actions, rd)
		}
		for _, f := range m.Files {
			d.Files = append(d.Files, fileActionDoc{Step: string(f.Step), Path: f.Path, SizeBytes: f.Size,
				ModifiedAt: jscompat.FormatISOTime(f.ModTime), Key: f.Key, BudgetToo: f.BudgetToo, UnobservedBytes: f.Unobserved, HeldUntilObserved: f.Held()})
		}
		doc.Maintenance = append(doc.Maintenance, d)
	}
	for _, t := range p.Transcripts {
		td := transcriptDoc{
			Agent: t.Agent, SessionKey: t.Key, SessionID: t.SessionID, File: t.File, SizeBytes: t.Size, Entries: t.Entries,
			HeartbeatTurns: t.HeartbeatTurns, DropBytes: t.DropBytes(), KeptBytes: t.KeptBytes, Drop: map[string]model.DropCount{},
			Policy: policyDoc{MaxAgeDays: t.Policy.MaxAgeDays, MaxSizeBytes: t.Policy.MaxSizeBytes, Heartbeats: t.Policy.Heartbeats},
		}
		for r, c := range t.Drops {
			td.Drop[model.DropReason(r).String()] = c
		}
		if c := t.Cursor; c != nil {
			td.Cursor = &cursorEffectDoc{c.CursorID, c.Offset, c.NewOffset, c.DroppedBefore, c.Invalidated, c.RereadBytes, c.SkippedBytes}
		}
		doc.Transcripts.Plans = append(doc.Transcripts.Plans, td)
	}
	if l := p.Ledger; l != nil {
		ld := &ledgerDoc{Vault: p.Vault, OlderThanDays: l.OlderThanDays, Cutoff: l.Cutoff, Scanned: l.Scanned,
			Archived: l.Archived(), Bytes: l.Bytes(), Files: []ledgerMoveDoc{}, Shadowed: []string{}}
		for _, mv := range l.Moves {
			ld.Files = append(ld.Files, ledgerMoveDoc{Date: mv.Date, From: mv.Rel, To: mv.TargetRel, Location: string(mv.Location),
				SizeBytes: mv.Size, Conflict: mv.Conflict})
		}
		for _, s := range l.Shadowed {
			ld.Shadowed = append(ld.Shadowed, s.Rel)
		}
		if p.Reflect != nil {
			ld.Reflect = reflectDoc{OlderThanDays: p.Reflect.OlderThanDays, Archived: p.Reflect.Archived()}
		}
		doc.Ledger = ld
	}
	return doc
}

// --- text ---

func writeRetentionText(w io.Writer, p *model.RetentionPlan, applied *appliedDoc) error {
	verb := "Dry run: nothing changes. `--apply` moves what the maintenance and ledger plans remove into a dated archive folder; nothing is deleted."
	if applied != nil {
		verb = "Applied (see the end)."
	}
	fmt.Fprintf(w, "Retention plan at %s. %s\n", jscompat.FormatISOTime(p.Now), verb)
	if len(p.Maintenance) > 0 {
		fmt.Fprintf(w, "\n== OpenClaw session maintenance: what `openclaw sessions cleanup --enforce` would do, then the cron reaper ==\n")
		for _, m := range p.Maintenance {
			fmt.Fprintln(w)
			writeMaintenanceText(w, p.Now, m, len(p.Maintenance) > 1)
		}
	}
	if p.TranscriptsChecked > 0 || len(p.Transcripts) > 0 {
		writeTranscriptsText(w, p)
	}
	if p.Ledger != nil {
		writeLedgerText(w, p)
	}
	writeSQLiteRetentionText(w, p.SQLite)
	for _, pr := range p.Problems {
		fmt.Fprintf(w, "\nWarning: %s\n", pr)
	}
	fmt.Fprintf(w, "\nTotal: %s would leave the sessions folders, %s of ledger days would move to the ledger archive; rewriting transcripts would drop %s (never applied).\n",
		model.Bytes(p.MaintenanceBytes()), model.Bytes(p.LedgerBytes()), model.Bytes(p.TranscriptBytes()))
	if p.SQLite != nil {
		fmt.Fprintf(w, "Beside the SQLite-era stores: %s would move to the archive folder.\n", model.Bytes(p.SQLite.Bytes()))
	}
	switch {
	case applied == nil:
	case applied.Nothing:
		why := "the plan removes nothing"
		if applied.Why != "" {
			why = strings.TrimPrefix(applied.Why, "the plan removes nothing: there is nothing to apply: ")
		}
		fmt.Fprintf(w, "Nothing to apply: %s.\n", strings.TrimSuffix(why, "."))
	default:
		ledger := ""
		if applied.LedgerMoved > 0 {
			ledger = fmt.Sprintf(", and %s into ledger/archive/observations", model.Plural(applied.LedgerMoved, "ledger day", "ledger days"))
		}
		fmt.Fprintf(w, "\nApplied: %d sessions.json rewritten without %s; %s, %s, moved (into %s%s). Nothing was deleted.\n",
			applied.Stores, model.Plural(applied.RowsRemoved, "row", "rows"), model.Plural(applied.Moved, "file", "files"), model.Bytes(applied.MovedBytes), applied.ArchiveDir, ledger)
		if applied.Kept > 0 {
			fmt.Fprintf(w, "Kept: %s (and their rows) holding %s no sweep has observed; they move once a sweep has (or with --include-unobserved).\n", model.Plural(applied.Kept, "transcript", "transcripts"), model.Bytes(applied.KeptBytes))
		}
		if applied.UnobservedMoved > 0 {
			fmt.Fprintf(w, "Warning: --include-unobserved moved %s no sweep has observed out of every sweep's reach; --undo puts it back.\n", model.Bytes(applied.UnobservedMoved))
		}
		fmt.Fprintf(w, "Undo: clawvault-tui retention --undo %s\n", applied.Manifest)
	}
	return nil
}

// writeMaintenanceText prints one agent's block the way `openclaw sessions
// cleanup --dry-run` prints it, with the bytes each action frees.
func writeMaintenanceText(w io.Writer, now time.Time, m *model.MaintenancePlan, agentHeader bool) {
	if agentHeader {
		fmt.Fprintf(w, "Agent: %s\n", m.Agent)
	}
	fmt.Fprintf(w, "Session store: %s\n", m.StorePath)
	fmt.Fprintf(w, "Maintenance mode: %s\n", m.Policy.Mode)
	fmt.Fprintf(w, "Entries: %d -> %d (remove %d)\n", m.BeforeCount, m.AfterCount, m.BeforeCount-m.AfterCount)
	fmt.Fprintf(w, "Would prune missing transcripts: %d\n", m.Missing)
	fmt.Fprintf(w, "Would prune stale: %d\n", m.Pruned)
	fmt.Fprintf(w, "Would cap overflow: %d\n", m.Capped)
	if b := m.Budget; b != nil {
		fmt.Fprintf(w, "Would enforce disk budget: %d -> %d bytes (files %d, entries %d)\n", b.TotalBytesBefore, b.TotalBytesAfter, b.RemovedFiles, b.RemovedEntries)
	}
	if m.Policy.CronReaper {
		fmt.Fprintf(w, "Would prune cron runs: %d (cron.sessionRetention %s)\n", m.CronPruned, shownValue(m.Policy.Settings.CronRetention, model.FormatDurationMs(m.Policy.CronRetentionMs)))
	}
	fmt.Fprintf(w, "Settings: %s\n", settingsLine(m.Policy))
	if m.Policy.Mode == "warn" {
		fmt.Fprintln(w, "In warn mode OpenClaw only warns; `openclaw sessions cleanup --enforce` (or `retention --apply`, which moves instead of deleting) carries this out.")
	}
	fmt.Fprintf(w, "Frees: %s from the sessions folder (%s, %s); entries %d -> %d\n",
		model.Bytes(m.FreedBytes()), model.Plural(len(m.Files), "file", "files"), model.Plural(m.BeforeCount-m.FinalCount, "row", "rows"), m.BeforeCount, m.FinalCount)
	for _, warning := range m.Warnings {
		fmt.Fprintf(w, "Warning: %s\n", warning)
	}
	if len(m.Rows) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Planned session actions:")
		fmt.Fprintln(w, strings.Join([]string{padEnd("Action", 14), padEnd("Frees", 10), padEnd("Key", 26), padEnd("Age", 9), padEnd("Model", 14), "Flags"}, " "))
		for _, r := range m.Rows {
			frees := ""
			if r.FreedBytes > 0 {
				frees = model.Bytes(r.FreedBytes)
			}
			if r.Protected {
				frees = "(active)"
			}
			line := strings.Join([]string{padEnd(string(r.Action), 14), padEnd(frees, 10), padEnd(truncateKey(esc(r.Key)), 26),
				padEnd(ageCell(now, r.UpdatedAt), 9), padEnd(modelCell(r.Entry, m.DefaultModel), 14), flagsCell(r.Entry)}, " ")
			fmt.Fprintln(w, strings.TrimRight(line, " "))
		}
	}
	if len(m.Files) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Files leaving the sessions folder:")
		for _, f := range m.Files {
			fmt.Fprintf(w, "  %-19s %-10s %s%s%s\n", f.Step, model.Bytes(f.Size), esc(f.Name), fileReason(m, f), unobservedNote(f))
		}
	}
}

func fileReason(m *model.MaintenancePlan, f model.FilePlan) string {
	switch f.Step {
	case model.StepArchiveRemoved, model.StepCronArchive, model.StepBudgetEvict:
		return "  (with " + f.Key + ")"
	case model.StepExpireDeleted:
		return "  (older than pruneAfter " + model.FormatDurationMs(m.Policy.PruneAfterMs) + ")"
	case model.StepExpireReset:
		return "  (older than resetArchiveRetention " + model.FormatDurationMs(m.Policy.ResetArchiveRetentionMs) + ")"
	case model.StepCronExpire:
		return "  (older than cron.sessionRetention " + model.FormatDurationMs(m.Policy.CronRetentionMs) + ")"
	}
	return "  (disk budget)"
}

// settingsLine names each setting with its value and where it came from.
func settingsLine(pol model.MaintenancePolicy) string {
	s := pol.Settings
	var parts []string
	add := func(name string, set model.Setting, resolved string) {
		src := set.Source
		if strings.HasSuffix(src, "openclaw.json") {
			src = "openclaw.json"
		}
		if src == "" {
			src = "default"
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s)", name, shownValue(set, resolved), src))
	}
	add("pruneAfter", s.PruneAfter, model.FormatDurationMs(pol.PruneAfterMs))
	add("maxEntries", s.MaxEntries, strconv.Itoa(pol.MaxEntries))
	reset := "false"
	if pol.ResetArchives {
		reset = model.FormatDurationMs(pol.ResetArchiveRetentionMs)
	}
	add("resetArchiveRetention", s.ResetArchiveRetention, reset)
	if pol.DiskBudget {
		add("maxDiskBytes", s.MaxDiskBytes, strconv.FormatInt(pol.MaxDiskBytes, 10))
		add("highWaterBytes", s.HighWaterBytes, model.Bytes(pol.HighWaterBytes)+", 80% of the max")
	} else {
		parts = append(parts, "no disk budget (maxDiskBytes unset)")
	}
	return strings.Join(parts, ", ")
}

// shownValue is a setting as written, else its resolved value.
func shownValue(set model.Setting, resolved string) string {
	if set.Value != "" {
		return set.Value
	}
	return resolved
}

// padEnd pads to width as JavaScript's padEnd does (never cuts).
func padEnd(s string, width int) string {
	if n := len([]rune(s)); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

// truncateKey is OpenClaw's truncateSessionKey: 16 chars, "...", the last 6.
func truncateKey(key string) string {
	r := []rune(key)
	if len(r) <= 26 {
		return key
	}
	return string(r[:16]) + "..." + string(r[len(r)-6:])
}

// ageCell is OpenClaw's formatTimeAgo of now − updatedAt.
func ageCell(now time.Time, t model.RowTime) string {
	if !t.Set || t.Value == 0 || math.IsNaN(t.Value) {
		return "unknown"
	}
	d := float64(now.UnixMilli()) - t.Value
	if d < 0 || math.IsInf(d, 0) {
		return "unknown"
	}
	round := func(x float64) float64 { return math.Floor(x + 0.5) }
	minutes := round(round(d/1000) / 60)
	switch {
	case minutes < 1:
		return "just now"
	case minutes < 60:
		return fmt.Sprintf("%.0fm ago", minutes)
	}
	hours := round(minutes / 60)
	if hours < 48 {
		return fmt.Sprintf("%.0fh ago", hours)
	}
	return fmt.Sprintf("%.0fd ago", round(hours/24))
}

// modelCell is the model OpenClaw shows: the override, the row's model, or
// the agent's configured one.
func modelCell(e *model.SessionEntry, configured string) string {
	if e != nil && e.ModelOverride != "" {
		return e.ModelOverride
	}
	if e != nil && e.Model != "" {
		return e.Model
	}
	if _, m, ok := strings.Cut(configured, "/"); ok {
		return m
	}
	if configured != "" {
		return configured
	}
	return "gpt-5.4"
}

// flagsCell is OpenClaw's formatSessionFlagsCell.
func flagsCell(e *model.SessionEntry) string {
	if e == nil {
		return ""
	}
	extra := e.Extra()
	str := func(name string) string {
		var s string
		if raw, ok := extra[name]; ok && len(raw) > 0 && raw[0] == '"' {
			s = strings.Trim(string(raw), `"`)
		}
		return s
	}
	var parts []string
	for _, f := range []struct{ field, label string }{
		{"thinkingLevel", "think"}, {"verboseLevel", "verbose"}, {"traceLevel", "trace"}, {"reasoningLevel", "reasoning"},
		{"elevatedLevel", "elev"}, {"responseUsage", "usage"}, {"groupActivation", "activation"},
	} {
		if v := str(f.field); v != "" {
			parts = append(parts, f.label+":"+v)
		}
	}
	if e.SystemSent {
		parts = append(parts, "system")
	}
	if e.AbortedLastRun {
		parts = append(parts, "aborted")
	}
	if e.SessionID != "" {
		parts = append(parts, "id:"+e.SessionID)
	}
	return strings.Join(parts, " ")
}

func writeTranscriptsText(w io.Writer, p *model.RetentionPlan) {
	fmt.Fprintf(w, "\n== Transcript retention (the retain policy): a dry run only; OpenClaw owns its transcripts and ClawVault's cursors count their bytes ==\n\n")
	fmt.Fprintf(w, "Checked %s; %d would shrink, by %s in all.\n", model.Plural(p.TranscriptsChecked, "live transcript", "live transcripts"), len(p.Transcripts), model.Bytes(p.TranscriptBytes()))
	for _, t := range p.Transcripts {
		key := t.Key
		if key == "" {
			key = filepath.Base(t.File)
		}
		fmt.Fprintf(w, "\n%s  %s  %s → %s (drops %s in %s entries)\n", key, filepath.Base(t.File), model.Bytes(t.Size),
			model.Bytes(t.KeptBytes), model.Bytes(t.DropBytes()), model.Count(int64(t.DropEntries())))
		var why []string
		if d := t.Drops[model.DropAge]; d.Entries > 0 {
			why = append(why, fmt.Sprintf("%s older than %s (%s)", model.Plural(d.Entries, "entry", "entries"), model.Plural(t.Policy.MaxAgeDays, "day", "days"), model.Bytes(d.Bytes)))
		}
		if d := t.Drops[model.DropHeartbeat]; d.Entries > 0 {
			why = append(why, fmt.Sprintf("%s entries of the %s heartbeat turns (%s)", model.Count(int64(d.Entries)), model.Count(int64(t.HeartbeatTurns)), model.Bytes(d.Bytes)))
		}
		if d := t.Drops[model.DropSize]; d.Entries > 0 {
			why = append(why, fmt.Sprintf("%s oldest entries over %s (%s)", model.Count(int64(d.Entries)), model.Bytes(t.Policy.MaxSizeBytes), model.Bytes(d.Bytes)))
		}
		fmt.Fprintf(w, "  drops: %s\n", strings.Join(why, "; "))
		if c := t.Cursor; c != nil {
			switch {
			case !c.Invalidated:
				fmt.Fprintf(w, "  cursor: ClawVault's cursor at %s stays valid (nothing before it is dropped)\n", model.Count(c.Offset))
			case c.RereadBytes > 0:
				fmt.Fprintf(w, "  cursor: a rewrite invalidates ClawVault's byte cursor at %s: it must move to %s; left as is it lies past the new end, so ClawVault re-reads all %s and observes them twice\n",
					model.Count(c.Offset), model.Count(c.NewOffset), model.BytesExact(c.RereadBytes))
			default:
				fmt.Fprintf(w, "  cursor: a rewrite invalidates ClawVault's byte cursor at %s: it must move to %s; left as is ClawVault skips %s it never observed\n",
					model.Count(c.Offset), model.Count(c.NewOffset), model.BytesExact(c.SkippedBytes))
			}
		}
	}
}

func writeLedgerText(w io.Writer, p *model.RetentionPlan) {
	l := p.Ledger
	fmt.Fprintf(w, "\n== ClawVault ledger archive: what `clawvault archive --older-than %d` would move ==\n\n", l.OlderThanDays)
	fmt.Fprintf(w, "Vault: %s\n", p.Vault)
	if l.Archived() == 0 {
		fmt.Fprintln(w, "No observations matched archive criteria.")
	} else {
		fmt.Fprintf(w, "Dry run: %d observation file(s) would be archived.\n", l.Archived()) // ClawVault's line, as it prints it
	}
	fmt.Fprintf(w, "Day files read: %d (one per date); days before %s move to ledger/archive/observations (%s).\n", l.Scanned, l.Cutoff, model.Bytes(l.Bytes()))
	for _, mv := range l.Moves {
		note := ""
		if mv.Conflict {
			note = "  (conflict: the archive already holds this date; ClawVault would overwrite it, --apply leaves both)"
		}
		fmt.Fprintf(w, "  %s → %s  %s%s\n", mv.Rel, mv.TargetRel, model.Bytes(mv.Size), note)
	}
	if len(l.Shadowed) > 0 {
		fmt.Fprintf(w, "Not read (the ledger holds the same date): %s, which stay where they are.\n", model.Plural(len(l.Shadowed), "legacy file", "legacy files"))
	}
	if r := p.Reflect; r != nil {
		if r.OlderThanDays == l.OlderThanDays {
			fmt.Fprintf(w, "A `clawvault reflect` run would archive the same %s: it always archives at %d days.\n", model.Plural(r.Archived(), "file", "files"), r.OlderThanDays)
		} else {
			fmt.Fprintf(w, "A `clawvault reflect` run would archive %s: it always archives at %d days.\n", model.Plural(r.Archived(), "file", "files"), r.OlderThanDays)
		}
	}
}

// unobservedNote says what of a file no sweep has observed, and whether
// --apply leaves it.
func unobservedNote(f model.FilePlan) string {
	switch {
	case f.Held():
		return fmt.Sprintf("  [%s unobserved: kept until a sweep observes it]", model.Bytes(f.Unobserved))
	case f.Unobserved > 0:
		return fmt.Sprintf("  [%s unobserved; no sweep reads this kind of file]", model.Bytes(f.Unobserved))
	}
	return ""
}
