package observer

import (
	"context"
	"errors"
	"time"

	"clawvault-tui/store"
)

// The heartbeat fix as a mode. ClawVault's observer ran on session
// transitions, so the one session that never ends, the live main session,
// was never observed; the fix its authors describe is a cheap stat of every
// session on each heartbeat and a sweep of those over their threshold.
// Watch does exactly that on a fixed interval.

// WatchOptions configure Watch.
type WatchOptions struct {
	Sweep SweepOptions
	// Interval between looks (a stat of every session).
	Interval time.Duration
	// Tick, when set, replaces the interval timer: a look happens on each
	// receive (tests drive Watch without waiting).
	Tick <-chan time.Time
	// OnLook is told the outcome of each look: the number of candidates,
	// and the sweep's report when there was one (nil, with err, when the
	// look itself failed; a busy vault is a *store.BusyError).
	OnLook func(candidates int, report *SweepReport, err error)
}

// Watch looks at the workspace every interval and sweeps whatever crossed
// its threshold, until ctx is cancelled (a signal); a sweep under way then
// stops as a cancelled sweep does, committing what it finished. A busy
// vault (another sweep) skips the look; other errors are reported and the
// watch goes on.
func Watch(ctx context.Context, opt WatchOptions) error {
	tick := opt.Tick
	if tick == nil {
		if opt.Interval <= 0 {
			return errors.New("--watch needs a positive interval, such as 30s or 5m")
		}
		t := time.NewTicker(opt.Interval)
		defer t.Stop()
		tick = t.C
	}
	report := func(n int, r *SweepReport, err error) {
		if opt.OnLook != nil {
			opt.OnLook(n, r, err)
		}
	}
	look := func() {
		n, err := countCandidates(ctx, opt.Sweep)
		if err != nil || n == 0 {
			report(n, nil, err)
			return
		}
		r, err := Sweep(ctx, opt.Sweep)
		report(n, r, err)
	}
	look()
	for {
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-tick:
			if !ok {
				return nil
			}
			look()
		}
	}
}

// countCandidates is the cheap look: a stat-only scan and the selection,
// without the lock.
func countCandidates(ctx context.Context, opt SweepOptions) (int, error) {
	ws := opt.Workspace
	if ws == nil && opt.Snapshot != nil {
		ws = opt.Snapshot.Workspace
	}
	fsys := opt.FS
	if fsys == nil {
		fsys = store.OS
	}
	now := time.Now()
	if opt.Now != nil {
		now = opt.Now()
	}
	snap, err := store.Scan(ctx, fsys, ws, store.ScanOptions{Now: now, MinNewBytes: opt.MinNewBytes})
	if err != nil {
		return 0, err
	}
	agents := opt.Agents
	if len(agents) == 0 {
		agents = []string{ws.ObserverAgent}
	}
	n := 0
	for _, id := range agents {
		n += len(Select(snap, id, opt.MinNewBytes).Candidates)
		if opt.IncludeResets {
			n += len(SelectResets(snap, id, opt.MinNewBytes))
		}
	}
	return n, nil
}
