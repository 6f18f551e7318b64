package cli

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"clawvault-tui/store"
)

// The sessions of a workspace share its scans: a rescan asked for while
// one runs waits for the next, one scan for all who asked meanwhile; a
// session's first scan takes the one running, or one that just ended.
func TestSessionsShareScans(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	release := make(chan struct{})
	sc := &sharedScan{reuseWithin: time.Hour, scanFn: func(context.Context, store.FS, *store.Workspace, store.ScanOptions) (*store.Snapshot, error) {
		if calls.Add(1) == 1 {
			<-release // the first scan runs until the test lets it end
		}
		return &store.Snapshot{}, nil
	}}
	args := scanArgs{ws: &store.Workspace{}}
	got := make([]*store.Snapshot, 4)
	var wg sync.WaitGroup
	ask := func(i int, first bool) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = sc.scan(context.Background(), args, first)
		}()
	}
	waiters := func(c **scanCall, n int) func() bool {
		return func() bool {
			sc.mu.Lock()
			defer sc.mu.Unlock()
			return *c != nil && (*c).waiters == n
		}
	}
	ask(0, true) // starts the scan
	pollUntil(t, "the first scan to start", waiters(&sc.running, 1))
	ask(1, true) // a new session: takes the one running
	pollUntil(t, "a second session on the running scan", waiters(&sc.running, 2))
	ask(2, false) // rescans: wait for the next
	ask(3, false)
	pollUntil(t, "two rescans on the next scan", waiters(&sc.next, 2))
	close(release)
	wg.Wait()
	if got[0] == nil || got[0] != got[1] || got[2] == nil || got[2] != got[3] || got[2] == got[0] || calls.Load() != 2 {
		t.Errorf("%d scans for four asks; shared: %v %v, distinct %v", calls.Load(), got[0] == got[1], got[2] == got[3], got[2] != got[0])
	}
	// A session's first scan just after: the last one, no new scan.
	if snap, _ := sc.scan(context.Background(), args, true); snap != got[2] || calls.Load() != 2 {
		t.Errorf("a new session's first scan did not take the one that just ended (%d scans)", calls.Load())
	}
	if snap, _ := sc.scan(context.Background(), args, false); snap == got[2] || calls.Load() != 3 {
		t.Error("a rescan took an old scan")
	}
}

// pollUntil polls cond until it holds, or fails after a deadline.
func pollUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not happen", what)
		}
	}
}
