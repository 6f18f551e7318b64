package cli

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"clawvault-tui/store"
)

// sharedScans are the workspace scans of a server's TUI sessions. Each
// session keeps the snapshot of its last scan, 15 MB for 10,000 sessions;
// scanned one by one, eight sessions held eight. Sessions of a workspace
// share one scan at a time instead, and so its snapshot (read only once
// made): a rescan asked for while one runs waits for the next, which
// starts when that one ends and serves everyone who asked meanwhile (it
// started after they asked, so it sees what made them ask); a session's
// first scan takes the one running, or the last if it ended moments ago.
type sharedScans struct {
	mu          sync.Mutex
	byWorkspace map[string]*sharedScan
	reuseWithin time.Duration
	scanFn      scanFunc // store.Scan; tests slow it down
}

type scanFunc = func(context.Context, store.FS, *store.Workspace, store.ScanOptions) (*store.Snapshot, error)

// firstScanReuse is how old a scan a new session may start from; its
// watcher catches up from there.
const firstScanReuse = 5 * time.Second

func newSharedScans() *sharedScans {
	return &sharedScans{byWorkspace: map[string]*sharedScan{}, reuseWithin: firstScanReuse, scanFn: store.Scan}
}

// forSession is a session's scanner (ui.Options.Scan).
func (s *sharedScans) forSession() scanFunc {
	var scanned atomic.Bool
	return func(ctx context.Context, fsys store.FS, ws *store.Workspace, opt store.ScanOptions) (*store.Snapshot, error) {
		first := !scanned.Swap(true)
		return s.of(ws).scan(ctx, scanArgs{fsys, ws, opt}, first)
	}
}

// of is the shared scan of a workspace: the same folders and agents.
func (s *sharedScans) of(ws *store.Workspace) *sharedScan {
	var key strings.Builder
	key.WriteString(ws.StateDir + "\x00" + ws.Vault)
	for _, a := range ws.Agents {
		key.WriteString("\x00" + a.ID + "\x00" + a.SessionsDir)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sc, ok := s.byWorkspace[key.String()]
	if !ok {
		sc = &sharedScan{scanFn: s.scanFn, reuseWithin: s.reuseWithin}
		s.byWorkspace[key.String()] = sc
	}
	return sc
}

type scanArgs struct {
	fsys store.FS
	ws   *store.Workspace
	opt  store.ScanOptions
}

// scanCall is one scan, awaited by everyone who shares it.
type scanCall struct {
	args scanArgs
	// waiters is how many asked for it (under sharedScan.mu).
	waiters int
	done    chan struct{}
	snap    *store.Snapshot
	err     error
}

type sharedScan struct {
	scanFn      scanFunc
	reuseWithin time.Duration
	mu          sync.Mutex
	running     *scanCall
	next        *scanCall // asked for while running ran; starts when it ends
	last        *scanCall
	lastDone    time.Time
}

func (sc *sharedScan) scan(ctx context.Context, args scanArgs, first bool) (*store.Snapshot, error) {
	sc.mu.Lock()
	var c *scanCall
	switch {
	case first && sc.running == nil && sc.last != nil && time.Since(sc.lastDone) < sc.reuseWithin:
		c = sc.last
	case sc.running == nil:
		c = &scanCall{args: args, done: make(chan struct{})}
		sc.running = c
		go sc.run(c)
	case first:
		c = sc.running
	default:
		if sc.next == nil {
			sc.next = &scanCall{args: args, done: make(chan struct{})}
		}
		c = sc.next
	}
	c.waiters++
	sc.mu.Unlock()
	select {
	case <-c.done:
		return c.snap, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// run scans, then starts the next scan if one was asked for meanwhile.
func (sc *sharedScan) run(c *scanCall) {
	c.snap, c.err = sc.scanFn(context.Background(), c.args.fsys, c.args.ws, c.args.opt)
	sc.mu.Lock()
	sc.last, sc.lastDone, sc.running = c, time.Now(), nil
	// Its snapshot is not kept for a new session past the reuse window:
	// the sessions that use it keep it as long as they need it.
	time.AfterFunc(sc.reuseWithin, func() {
		sc.mu.Lock()
		defer sc.mu.Unlock()
		if sc.last == c {
			sc.last = nil
		}
	})
	if n := sc.next; n != nil {
		sc.next, sc.running = nil, n
		go sc.run(n)
	}
	sc.mu.Unlock()
	close(c.done)
}
