package observer

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// stepClock is a clock that moves step each time it is read.
type stepClock struct {
	mu   sync.Mutex
	now  time.Time
	step time.Duration
}

func (c *stepClock) read() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.now
	c.now = c.now.Add(c.step)
	return t
}

// sweepCancelledAtCommit sweeps two sessions, cancelling as the commit
// begins, with a clock that moves step at each reading.
func sweepCancelledAtCommit(f *fixture, step time.Duration) (*SweepReport, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clock := &stepClock{now: testNow, step: step}
	return f.sweep(ctx, SweepOptions{clock: clock.read, Progress: func(p Progress) {
		if p.Stage == "flush" {
			cancel()
		}
	}})
}

// A commit that cannot end within commitAfterCancel of a cancel (here
// every reading of the clock takes that long) is abandoned before its
// journal, so the command ends within its second: nothing of it reaches
// the vault, no cursor moves, the report says so in one sentence, and the
// next sweep observes the sessions as if this one had not run. Before, a
// commit that had begun always ran to its end.
func TestSweepAbandonsACommitOutOfTimeAfterACancel(t *testing.T) {
	t.Parallel()
	want := cleanRun(t)
	f := twoSessions(t)
	before := f.files()
	r, err := sweepCancelledAtCommit(f, commitAfterCancel)
	if !errors.Is(err, context.Canceled) || r == nil || !r.Cancelled {
		t.Fatalf("err %v, report %+v", err, r)
	}
	if r.Commits != 0 || r.Abandoned != 2 || len(r.Observed) != 0 || r.CancelledWhileCommitting() {
		t.Errorf("commits %d, abandoned %d, observed %d: want the commit abandoned", r.Commits, r.Abandoned, len(r.Observed))
	}
	for _, s := range r.Failed {
		if !strings.Contains(s.Error, "before its commit ended; the next sweep observes it again") {
			t.Errorf("%s: %q", s.SessionID, s.Error)
		}
	}
	if got := f.files(); !maps.Equal(got, before) {
		t.Errorf("the vault changed: %d files, %d before", len(got), len(before))
	}
	var text []string
	for _, l := range r.TextLines() {
		text = append(text, l.Text)
	}
	say := "The sweep stopped within a second of the cancel, before its commit of 2 sessions could end: nothing of them was written, and the next sweep observes them again."
	if !slices.Contains(text, say) || slices.ContainsFunc(text, func(l string) bool { return strings.HasPrefix(l, "! ") }) {
		t.Errorf("the report does not say %q in one sentence:\n%s", say, strings.Join(text, "\n"))
	}
	f.rerunEndsClean(want)
}

// Wherever the time runs out in a commit's staging (the clock moving by
// smaller steps reaches the limit at a later check, or never), the commit is
// whole or absent: the cursors match the ledger, and the next sweep ends
// where one clean sweep ends.
func TestSweepCancelledCommitIsWholeOrAbsent(t *testing.T) {
	t.Parallel()
	want := cleanRun(t)
	for n := 1; n <= 16; n++ {
		t.Run(fmt.Sprintf("clock step of limit÷%d", 2*n), func(t *testing.T) {
			t.Parallel()
			f := twoSessions(t)
			r, err := sweepCancelledAtCommit(f, commitAfterCancel/time.Duration(2*n))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v", err)
			}
			if whole, absent := r.Commits == 1 && r.Abandoned == 0, r.Commits == 0 && r.Abandoned == 2; !whole && !absent {
				t.Errorf("commits %d, abandoned %d", r.Commits, r.Abandoned)
			}
			t.Logf("commits %d, abandoned %d", r.Commits, r.Abandoned)
			f.checkCursorsMatchLedger()
			f.rerunEndsClean(want)
		})
	}
}
