package observer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clawvault-tui/store"
)

// deadPID is no process: above the largest pid_max Linux allows (2²²).
const deadPID = 1<<22 + 1

// A sweep killed mid-write leaves its temp files behind. The next sweep,
// under the lock, removes those of ours whose writer is gone, and nothing
// else: not a live writer's, not a name we do not make. Before, nothing
// removed them.
func TestSweepRemovesStaleTempFiles(t *testing.T) {
	t.Parallel()
	f := twoSessions(t)
	dead := []string{
		filepath.Join(f.vault, ".clawvault", store.TempName("observe-cursors.json", deadPID, "1")),
		filepath.Join(f.vault, "ledger", "raw", "openclaw", "2026", "11", store.TempName("21.jsonl", deadPID, "2")),
		filepath.Join(f.vault, "decisions", store.TempName("2026-11-20.md", deadPID, "3")),
	}
	kept := []string{
		filepath.Join(f.vault, ".clawvault", store.TempName("observe-cursors.json", os.Getpid(), "4")), // a live writer's
		filepath.Join(f.vault, "decisions", ".2026-11-20.md.tmp-123"),                                  // not our name
		filepath.Join(f.vault, "notes", "clawvault-tui-4194305-x.tmp"),                                 // not our name either
	}
	for _, p := range append(append([]string{}, dead...), kept...) {
		f.write(p, "half written")
	}
	r := f.mustSweep(SweepOptions{})
	for _, p := range dead {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s stays (%v)", p, err)
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", p)
		}
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "3 temp files") {
		t.Errorf("notes = %q", r.Notes)
	}
}

// The temp name says it is ours and whose.
func TestTempNames(t *testing.T) {
	t.Parallel()
	name := store.TempName("21.jsonl", 4242, "abc")
	if pid, ok := store.TempOwner(name); !ok || pid != 4242 {
		t.Errorf("TempOwner(%q) = %d, %v", name, pid, ok)
	}
	for _, other := range []string{"21.jsonl", ".21.jsonl.tmp-123", ".x.clawvault-tui-12-.tmp", ".x.clawvault-tui-abc-1.tmp", "clawvault-tui-12-1.tmp"} {
		if _, ok := store.TempOwner(other); ok {
			t.Errorf("%q is taken for ours", other)
		}
	}
}

// The lock names when its sweep really started, not the --now clock the
// sweep writes its files with (a fixed 2026 date in tests and conformance
// runs made a running sweep look months old).
func TestSweepLockStartedAtIsTheRealClock(t *testing.T) {
	t.Parallel()
	f := twoSessions(t)
	var owner store.LockOwner
	before := time.Now().Add(-time.Second).UTC().Truncate(time.Second)
	f.mustSweep(SweepOptions{Progress: func(p Progress) {
		if owner.PID == 0 {
			data, err := os.ReadFile(store.SweepLockFile(f.vault))
			if err == nil {
				_ = json.Unmarshal(data, &owner)
			}
		}
	}})
	started, err := time.Parse(time.RFC3339, owner.StartedAt)
	if err != nil || started.Before(before) || owner.PID != os.Getpid() {
		t.Errorf("lock owner %+v (the sweep's clock says %s)", owner, testNow)
	}
}
