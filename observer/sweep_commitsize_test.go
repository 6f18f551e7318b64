package observer

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"clawvault-tui/store"
)

// A sweep writes at most commitFilesMax vault files per commit: a commit
// that has begun is not cancelled, so after a signal the commit of what
// was finished must stay quick. Sessions observed on as many days (the
// clock moves a day each time it is read) as make two commits' worth of
// day files are committed in several steps, each complete. Before, one
// commit wrote them all.
func TestSweepBoundsTheFilesOfACommit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sessions := commitFilesMax + 8
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
	if files <= commitFilesMax || r.Commits < 2 {
		t.Errorf("%d files written in %d commit(s): want more than %d files, at most %d a commit", files, r.Commits, commitFilesMax, commitFilesMax)
	}
	cursors := store.LoadCursors(store.OS, f.vault).Store
	for i := range sessions {
		if _, ok := cursors.Get(fmt.Sprintf("s%d", i)); !ok {
			t.Errorf("s%d has no cursor", i)
		}
	}
	f.checkClean()
}
