package cli

import (
	"context"
	"fmt"
	"slices"

	"clawvault-tui/model"
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
	return &indexResult{stats: st, dir: ix.Dir()}, nil
}

// indexResult is an index build on the Jobs screen.
type indexResult struct {
	stats search.Stats
	dir   string
}

func (r *indexResult) Summary() string {
	return fmt.Sprintf("%d files, %d sections indexed; %d file(s) read (%s), %d removed, %d unchanged",
		r.stats.Files, r.stats.Docs, r.stats.Indexed, model.Bytes(r.stats.Bytes), r.stats.Removed, r.stats.Unchanged)
}

func (r *indexResult) Lines(int) []string {
	st := r.stats
	out := []string{
		fmt.Sprintf("index: %s", r.dir),
		fmt.Sprintf("files in the index: %d, sections: %d", st.Files, st.Docs),
		fmt.Sprintf("this run: %d file(s) read and indexed (%d transcripts only in their new lines), %d removed, %d unchanged, %d read but the same",
			st.Indexed, st.Appended, st.Removed, st.Unchanged, st.Touched),
		fmt.Sprintf("%d section(s) written, %s read", st.Sections, model.Bytes(st.Bytes)),
	}
	for _, p := range st.Problems {
		out = append(out, "warning: "+p)
	}
	return append(out, `search it: clawvault-tui search QUERY (the Search screen comes with the TUI's part 2)`)
}

func (r *indexResult) Link(int) (string, bool) { return "", false }
