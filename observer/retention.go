package observer

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/transcript"
)

// RetentionOptions steer a retention plan. Settings come in layers:
// OpenClaw's defaults, openclaw.json, the config file's [retention]
// section (then the agent's own), then the flag layers here.
type RetentionOptions struct {
	// FS reads the workspace (store.OS when nil).
	FS        store.FS
	Workspace *store.Workspace
	Config    store.RetentionConfig
	// Now is the plan's clock (time.Now when zero).
	Now time.Time

	// Maintenance, Transcripts and OlderThanDays are the flag layers.
	Maintenance   model.MaintenanceSettings
	Transcripts   store.TranscriptRetentionConfig
	OlderThanDays int
	// ActiveKey is spared by the disk budget, as --active-key.
	ActiveKey string
	// FixMissing prunes rows whose transcript is missing, as --fix-missing.
	FixMissing bool

	// Skip* leave a plan out.
	SkipMaintenance, SkipTranscripts, SkipLedger, SkipSQLite bool
	// CacheDir keeps the verdicts of leftover JSONL checks (status's);
	// MaxLineBytes caps the lines they read (0: the default).
	CacheDir     string
	MaxLineBytes int64

	// Cache, when set, supplies and keeps transcript indexes (the TUI's).
	Cache *transcript.Cache
	// Progress receives one report per agent, per transcript and per step.
	Progress ProgressFunc
}

// PlanRetention computes the three retention dry-runs: what OpenClaw's
// session maintenance would remove from each agent's sessions folder, what
// the retain policy would drop from each transcript, and which ledger day
// files `clawvault archive` would move. It reads and stats; it writes
// nothing. An unreadable or invalid setting is an error; an unreadable
// transcript is named in Problems and the rest of the plan stands.
func PlanRetention(ctx context.Context, opt RetentionOptions) (*model.RetentionPlan, error) {
	if opt.FS == nil {
		opt.FS = store.OS
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	ws := opt.Workspace
	plan := &model.RetentionPlan{Now: opt.Now, StateDir: ws.StateDir, Vault: ws.Vault}
	settings, err := store.LoadOpenClawSettings(opt.FS, ws.ConfigPath)
	if err != nil {
		return nil, err
	}
	// Maintenance runs first: the transcripts it removes are not trimmed.
	inputs, moved, err := planMaintenance(ctx, opt, settings, observedCursors(opt, plan), plan)
	if err != nil {
		return nil, err
	}
	if !opt.SkipTranscripts {
		if err := planTranscripts(ctx, opt, inputs, moved, plan); err != nil {
			return nil, err
		}
	}
	if !opt.SkipLedger {
		if err := planLedger(opt, plan); err != nil {
			return nil, err
		}
	}
	if !opt.SkipSQLite {
		plan.SQLite = planSQLite(ctx, opt)
	}
	return plan, nil
}

// observedCursors are the vault's cursors, which say what no sweep has
// observed of the files maintenance removes (apply keeps those: see
// model.FilePlan.Held); nil without a vault, or with a cursor file that
// cannot be read (a problem of the plan then).
func observedCursors(opt RetentionOptions, plan *model.RetentionPlan) *model.CursorStore {
	if opt.Workspace.Vault == "" {
		return nil
	}
	cs := store.LoadCursors(opt.FS, opt.Workspace.Vault)
	if cs.ReadError != nil {
		plan.Problems = append(plan.Problems, cs.ReadError.Error()+": every transcript counts as unobserved")
		return nil
	}
	return cs.Store
}

// planMaintenance plans each agent's session maintenance (unless skipped),
// and returns every agent's maintenance input and the files the plans
// remove, which the transcript plan leaves out.
func planMaintenance(ctx context.Context, opt RetentionOptions, settings *store.OpenClawSettings, cursors *model.CursorStore, plan *model.RetentionPlan) ([]model.MaintenanceInput, map[string]bool, error) {
	ws := opt.Workspace
	inputs := make([]model.MaintenanceInput, len(ws.Agents))
	moved := map[string]bool{}
	for i, a := range ws.Agents {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		opt.Progress.Report(Progress{Stage: "maintenance", Done: int64(i), Total: int64(len(ws.Agents)), Unit: "agents", Item: a.ID})
		st, err := store.ReadSessionStoreFile(opt.FS, a.StorePath)
		if err != nil {
			return nil, nil, err
		}
		in, err := store.MaintenanceInput(opt.FS, a, st)
		if err != nil {
			return nil, nil, fmt.Errorf("agent %s: %w", a.ID, err)
		}
		in.Now, in.ActiveKey, in.FixMissing = opt.Now, opt.ActiveKey, opt.FixMissing
		inputs[i] = in
		if opt.SkipMaintenance {
			continue
		}
		mp, err := planAgentMaintenance(opt, settings, a, in, st.SHA256, cursors)
		if err != nil {
			return nil, nil, err
		}
		for _, f := range mp.Files {
			moved[f.Path] = true
		}
		plan.Maintenance = append(plan.Maintenance, mp)
	}
	opt.Progress.Report(Progress{Stage: "maintenance", Done: int64(len(ws.Agents)), Total: int64(len(ws.Agents)), Unit: "agents"})
	return inputs, moved, nil
}

// planAgentMaintenance is one agent's plan, under its settings' layers:
// OpenClaw's defaults, openclaw.json, the config file, the flags.
func planAgentMaintenance(opt RetentionOptions, settings *store.OpenClawSettings, a store.Agent, in model.MaintenanceInput, storeSHA256 string, cursors *model.CursorStore) (*model.MaintenancePlan, error) {
	layers := model.DefaultMaintenanceSettings().Overlay(settings.Maintenance).
		Overlay(opt.Config.MaintenanceFor(a.ID)).Overlay(opt.Maintenance)
	pol, err := model.ResolveMaintenance(layers)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", a.ID, err)
	}
	mp := model.PlanMaintenance(in, pol)
	if opt.Workspace.Vault != "" {
		mp.MarkUnobserved(cursors)
	}
	mp.StoreSHA256 = storeSHA256
	mp.DefaultModel = settings.AgentModels[a.ID]
	if mp.DefaultModel == "" {
		mp.DefaultModel = settings.DefaultModel
	}
	if a.SQLitePath != "" {
		mp.Warnings = append(mp.Warnings, "this agent keeps its sessions in "+a.SQLitePath+
			" (the SQLite-era store), whose maintenance is not planned here; only files left in "+a.SessionsDir+" are")
	}
	return mp, nil
}

