package cli

import (
	"context"
	"slices"

	"clawvault-tui/observer"
	"clawvault-tui/store"
	"clawvault-tui/ui"
)

// jobRunners are the Jobs screen's jobs that live outside the ui package:
// each runs the same code as its command.
func jobRunners(cfg store.Config) ui.JobRunners {
	return ui.JobRunners{
		Sweep: sweepJob(cfg, store.OSWriter),
		Retention: func(ctx context.Context, snap *store.Snapshot, progress observer.ProgressFunc) (ui.JobResult, error) {
			plan, err := observer.PlanRetention(ctx, observer.RetentionOptions{
				Workspace: snap.Workspace, Config: cfg.Retention, Now: snap.TakenAt, Progress: progress,
				CacheDir: statsCacheDir(), MaxLineBytes: cfg.Transcripts.MaxLineBytes(),
			})
			if err != nil {
				return nil, err
			}
			return ui.NewRetentionResult(plan), nil
		},
		Space: func(ctx context.Context, snap *store.Snapshot, _ observer.ProgressFunc) (ui.JobResult, error) {
			spaces, err := store.MeasureSpace(ctx, store.OS, snap.Workspace, statsCacheDir(), snap.TakenAt)
			if err != nil {
				return nil, err
			}
			return ui.NewSpaceResult(spaces), nil
		},
	}
}

// sweepJob is the Jobs screen's sweep, writing through w.
func sweepJob(cfg store.Config, w store.WriteFS) func(context.Context, *store.Snapshot, []observer.Candidate, observer.ProgressFunc) (ui.JobResult, error) {
	return func(ctx context.Context, snap *store.Snapshot, confirmed []observer.Candidate, progress observer.ProgressFunc) (ui.JobResult, error) {
		opt := sweepOptions(snap, confirmed, progress)
		opt.MaxLineBytes = cfg.Transcripts.MaxLineBytes()
		opt.WriteFS = w
		report, err := observer.Sweep(ctx, opt)
		if report == nil || err != nil && len(report.TextLines()) == 0 {
			// Stopped before it looked at a session (a refused journal,
			// say): the Jobs screen shows the error whole.
			return nil, err
		}
		return ui.NewSweepResult(report), err
	}
}

// sweepOptions observe exactly the sessions the user confirmed: their
// agents, at the snapshot's threshold, and no session that crossed its
// threshold after the confirmation.
func sweepOptions(snap *store.Snapshot, confirmed []observer.Candidate, progress observer.ProgressFunc) observer.SweepOptions {
	opt := observer.SweepOptions{Workspace: snap.Workspace, Snapshot: snap, MinNewBytes: snap.MinNewBytes,
		Only: []string{}, Progress: progress, Command: "clawvault-tui (a sweep from the Jobs screen)"}
	for _, c := range confirmed {
		if !slices.Contains(opt.Agents, c.Agent) {
			opt.Agents = append(opt.Agents, c.Agent)
		}
		opt.Only = append(opt.Only, c.CursorID)
	}
	return opt
}
