package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/observer"
	"clawvault-tui/store"
)

// blockingSweep is a sweep that runs until it is cancelled, then returns
// as the real one does: what it finished, and the cancellation.
func blockingSweep(started chan<- struct{}, stopped *bool) JobRunners {
	return JobRunners{Sweep: func(ctx context.Context, _ *store.Snapshot, c []observer.Candidate, _ observer.ProgressFunc) (JobResult, error) {
		close(started)
		<-ctx.Done()
		*stopped = true
		return NewSweepResult(&observer.SweepReport{Cancelled: true, Skipped: c}), ctx.Err()
	}}
}

// startAside sends a key whose command starts a job, runs that command on
// its own goroutine (timers are off, so the command is the task's alone; it
// returns when the job ends), and waits until the job's work has started.
func startAside(t *testing.T, a *App, key string, started <-chan struct{}) <-chan tea.Msg {
	t.Helper()
	_, cmd := a.Update(keyMsg(key))
	final := make(chan tea.Msg, 1)
	go func() { final <- cmd() }()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the job did not start")
	}
	return final
}

// quits reports whether running cmd (and the batches it makes) asks
// Bubble Tea to quit.
func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if quits(c) {
				return true
			}
		}
	}
	return false
}

// q during a sweep asks first; no keeps it running; yes cancels it and the
// program quits only once the sweep has returned.
func TestQuitDuringASweepAsksThenWaits(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	var stopped bool
	a := newApp(t, 80, 24, Options{Jobs: blockingSweep(started, &stopped)})
	press(t, a, "5", "S")
	// The confirmation's y starts the sweep's command: run it aside.
	final := startAside(t, a, "y", started)

	if _, cmd := a.Update(keyMsg("q")); quits(cmd) || a.confirm == nil {
		t.Fatalf("q during a sweep quit at once (confirm %v)", a.confirm != nil)
	}
	if v := viewText(a); !strings.Contains(v, "#1 sweep is writing to the vault. Stop it and quit?") {
		t.Errorf("the question is not shown:\n%s", v)
	}
	golden(t, "quit-sweep-80x24", a)
	press(t, a, "n")
	if a.confirm != nil || a.quitting || a.jobs.jobs[0].state != jobRunning {
		t.Fatalf("n: confirm %v, quitting %v, state %d", a.confirm != nil, a.quitting, a.jobs.jobs[0].state)
	}
	_, cmd := a.Update(keyMsg("q"))
	if quits(cmd) {
		t.Fatal("q quit at once")
	}
	if _, cmd = a.Update(keyMsg("y")); quits(cmd) {
		t.Fatal("yes quit before the sweep stopped")
	}
	if !a.quitting || !strings.Contains(viewText(a), "quitting: waiting for #1 sweep to stop") {
		t.Errorf("the footer does not say what it waits for:\n%s", viewText(a))
	}
	if _, cmd := a.Update(keyMsg("q")); quits(cmd) {
		t.Error("a second q quit before the sweep stopped")
	}
	msg := <-final // the sweep saw the cancel and returned
	if !stopped {
		t.Fatal("the sweep was not cancelled")
	}
	for {
		ev, ok := msg.(taskEvent)
		if !ok {
			t.Fatalf("unexpected %T", msg)
		}
		if _, ok := ev.msg.(jobDoneMsg); ok {
			_, cmd := a.Update(ev.msg)
			if !quits(cmd) {
				t.Fatal("the program did not quit once the sweep returned")
			}
			break
		}
		msg = listen(ev.ch)()
	}
}

// The question whether to stop a sweep goes when the sweep ends first.
func TestQuitQuestionGoesWhenTheSweepEnds(t *testing.T) {
	started, finish := make(chan struct{}), make(chan struct{})
	runners := JobRunners{Sweep: func(ctx context.Context, _ *store.Snapshot, c []observer.Candidate, _ observer.ProgressFunc) (JobResult, error) {
		close(started)
		<-finish
		return NewSweepResult(&observer.SweepReport{Candidates: c}), nil
	}}
	a := newApp(t, 80, 24, Options{Jobs: runners})
	press(t, a, "5", "S")
	if v := viewText(a); !strings.Contains(v, "y start the sweep   n cancel") {
		t.Errorf("the sweep's answers:\n%s", v)
	}
	final := startAside(t, a, "y", started)
	press(t, a, "q")
	if a.confirm == nil {
		t.Fatal("q during a sweep did not ask")
	}
	close(finish)
	drive(t, a, func() tea.Msg { return <-final })
	if a.confirm != nil || a.quitting {
		t.Errorf("the question stayed after the sweep ended:\n%s", viewText(a))
	}
	if !strings.Contains(a.status, "the sweep ended before you answered; q quits now") {
		t.Errorf("status %q", a.status)
	}
}

// q during a job that writes nothing cancels it without asking.
func TestQuitDuringADryRunDoesNotAsk(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	a := newApp(t, 100, 30, Options{Jobs: blockingRetention(started)})
	press(t, a, "5")
	final := startAside(t, a, "R", started)
	if _, cmd := a.Update(keyMsg("ctrl+c")); quits(cmd) || a.confirm != nil || !a.quitting {
		t.Fatalf("ctrl+c: confirm %v, quitting %v", a.confirm != nil, a.quitting)
	}
	drive(t, a, func() tea.Msg { return <-final })
	if len(a.jobs.active()) != 0 {
		t.Error("the job is still active")
	}
}

// After the program ends (a signal, a closed terminal), StopJobs cancels
// what still runs and waits for it; a job whose command runs later does
// not start.
func TestStopJobsWaitsForTheirReturn(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	var stopped bool
	a := newApp(t, 100, 30, Options{Jobs: blockingSweep(started, &stopped)})
	press(t, a, "5", "S")
	startAside(t, a, "y", started)
	if got := a.ActiveJobs(); len(got) != 1 || got[0] != "#1 sweep" {
		t.Errorf("active jobs %q", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if !a.StopJobs(ctx) || !stopped {
		t.Fatalf("StopJobs returned before the sweep stopped (stopped %v)", stopped)
	}
	_, cmd := a.Update(keyMsg("d")) // a dry run whose command runs too late
	ev, ok := cmd().(taskEvent)
	if !ok {
		t.Fatalf("the dry run's command gave %T", ev)
	}
	if done, ok := ev.msg.(jobDoneMsg); !ok || done.err == nil {
		t.Errorf("a job started after StopJobs: %+v", ev.msg)
	}
}
