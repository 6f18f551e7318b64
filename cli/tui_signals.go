package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"clawvault-tui/ui"
)

// stopJobsFor bounds the wait for the jobs when the TUI ends: a sweep stops
// within a session's read, so this is a hang, not a slow disk.
const stopJobsFor = time.Minute

// signalExit is the exit for a signal: 128 + its number, as shells report.
func signalExit(s os.Signal) error {
	n := 1
	if sig, ok := s.(syscall.Signal); ok {
		n = int(sig)
	}
	return exitError{128 + n, caughtSignal{s}}
}

// stopJobs cancels the jobs the TUI left running and waits for them, so
// that nothing is left half-written; a second signal (hurry) stops the wait.
func stopJobs(app *ui.App, hurry <-chan struct{}, stderr io.Writer) {
	if jobs := app.ActiveJobs(); len(jobs) > 0 {
		fmt.Fprintf(stderr, "clawvault-tui: stopping %s before exiting (what a sweep finished is kept)…\n", strings.Join(jobs, ", "))
	}
	ctx, cancel := context.WithTimeout(context.Background(), stopJobsFor)
	defer cancel()
	go func() {
		select {
		case <-hurry:
			cancel()
		case <-ctx.Done():
		}
	}()
	if !app.StopJobs(ctx) {
		fmt.Fprintf(stderr, "clawvault-tui: %s still running; exiting without waiting for them\n", strings.Join(app.ActiveJobs(), ", "))
	}
}
