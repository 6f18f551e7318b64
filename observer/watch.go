package observer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"clawvault-tui/store"
	"clawvault-tui/store/agentdb"
)

// The heartbeat fix as a mode. ClawVault's observer ran on session
// transitions, so the one session that never ends, the live main session,
// was never observed; the fix its authors describe is a cheap stat of every
// session on each heartbeat and a sweep of those over their threshold.
// Watch does exactly that on a fixed interval.
//
// A SQLite-era store (agents/<id>/agent/openclaw-agent.sqlite) changes
// through its write-ahead log, on every event the gateway appends: Watch
// also watches each swept agent's agent/ folder and looks as soon as the
// store or its -wal has been quiet for a moment. A look reads only the
// aggregates of the sessions whose key changed since the last one (the
// stats cache, SweepOptions.CacheDir); our own reads touch only the -shm
// file, which is not a change.

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
	// StoreQuiet is how long a SQLite-era store must be quiet after a write
	// before a look (default 2 s; at most every StoreMaxDelay, default
	// 30 s, while the gateway keeps writing).
	StoreQuiet, StoreMaxDelay time.Duration
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
	var stores <-chan []string
	if dirs := storeDirs(opt.Sweep); len(dirs) > 0 {
		quiet, most := cmp.Or(opt.StoreQuiet, 2*time.Second), cmp.Or(opt.StoreMaxDelay, 30*time.Second)
		w, err := store.Watch(dirs, quiet, most)
		if err != nil {
			return fmt.Errorf("cannot watch the SQLite-era agent stores: %w", err)
		}
		defer w.Close()
		stores = w.Events()
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
		case paths, ok := <-stores:
			if !ok {
				stores = nil
				continue
			}
			if slices.ContainsFunc(paths, isStoreWrite) {
				look()
			}
		}
	}
}

// countCandidates is the cheap look: a stat-only scan and the selection,
// without the lock.
func countCandidates(ctx context.Context, opt SweepOptions) (int, error) {
	ws := opt.workspace()
	fsys := opt.FS
	if fsys == nil {
		fsys = store.OS
	}
	now := time.Now()
	if opt.Now != nil {
		now = opt.Now()
	}
	snap, err := store.Scan(ctx, fsys, ws, store.ScanOptions{Now: now, MinNewBytes: opt.MinNewBytes, CacheDir: opt.CacheDir})
	if err != nil {
		return 0, err
	}
	agents := sweptAgents(opt)
	n := 0
	for _, id := range agents {
		n += len(Select(snap, id, opt.MinNewBytes).Candidates)
		if opt.IncludeResets {
			n += len(SelectResets(snap, id, opt.MinNewBytes))
		}
		if opt.Fixes == nil || *opt.Fixes != (Fixes{}) {
			c, _ := SelectSQLite(snap, id, opt.MinNewBytes)
			n += len(c)
		}
	}
	return n, nil
}

// workspace is the workspace a sweep works on: the one given, else the
// snapshot's.
func (opt SweepOptions) workspace() *store.Workspace {
	if opt.Workspace == nil && opt.Snapshot != nil {
		return opt.Snapshot.Workspace
	}
	return opt.Workspace
}

// sweptAgents are the agents a sweep takes.
func sweptAgents(opt SweepOptions) []string {
	if len(opt.Agents) > 0 {
		return opt.Agents
	}
	ws := opt.workspace()
	if ws == nil {
		return nil
	}
	return WorkspaceAgents(ws)
}

// WorkspaceAgents are the agents a sweep takes by default: those status
// and the TUI show, every agent of the workspace, or the one --agent
// names (Locate keeps only that one). ClawVault's own sweep takes one
// agent, main unless told; clawvault-tui's takes what it shows.
func WorkspaceAgents(ws *store.Workspace) []string {
	agents := make([]string, 0, len(ws.Agents))
	for _, a := range ws.Agents {
		agents = append(agents, a.ID)
	}
	return agents
}

// storeDirs are the agent/ folders of the swept agents, where their
// SQLite-era stores are (or will be, once OpenClaw moves them there).
func storeDirs(opt SweepOptions) []string {
	ws := opt.workspace()
	if ws == nil {
		return nil
	}
	swept := sweptAgents(opt)
	var dirs []string
	for _, a := range ws.Agents {
		if slices.Contains(swept, a.ID) {
			dirs = append(dirs, filepath.Join(a.Dir, "agent"))
		}
	}
	return dirs
}

// isStoreWrite tells a write to an agent store (the database, its
// write-ahead log, or its rollback journal in DELETE mode) from our own
// reads, which touch only the -shm file.
func isStoreWrite(path string) bool {
	switch strings.TrimPrefix(filepath.Base(path), agentdb.FileName) {
	case "", "-wal", "-journal":
		return strings.HasPrefix(filepath.Base(path), agentdb.FileName)
	}
	return false
}
