package cli

import (
	"context"
	"slices"

	"clawvault-tui/observer"
	"clawvault-tui/store"
	"clawvault-tui/store/search"
	"clawvault-tui/ui"
)

// jobRunners are the Jobs screen's jobs that live outside the ui package:
// each runs the same code as its command.
func jobRunners(cfg store.Config) ui.JobRunners {
	return ui.JobRunners{
		Sweep: func(ctx context.Context, snap *store.Snapshot, confirmed []observer.Candidate, progress observer.ProgressFunc) (ui.JobResult, error) {
			report, err := observer.Sweep(ctx, sweepOptions(snap, confirmed, progress))
			if report == nil {
				return nil, err
			}
			return ui.NewSweepResult(report), err
		},
		Retention: func(ctx context.Context, snap *store.Snapshot, progress observer.ProgressFunc) (ui.JobResult, error) {
			plan, err := observer.PlanRetention(ctx, observer.RetentionOptions{
				Workspace: snap.Workspace, Config: cfg.Retention, Now: snap.TakenAt, Progress: progress,
			})
			if err != nil {
				return nil, err
			}
			return ui.NewRetentionResult(plan), nil
		},
		IndexBuild: func(ctx context.Context, ws *store.Workspace, progress observer.ProgressFunc) (ui.JobResult, error) {
			return buildSearchIndex(ctx, ws, cfg.Search, progress)
		},
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

// buildSearchIndex brings the search index in step with the disk, as
// `search` does before it answers.
func buildSearchIndex(ctx context.Context, ws *store.Workspace, cfg store.SearchConfig, progress observer.ProgressFunc) (ui.JobResult, error) {
	opt, err := search.OptionsFor(ws, cfg, store.OSEnv())
	if err != nil {
		return nil, err
	}
	ix, err := search.Open(opt)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	st, err := ix.Sync(ctx, func(p search.Progress) {
		progress.Report(observer.Progress{Stage: "index", Done: p.Bytes, Total: p.BytesTotal, Unit: "bytes", Item: p.Path})
	})
	if err != nil {
		return nil, err
	}
	return ui.NewIndexResult(st, ix.Dir()), nil
}
