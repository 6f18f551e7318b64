package observer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// decisions is a transcript of n distinct decisions (ClawVault's #55 in
// one session).
func decisions(n int) string {
	var ls []string
	for i := range n {
		ls = append(ls, msgLine(fmt.Sprintf("d%d", i), "user", fmt.Sprintf("We decided to use %s for service %d of the billing stack.", distinctWords(i), i)))
	}
	return lines(ls...)
}

// 5,000 distinct decisions in one transcript are routed, each once, into
// the day's decisions file (before the index, this took 24 s).
func TestSweepRoutesThousandsOfDistinctDecisions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.session("agent:main:main", "s1", decisions(5000))
	r := f.mustSweep(SweepOptions{})
	if r.ByType["decision"] != 5000 || r.Routed["decisions/2026-11-21.md"] != 5000 {
		t.Errorf("decisions %d, routed %d", r.ByType["decision"], r.Routed["decisions/2026-11-21.md"])
	}
	if got := strings.Count(f.read("decisions/2026-11-21.md"), "We decided to use"); got != 5000 {
		t.Errorf("the file holds %d decisions", got)
	}
}

// A cancel while a session is routed stops the routing (it did not look at
// the context: Ctrl-C waited for the whole session) and leaves the vault
// as it was.
func TestSweepCancelWhileRouting(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.session("agent:main:main", "s1", decisions(3000))
	before := f.files()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := f.sweep(ctx, SweepOptions{Progress: func(p Progress) {
		if p.Stage == "route" {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || r == nil || !r.Cancelled || len(r.Observed) != 0 || len(r.Skipped) != 1 {
		t.Fatalf("err %v, report %+v", err, r)
	}
	diffFiles(t, f.files(), before)
	f.checkClean()
}
