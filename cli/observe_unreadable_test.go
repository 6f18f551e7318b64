package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"clawvault-tui/store"
	"clawvault-tui/store/regfile/regfiletest"
)

// observe --dry-run stops where a sweep stops: a cursor file that is a
// FIFO, a link loop or a folder is named in one sentence with exit 1,
// never a hang and never a list of every session as unobserved.
func TestObserveDryRunNamesAnUnreadableCursorFile(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"fifo", "loop", "dir"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			state, vault := hostileState(t)
			regfiletest.Plant(t, kind, store.CursorFile(vault))
			for _, args := range [][]string{{"observe", "--dry-run"}, {"observe", "--dry-run", "--json"}, {"observe"}, {"observe", "--json"}} {
				var stdout, stderr string
				var code int
				regfiletest.Within(t, strings.Join(args, " "), func() {
					stdout, stderr, code = runCLI(t, append(args, "--state-dir", state, "-v", vault)...)
				})
				if args[len(args)-1] == "--json" && args[1] != "--dry-run" {
					stdout = "" // a sweep's report comes with its error
				}
				if code != 1 || stdout != "" || !strings.Contains(stderr, "observe-cursors.json") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
					t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 and one sentence naming the cursor file", args, code, stdout, stderr)
				}
			}
		})
	}
}

// The seq cursor file likewise, when the agent swept has SQLite-era
// sessions.
func TestObserveDryRunNamesAnUnreadableSeqCursorFile(t *testing.T) {
	t.Parallel()
	state, vault := demoCopy(t)
	regfiletest.Plant(t, "fifo", store.SeqCursorFile(vault))
	var stdout, stderr string
	var code int
	regfiletest.Within(t, "observe --dry-run", func() {
		stdout, stderr, code = runCLI(t, "observe", "--dry-run", "--agent", "ops", "--state-dir", state, "-v", vault)
	})
	if code != 1 || stdout != "" || !strings.Contains(stderr, filepath.Base(store.SeqCursorFile(vault))) {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 naming the seq cursor file", code, stdout, stderr)
	}
}
