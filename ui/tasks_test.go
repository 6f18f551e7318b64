package ui

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/observer"
	"clawvault-tui/store"
)

// runTask describes work; the work starts when the command runs.
func TestRunTaskStartsWhenTheCommandRuns(t *testing.T) {
	t.Parallel()
	var started atomic.Bool
	release := make(chan struct{})
	before := runtime.NumGoroutine()
	cmd := runTask(context.Background(), func(ctx context.Context, emit func(tea.Msg)) tea.Msg {
		started.Store(true)
		<-release
		return "done"
	})
	if n := runtime.NumGoroutine(); n > before || started.Load() {
		t.Fatalf("runTask started the work (%d new goroutines) before its command ran", n-before)
	}
	close(release)
	ev, ok := cmd().(taskEvent)
	if !ok || ev.msg != "done" || !started.Load() {
		t.Fatalf("the command returned %#v", ev)
	}
	if listen(ev.ch)() != nil {
		t.Error("the channel stays open after the final message")
	}
}

// Update starts no goroutine: a job starts when its command runs.
func TestUpdateStartsNoGoroutine(t *testing.T) {
	t.Parallel()
	var started atomic.Bool
	release := make(chan struct{})
	runners := JobRunners{Retention: func(ctx context.Context, _ *store.Snapshot, _ observer.ProgressFunc) (JobResult, error) {
		started.Store(true)
		<-release
		return nil, errors.New("stopped by the test")
	}}
	a := newApp(t, 100, 30, Options{Jobs: runners})
	press(t, a, "5")
	before := runtime.NumGoroutine()
	_, cmd := a.Update(keyMsg("R"))
	if n := runtime.NumGoroutine(); n > before || started.Load() {
		t.Fatalf("Update started the job (%d new goroutines)", n-before)
	}
	if cmd == nil || len(a.jobs.jobs) != 1 {
		t.Fatal("R did not ask for a job")
	}
	close(release)
	drive(t, a, cmd)
	if !started.Load() || a.jobs.jobs[0].state != jobFailed {
		t.Errorf("after its command ran: started %v, state %d", started.Load(), a.jobs.jobs[0].state)
	}
}
