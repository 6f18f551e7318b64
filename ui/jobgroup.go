package ui

import (
	"context"
	"sync"
)

// jobGroup keeps track of the goroutines of the Jobs screen's jobs, so
// that whatever ends the program — q, a signal, a terminal that went away
// — can cancel them all and wait until each has returned: a sweep that
// returned has committed what it finished and rolled back the rest, so the
// vault's files are complete. Its methods are safe from any goroutine.
type jobGroup struct {
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	stopped bool
	running sync.WaitGroup
}

func newJobGroup() *jobGroup {
	ctx, cancel := context.WithCancel(context.Background())
	return &jobGroup{ctx: ctx, cancel: cancel}
}

// enter registers a job's goroutine as it starts; false once the group is
// stopped, when the job must not start at all.
func (g *jobGroup) enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return false
	}
	g.running.Add(1)
	return true
}

// leave is the job goroutine's last act.
func (g *jobGroup) leave() { g.running.Done() }

// stop cancels every job, lets no new one start, and waits until the
// running ones have returned or ctx ends; it reports whether they all
// returned.
func (g *jobGroup) stop(ctx context.Context) bool {
	g.mu.Lock()
	g.stopped = true
	g.mu.Unlock()
	g.cancel()
	done := make(chan struct{})
	go func() {
		g.running.Wait()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-ctx.Done():
		return false
	}
}
