package ui

import (
	"context"
	"strings"
	"testing"

	"clawvault-tui/observer"
	"clawvault-tui/store"
)

// spaceRunners measure the demo's stores for real (reading writes nothing).
func spaceRunners() JobRunners {
	return JobRunners{Space: func(ctx context.Context, snap *store.Snapshot, _ observer.ProgressFunc) (JobResult, error) {
		spaces, err := store.MeasureSpace(ctx, store.OS, snap.Workspace, "", snap.TakenAt)
		if err != nil {
			return nil, err
		}
		return NewSpaceResult(spaces), nil
	}}
}

// B on the Jobs screen measures where the demo's store's bytes go: a bar a
// share, and the largest sessions link to their rows on Sessions.
func TestSpaceJob(t *testing.T) {
	a := newApp(t, 120, 35, Options{Jobs: spaceRunners()})
	press(t, a, "5", "B")
	j := a.jobs.jobs[0]
	if j.state != jobDone {
		t.Fatalf("state %d: %v", j.state, j.err)
	}
	v := viewText(a)
	for _, want := range []string{"1 store,", "reclaimable", "agent ops:", "tables and indexes", "transcripts:", "█"} {
		if !strings.Contains(v, want) {
			t.Errorf("the view does not show %q:\n%s", want, v)
		}
	}
	golden(t, "jobs-space-120x35", a)
	want := followFirstLink(t, a, j.lines, j.result.(*SpaceResult).Link)
	if got, _ := a.sessions.Selected(); a.screen != screenSessions || got.DisplayKey() != want {
		t.Errorf("screen %d, selected %s; want %s on Sessions", a.screen, got.DisplayKey(), want)
	}
}

func TestGoldenJobsSpace80x24(t *testing.T) {
	a := newApp(t, 80, 24, Options{Jobs: spaceRunners()})
	press(t, a, "5", "B")
	golden(t, "jobs-space-80x24", a)
}
