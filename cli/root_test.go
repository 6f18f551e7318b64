package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// Each command's help is generated from its own flags, and lists the
// flags every command takes.
func TestHelpListsEachCommandsFlags(t *testing.T) {
	t.Parallel()
	common := []string{"--state-dir", "--profile", "--agent", "--all-agents", "--sessions-dir", "-v --vault", "--json"}
	for cmd, own := range map[string][]string{
		"":          {"--demo", "--demo-if-none", "--theme", "--version", "status", "observe", "completion"},
		"status":    {"--deep", "--problems", "--min-new"},
		"tree":      {"FILE|SESSION"},
		"observe":   {"--dry-run", "--watch", "--compressor", "--max-sessions", "--min-new", "--include-resets", "--clawvault-compat", "--now", "--no-progress"},
		"retention": {"--apply", "--dry-run", "--undo", "--only", "--max-disk-bytes", "--older-than", "--config"},
		"search":    {"--limit", "--reindex", "--transcripts", "QUERY"},
		"demo":      {"--scale", "--seed", "--now", "DIR"},
		"config":    {"--path"},
	} {
		for _, args := range [][]string{{cmd, "--help"}, {"help", cmd}, {cmd, "-h"}} {
			args = slicesWithout(args, "")
			out, errOut, code := runCLI(t, args...)
			if code != 0 || errOut != "" {
				t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
			}
			for _, want := range append(own, common...) {
				if !strings.Contains(out, want) {
					t.Errorf("%v lacks %s:\n%s", args, want, out)
				}
			}
		}
	}
	// `clawvault-tui help` is the root's help.
	out, _, code := runCLI(t, "help")
	if code != 0 || !strings.Contains(out, "--demo") || !strings.Contains(out, "retention") {
		t.Errorf("help: exit %d:\n%s", code, out)
	}
}

func slicesWithout(s []string, drop string) []string {
	var out []string
	for _, x := range s {
		if x != drop {
			out = append(out, x)
		}
	}
	return out
}

// Usage errors of every kind: exit 2, one sentence on stderr that says
// what to do, nothing on stdout.
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"stauts"}, `unknown command "stauts" (did you mean status?)`},
		{[]string{"status", "-json"}, "-json: long flags take two dashes: --json"},
		{[]string{"search", "-limit", "3", "x"}, "-limit: long flags take two dashes: --limit"},
		{[]string{"-v"}, "-v is --vault and needs a folder; --version prints the version"},
		{[]string{"status", "extra"}, `status takes no arguments, and "extra" is not a flag`},
		{[]string{"observe", "--max-sessions", "many"}, `--max-sessions "many": give a whole number (see ` + "`clawvault-tui observe --help`)"},
		{[]string{"observe", "--watch", "5"}, `--watch "5": give a duration such as 30s or 5m`},
		{[]string{"tree", "--json"}, "one FILE or SESSION"},
		{[]string{"retention", "--heartbeats=maybe"}, `--heartbeats "maybe": give true or false`},
		{[]string{"status", "--state-dir"}, "flag needs an argument: --state-dir (see `clawvault-tui status --help`)"},
	} {
		out, errOut, code := runCLI(t, tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.want) || out != "" || strings.Count(errOut, "\n") != 1 ||
			!strings.HasPrefix(errOut, "clawvault-tui: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q in one line", tt.args, code, out, errOut, tt.want)
		}
	}
}

// The flags every command takes may come before the command's name or
// after its arguments, and --  ends the flags.
func TestFlagsAnywhere(t *testing.T) {
	dir := conformanceDemo(t)
	state, vault := filepath.Join(dir, "state"), filepath.Join(dir, "vault")
	// The same output, but for the time of the scan.
	takenAt := regexp.MustCompile(`"takenAt": "[^"]*"`)
	status := func(args ...string) (string, string, int) {
		out, errOut, code := runCLI(t, args...)
		return takenAt.ReplaceAllString(out, ""), errOut, code
	}
	want, _, code := status("status", "--json", "--state-dir", state, "-v", vault)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, args := range [][]string{
		{"--state-dir", state, "-v", vault, "status", "--json"},
		{"--json", "status", "--state-dir=" + state, "--vault=" + vault},
		{"status", "--state-dir", state, "--json", "-v" + vault},
	} {
		if got, errOut, code := status(args...); code != 0 || got != want {
			t.Errorf("%v: exit %d %s; the output differs from status --json --state-dir … -v …", args, code, errOut)
		}
	}
	// After --, a file named like a flag.
	file := filepath.Join(t.TempDir(), "--json")
	os.WriteFile(file, []byte(`{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}`+"\n"), 0o644)
	t.Chdir(filepath.Dir(file))
	out, errOut, code := runCLI(t, "tree", "--", "--json")
	if code != 0 || !strings.HasPrefix(out, "File:") {
		t.Errorf("tree -- --json: exit %d %s%s", code, out, errOut)
	}
}

