package cli

import (
	"strings"
	"testing"
	"time"

	"clawvault-tui/store"
)

// The retention plan names what each leaving transcript still holds that
// no sweep has observed; --apply keeps those (and says so),
// --include-unobserved moves them with a warning; a sweep holding the
// vault makes --apply refuse with exit 75.
func TestRetentionUnobservedAndLock(t *testing.T) {
	t.Parallel()
	state, vault := demoCopy(t)
	flags := []string{"--state-dir", state, "-v", vault, "--fix-missing", "--only", "maintenance"}
	stdout, stderr, code := runCLI(t, append([]string{"retention"}, flags...)...)
	if code != 0 || !strings.Contains(stdout, "unobserved: kept until a sweep observes it") {
		t.Fatalf("exit %d %s\n%s", code, stderr, stdout)
	}
	stdout, _, _ = runCLI(t, append([]string{"retention", "--json"}, flags...)...)
	if !strings.Contains(stdout, `"heldUntilObserved": true`) || !strings.Contains(stdout, `"unobservedBytes"`) {
		t.Errorf("json:\n%s", stdout)
	}

	unlock, err := store.LockVault(vault, store.CurrentOwner("clawvault-tui observe", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runCLI(t, append([]string{"retention", "--apply"}, flags...)...)
	unlock()
	if code != 75 || !strings.Contains(stderr, "busy") || !strings.Contains(stderr, "--wait") {
		t.Errorf("apply while a sweep runs: exit %d, %s", code, stderr)
	}
	stdout, stderr, code = runCLI(t, append([]string{"retention", "--apply"}, flags...)...)
	if code != 0 || !strings.Contains(stdout, "Kept: ") {
		t.Errorf("apply: exit %d %s\n%s", code, stderr, stdout)
	}
	stdout, stderr, code = runCLI(t, append([]string{"retention", "--apply", "--include-unobserved"}, flags...)...)
	if code != 0 || !strings.Contains(stdout, "Warning: --include-unobserved moved") {
		t.Errorf("apply --include-unobserved: exit %d %s\n%s", code, stderr, stdout)
	}
}