// transcriptJob is one live transcript to check against its agent's policy.
type transcriptJob struct {
	agent, key, sessionID, path string
	size                        int64
	pol                         model.TranscriptPolicy
	cursorID                    string
	cursor                      *model.Cursor
}

// planTranscripts checks every live transcript maintenance leaves against
// its agent's retain policy, in parallel, big files first.
func planTranscripts(ctx context.Context, opt RetentionOptions, inputs []model.MaintenanceInput, moved map[string]bool, plan *model.RetentionPlan) error {
	cursors := store.LoadCursors(opt.FS, opt.Workspace.Vault)
	var jobs []transcriptJob
	for i, a := range opt.Workspace.Agents {
		pol, err := opt.Config.TranscriptPolicyFor(a.ID, opt.Transcripts)
		if err != nil {
			return fmt.Errorf("agent %s: %w", a.ID, err)
		}
		if !pol.Off() {
			jobs = append(jobs, transcriptJobs(a, inputs[i], pol, moved, cursors.Store)...)
		}
	}
	plan.TranscriptsChecked = len(jobs)
	// Big files first, so the pool does not end waiting on one of them.
	sort.SliceStable(jobs, func(x, y int) bool { return jobs[x].size > jobs[y].size })
	results, problems := runTranscriptJobs(ctx, opt, jobs)
	if err := ctx.Err(); err != nil {
		return err
	}
	for i, tp := range results {
		if problems[i] != "" {
			plan.Problems = append(plan.Problems, problems[i])
		}
		if tp != nil && tp.DropEntries() > 0 {
			plan.Transcripts = append(plan.Transcripts, tp)
		}
	}
	sort.SliceStable(plan.Transcripts, func(x, y int) bool {
		return plan.Transcripts[x].DropBytes() > plan.Transcripts[y].DropBytes()
	})
	return nil
}