// Every command honours the flags every command takes: here, a state dir
// that does not exist is reported by each command that reads one, wherever
// the flag is.
func TestEveryCommandHonoursTheCommonFlags(t *testing.T) {
	t.Parallel()
	nowhere := filepath.Join(t.TempDir(), "nowhere")
	for _, args := range [][]string{
		{"status"}, {"tree", "some-session"}, {"observe", "--dry-run"}, {"retention"}, {"--demo-if-none=false"},
	} {
		_, errOut, code := runCLI(t, append(args, "--state-dir", nowhere, "-v", nowhere, "--agent", "main")...)
		if code != 1 || !strings.Contains(errOut, "the state dir "+nowhere+" (from --state-dir) does not exist") {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
	// search reads the vault first.
	_, errOut, code := runCLI(t, "search", "--state-dir", nowhere, "-v", nowhere, "x")
	if code != 1 || !strings.Contains(errOut, nowhere) {
		t.Errorf("search: exit %d: %s", code, errOut)
	}
	// demo --json prints its manifest.
	out, errOut, code := runCLI(t, "demo", filepath.Join(t.TempDir(), "d"), "--json", "--now", "2026-11-21T12:00:00Z")
	if code != 0 || !strings.Contains(out, `"StateDir"`) {
		t.Errorf("demo --json: exit %d %s %.200s", code, errOut, out)
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	out, errOut, code := runCLI(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "clawvault-tui version ") || errOut != "" {
		t.Errorf("--version: exit %d %q %q", code, out, errOut)
	}
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, tt := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{nil, "(devel), without build information"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel), built without version control information"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "v1.2.0"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261121120000-1bf5f62a0b1c+dirty"},
			Settings: settings("vcs.revision", "1bf5f62a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e", "vcs.time", "2026-11-21T12:00:00Z", "vcs.modified", "true")},
			"v0.0.0-20261121120000-1bf5f62a0b1c+dirty, commit 1bf5f62a0b1c of 2026-11-21T12:00:00Z, with uncommitted changes"},
	} {
		if got := versionOf("", tt.info, tt.info != nil); !strings.HasPrefix(got, tt.want) {
			t.Errorf("versionOf(%+v) = %q, want %q", tt.info, got, tt.want)
		}
	}
	// A release build names its release, then the commit.
	release := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261121120000-1bf5f62a0b1c"},
		Settings: settings("vcs.revision", "1bf5f62a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e", "vcs.time", "2026-11-21T12:00:00Z")}
	for _, tt := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{release, "0.1.0, commit 1bf5f62a0b1c of 2026-11-21T12:00:00Z"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "0.1.0"},
		{nil, "0.1.0"},
	} {
		if got := versionOf("0.1.0", tt.info, tt.info != nil); got != tt.want {
			t.Errorf("versionOf(0.1.0, %+v) = %q, want %q", tt.info, got, tt.want)
		}
	}
}

// The man page and the completion scripts, from the binary.
func TestManPageAndCompletionScripts(t *testing.T) {
	t.Parallel()
	bin := builtBinary(t)
	man, err := exec.Command(bin, "man").Output()
	if err != nil || !strings.Contains(string(man), ".TH") || !strings.Contains(string(man), "observe") ||
		!strings.Contains(string(man), "max-sessions") {
		t.Errorf("man: %v\n%.300s", err, man)
	}
	for shell, want := range map[string]string{"bash": "__start_clawvault-tui", "zsh": "#compdef clawvault-tui", "fish": "complete -c clawvault-tui"} {
		out, err := exec.Command(bin, "completion", shell).Output()
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("completion %s: %v\n%.300s", shell, err, out)
		}
	}
}

// Completions load in a real bash, with the bash-completion package, and
// complete commands, flags, flag values and the agents of a workspace.
func TestBashCompletes(t *testing.T) {
	t.Parallel()
	const bashCompletion = "/usr/share/bash-completion/bash_completion"
	needProgram(t, "bash", "completions are tried in a real bash")
	needFile(t, "bash-completion", bashCompletion, "bash's completions load through it")
	bin := builtBinary(t)
	dir := conformanceDemo(t)
	command := fmt.Sprintf("env -i HOME=%s TERM=xterm PATH=%s:/usr/bin:/bin PS1='$ ' bash --norc --noprofile", t.TempDir(), filepath.Dir(bin))
	tm := startTerminal(t, command, 160, 30)
	tm.keys("source "+bashCompletion+" && source <(clawvault-tui completion bash) && echo LOADED", "Enter")
	tm.waitText("LOADED")
	for _, tc := range []struct{ typed, want string }{
		{"clawvault-tui obs", "clawvault-tui observe"},
		{"clawvault-tui observe --max-s", "clawvault-tui observe --max-sessions"},
		{"clawvault-tui observe --compressor l", "clawvault-tui observe --compressor llm"},
		{"clawvault-tui status --state-dir " + filepath.Join(dir, "state") + " --agent wo", "--agent work"},
	} {
		tm.keys("C-u", tc.typed, "Tab")
		tm.waitFor(fmt.Sprintf("%q completed to %q", tc.typed, tc.want), func(s string) bool {
			lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
			return strings.HasSuffix(lines[len(lines)-1], tc.want)
		})
	}
	tm.keys("C-u")
}
