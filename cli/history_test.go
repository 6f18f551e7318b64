package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// checkCommits runs .ci/check-commits, the history's rule that CI and the
// commit-msg hook apply, and returns its exit code and what it said.
func checkCommits(t *testing.T, dir string, env []string, args ...string) (int, string) {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", ".ci", "check-commits"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(script, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

func TestCommitSubjects(t *testing.T) {
	t.Parallel()
	needProgram(t, "bash", "the history's check is a bash script")
	for _, tc := range []struct {
		subject string
		ok      bool
	}{
		{"Confine journal paths to the vault", true},
		{"store/search: Cache the analyzer per field", true},
		{"Embed the schema", true},
		{"Process sessions.json rows in file order", true},
		{"Focus the search input", true},
		{strings.Repeat("x", 72), false}, // not a capital letter
		{"A" + strings.Repeat("x", 71), true},
		{"A" + strings.Repeat("x", 72), false},
		{"Confined journal paths to the vault", false},
		{"Confines journal paths to the vault", false},
		{"Confining journal paths to the vault", false},
		{"Fixes a race", false},
		{"confine journal paths to the vault", false},
		{"sqlitefile: a log frame of page 0 ends the log", false},
		{"Confine journal paths to the vault.", false},
		{"", false},
		{"fixup! Confine journal paths", true},
	} {
		code, out := checkCommits(t, "..", nil, "--subject", tc.subject)
		if (code == 0) != tc.ok {
			t.Errorf("%q: exit %d (%s), want ok=%v", tc.subject, code, strings.TrimSpace(out), tc.ok)
		}
	}
}

// The hook's check of a whole message: git's comment lines are left out,
// and a body must follow a blank line.
func TestCommitMessages(t *testing.T) {
	t.Parallel()
	needProgram(t, "bash", "the history's check is a bash script")
	dir := t.TempDir()
	for _, tc := range []struct {
		message string
		ok      bool
	}{
		{"Add make check\n\nIt runs vet and the short tests.\n", true},
		{"Add make check\n# Please enter the commit message\n", true},
		{"Add make check\nIt runs vet and the short tests.\n", false},
		{"Added make check\n", false},
	} {
		file := filepath.Join(dir, "msg")
		if err := os.WriteFile(file, []byte(tc.message), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out := checkCommits(t, "..", nil, "--message", file); (code == 0) != tc.ok {
			t.Errorf("%q: exit %d (%s), want ok=%v", tc.message, code, strings.TrimSpace(out), tc.ok)
		}
	}
}

// In CI the script checks the commits after the base, not those before it.
func TestCheckCommitsSinceTheBase(t *testing.T) {
	t.Parallel()
	needProgram(t, "bash", "the history's check is a bash script")
	needProgram(t, "git", "the history's check reads the commits with git")
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "sqlitefile: an old subject in the old style, long and descriptive as they were")
	base := git("rev-parse", "HEAD")
	git("commit", "-q", "--allow-empty", "-m", "Add the rule")
	env := []string{"CHECK_COMMITS_SINCE=" + base}
	if code, out := checkCommits(t, dir, env); code != 0 || !strings.Contains(out, "1 commit(s)") {
		t.Errorf("after the base, one good commit: exit %d\n%s", code, out)
	}
	git("commit", "-q", "--allow-empty", "-m", "Added a subject in the past tense")
	if code, out := checkCommits(t, dir, env); code == 0 || !strings.Contains(out, "Added a subject") {
		t.Errorf("a bad commit after the base: exit %d\n%s", code, out)
	}
}
