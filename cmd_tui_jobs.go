package main

import (
	"context"

	"clawvault-tui/observer"
	"clawvault-tui/store"
	"clawvault-tui/ui"
)

// jobRunners are the Jobs screen's jobs that live outside the ui package:
// each runs the same code as its command.
func jobRunners(cfg store.Config) ui.JobRunners {
	return ui.JobRunners{
		Retention: func(ctx context.Context, snap *store.Snapshot, progress observer.ProgressFunc) (ui.JobResult, error) {
			plan, err := observer.PlanRetention(ctx, observer.RetentionOptions{
				Workspace: snap.Workspace, Config: cfg.Retention, Now: snap.TakenAt, Progress: progress,
			})
			if err != nil {
				return nil, err
			}
			return ui.NewRetentionResult(plan), nil
		},
	}
}
