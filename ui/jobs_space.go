package ui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/model"
	"clawvault-tui/observer"
)

// startSpace measures where the agent stores' bytes go, as a job of the
// Jobs screen (it reads every page of each store).
func (a *App) startSpace() (tea.Cmd, bool) {
	if a.opt.Jobs.Space == nil {
		return a.setStatus("measuring the stores is not built into this version yet"), true
	}
	snap, run := a.snap, a.opt.Jobs.Space
	return a.jobs.start(a.nextJob(), "where the stores' bytes go", false, func(ctx context.Context, pr observer.ProgressFunc) (JobResult, error) {
		return run(ctx, snap, pr)
	}), true
}

// SpaceResult shows where each agent store's bytes go on the Jobs screen,
// a bar a share; the largest sessions link to their rows.
type SpaceResult struct {
	Spaces []model.AgentSpace
	links  map[int]string
}

// NewSpaceResult wraps the measures for the Jobs screen.
func NewSpaceResult(spaces []model.AgentSpace) *SpaceResult { return &SpaceResult{Spaces: spaces} }

func (r *SpaceResult) Summary() string {
	if len(r.Spaces) == 0 {
		return "no agent keeps a SQLite-era store"
	}
	var total, reclaim int64
	for _, s := range r.Spaces {
		total += s.FileBytes + s.WALBytes
		reclaim += s.Reclaim.Total()
	}
	return fmt.Sprintf("%s, %s; %s reclaimable", model.Plural(len(r.Spaces), "store", "stores"), model.Bytes(total), model.Bytes(reclaim))
}

func (r *SpaceResult) Lines(width int) []string {
	r.links = map[int]string{}
	var out []string
	for i := range r.Spaces {
		s := &r.Spaces[i]
		if i > 0 {
			out = append(out, "")
		}
		lines := s.Lines(width)
		largest := -1
		for j, l := range lines {
			if l == "largest sessions:" {
				largest = j
			}
		}
		for k := range s.Sessions {
			if largest >= 0 && s.Sessions[k].Key != "" {
				r.links[len(out)+largest+1+k] = s.Sessions[k].Key
			}
		}
		out = append(out, lines...)
	}
	if len(out) == 0 {
		out = []string{"No agent keeps a SQLite-era store (agents/<id>/agent/openclaw-agent.sqlite)."}
	}
	return out
}

func (r *SpaceResult) Link(line int) (string, bool) {
	k, ok := r.links[line]
	return k, ok
}