// transcriptJobs lists an agent's live transcripts (primary, topic and
// fork files) that maintenance does not remove. ClawVault's discovery
// names each file's cursor; sessions.json names its key.
func transcriptJobs(a store.Agent, in model.MaintenanceInput, pol model.TranscriptPolicy, moved map[string]bool, cursors *model.CursorStore) []transcriptJob {
	var index []model.IndexRow
	keyOf := map[string]string{}
	for _, r := range in.Rows {
		index = append(index, r.Entry.IndexRow(r.Key))
		if r.Transcript != "" && keyOf[r.Transcript] == "" {
			keyOf[r.Transcript] = r.Key
		}
	}
	files := in.Files
	sort.Slice(files, func(x, y int) bool { return files[x].Name < files[y].Name })
	desc := map[string]model.Descriptor{}
	for _, d := range model.Discover(a.ID, index, files) {
		desc[d.FileName] = d
	}
	var jobs []transcriptJob
	for _, f := range files {
		path := filepath.Join(a.SessionsDir, f.Name)
		switch model.ClassifyFileName(f.Name).Kind {
		case model.FilePrimary, model.FileTopic, model.FileFork:
		default:
			continue
		}
		if moved[path] {
			continue
		}
		job := transcriptJob{agent: a.ID, key: keyOf[path], path: path, size: f.Size, pol: pol}
		if d, ok := desc[f.Name]; ok {
			job.sessionID, job.cursorID = d.SessionID, d.SessionID
			if job.key == "" {
				job.key = d.SessionKey
			}
			if cursors != nil {
				if c, ok := cursors.Get(d.SessionID); ok {
					job.cursor = &c
				}
			}
		}
		if job.sessionID == "" {
			job.sessionID = strings.TrimSuffix(f.Name, ".jsonl")
		}
		jobs = append(jobs, job)
	}
	return jobs
}

// runTranscriptJobs reads and plans each transcript on a pool of one
// worker per core; a transcript that cannot be read is a problem of the
// plan, by index.
func runTranscriptJobs(ctx context.Context, opt RetentionOptions, jobs []transcriptJob) ([]*model.TranscriptPlan, []string) {
	var total int64
	for _, j := range jobs {
		total += j.size
	}
	results := make([]*model.TranscriptPlan, len(jobs))
	problems := make([]string, len(jobs))
	var mu sync.Mutex
	var done int64
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				j := jobs[i]
				lines, size, err := store.RetentionLines(ctx, opt.FS, j.path, opt.Cache)
				if err != nil {
					if ctx.Err() == nil {
						problems[i] = fmt.Sprintf("%s: cannot read for the transcript plan: %v", j.path, err)
					}
				} else {
					tp := model.PlanTranscriptRetention(lines, size, j.pol, opt.Now, j.cursorID, j.cursor)
					tp.Agent, tp.Key, tp.SessionID, tp.File = j.agent, j.key, j.sessionID, j.path
					results[i] = tp
				}
				mu.Lock()
				done += j.size
				opt.Progress.Report(Progress{Stage: "transcripts", Done: done, Total: total, Unit: "bytes", Item: j.path})
				mu.Unlock()
			}
		}()
	}
	for i := range jobs {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	return results, problems
}

func planLedger(opt RetentionOptions, plan *model.RetentionPlan) error {
	vault := opt.Workspace.Vault
	if err := store.CheckVault(vault); err != nil {
		plan.Problems = append(plan.Problems, "ledger plan skipped: "+err.Error())
		return nil
	}
	days, err := opt.Config.LedgerDays(opt.OlderThanDays)
	if err != nil {
		return err
	}
	opt.Progress.Report(Progress{Stage: "ledger", Unit: "files", Item: vault})
	files, err := store.LedgerFiles(opt.FS, vault)
	if err != nil {
		return err
	}
	plan.Ledger = model.PlanLedgerArchive(files, days, opt.Now)
	plan.Reflect = model.PlanLedgerArchive(files, model.DefaultArchiveDays, opt.Now)
	opt.Progress.Report(Progress{Stage: "ledger", Done: int64(len(files)), Total: int64(len(files)), Unit: "files"})
	return nil
}
