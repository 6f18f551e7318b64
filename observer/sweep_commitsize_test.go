package observer

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"clawvault-tui/store"
)

// A sweep's first commit writes at most commitFilesFloor vault files: a commit
// that has begun is not cancelled, so after a signal the commit of what
// was finished must stay quick. Sessions observed on as many days (the
// clock moves a day each time it is read) as make two commits' worth of
// day files are committed in several steps, each complete. Before, one
// commit wrote them all.
func TestSweepBoundsTheFilesOfACommit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sessions := commitFilesFloor + 8
	for i := range sessions {
		f.session(fmt.Sprintf("agent:main:direct:u%d", i), fmt.Sprintf("s%d", i),
			lines(msgLine("m1", "user", fmt.Sprintf("We decided to use option %d for the billing export.", i))))
	}
	var reads atomic.Int64
	r := f.mustSweep(SweepOptions{Now: func() time.Time { return testNow.AddDate(0, 0, int(reads.Add(1))) }})
	if len(r.Observed) != sessions {
		t.Fatalf("observed %d sessions, want %d", len(r.Observed), sessions)
	}
	files := len(f.files())
	if files <= commitFilesFloor || r.Commits < 2 {
		t.Errorf("%d files written in %d commit(s): want more than %d files, at most %d a commit", files, r.Commits, commitFilesFloor, commitFilesFloor)
	}
	cursors := store.LoadCursors(store.OS, f.vault).Store
	for i := range sessions {
		if _, ok := cursors.Get(fmt.Sprintf("s%d", i)); !ok {
			t.Errorf("s%d has no cursor", i)
		}
	}
	f.checkClean()
}

// After the first commit, as many dirty files make a commit as the last
// one's cost per file says fit in commitTimeBudget: fewer commits where
// files are cheap (a day file is then written once, not once per commit),
// never more than the budget's worth where they are dear.
func TestCommitFilesFollowTheLastCommitsCost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cost time.Duration
		want int
	}{
		{0, commitFilesFloor},
		{commitTimeBudget / 10, commitFilesFloor},
		{commitTimeBudget / 300, 300},
		{commitTimeBudget / 3000, 3000},
	} {
		s := &sweeper{fileCommitCost: tc.cost}
		if got := s.commitFilesMax(); got != tc.want {
			t.Errorf("cost %v a file: %d files a commit, want %d", tc.cost, got, tc.want)
		}
	}
}
