package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const demoNow = "2026-11-21T12:00:00Z"

func retentionArgs(dir string, more ...string) []string {
	return append([]string{"retention", "--now", demoNow, "--state-dir", filepath.Join(dir, "state"), "-v", filepath.Join(dir, "vault"),
		"--config", filepath.Join(dir, "no-config.toml")}, more...)
}

// The JSON shape is a contract (docs/ARCHITECTURE.md); maintenance entries start
// with `openclaw sessions cleanup --json`'s own field names.
func TestRetentionJSONContract(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	out, errOut, code := runCLI(t, retentionArgs(dir, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	requireKeys(t, "retention", json.RawMessage(out), "dryRun", "now", "stateDir", "vault", "maintenance", "transcripts", "ledger", "totals", "problems", "applied")
	var doc struct {
		DryRun      bool              `json:"dryRun"`
		Maintenance []json.RawMessage `json:"maintenance"`
		Transcripts struct {
			Checked int               `json:"checked"`
			Plans   []json.RawMessage `json:"plans"`
		} `json:"transcripts"`
		Ledger struct {
			Archived int               `json:"archived"`
			Files    []json.RawMessage `json:"files"`
		} `json:"ledger"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.DryRun || len(doc.Maintenance) != 3 || len(doc.Transcripts.Plans) == 0 || doc.Ledger.Archived != len(doc.Ledger.Files) || doc.Ledger.Archived == 0 {
		t.Fatalf("doc: %s", out[:min(len(out), 400)])
	}
	requireKeys(t, "maintenance", doc.Maintenance[0], "agentId", "storePath", "mode", "dryRun", "beforeCount", "afterCount", "missing",
		"pruned", "capped", "diskBudget", "wouldMutate", "cronPruned", "finalCount", "freedBytes", "settings", "actions", "files")
	requireKeys(t, "transcript plan", doc.Transcripts.Plans[0], "agent", "sessionKey", "sessionId", "file", "sizeBytes", "entries",
		"heartbeatTurns", "drop", "dropBytes", "keptBytes", "policy", "cursor")
	requireKeys(t, "ledger file", doc.Ledger.Files[0], "date", "from", "to", "location", "sizeBytes")
}

func TestRetentionText(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	out, errOut, code := runCLI(t, retentionArgs(dir, "--agent", "work")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Session store: " + filepath.Join(dir, "state/agents/work/sessions/sessions.json"),
		"Entries: 9 -> 8 (remove 1)", "Would prune stale: 1", "Would prune cron runs: 1 (cron.sessionRetention 24h)",
		"pruneAfter 30d (openclaw.json)", "prune-stale", "archive-removed",
		"Dry run: 37 observation file(s) would be archived.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestRetentionConfigOverrides(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(cfg, []byte(`
[retention.ledger]
older_than_days = 30
[retention.agents.work.maintenance]
max_disk_bytes = "500kb"
[retention.agents.main.transcripts]
max_age_days = 7
`), 0o644)
	args := retentionArgs(dir, "--json")
	args[len(args)-2] = cfg
	out, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Maintenance []struct {
			AgentID    string `json:"agentId"`
			DiskBudget *struct {
				MaxBytes int64 `json:"maxBytes"`
			} `json:"diskBudget"`
			Settings map[string]struct{ Value, Source string } `json:"settings"`
		} `json:"maintenance"`
		Transcripts struct {
			Plans []struct {
				Agent  string `json:"agent"`
				Policy struct {
					MaxAgeDays int `json:"maxAgeDays"`
				} `json:"policy"`
			} `json:"plans"`
		} `json:"transcripts"`
		Ledger struct {
			OlderThanDays int `json:"olderThanDays"`
			Archived      int `json:"archived"`
		} `json:"ledger"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, m := range doc.Maintenance {
		switch m.AgentID {
		case "work":
			if m.DiskBudget == nil || m.DiskBudget.MaxBytes != 500<<10 || m.Settings["maxDiskBytes"].Source != "config [retention.agents.work.maintenance]" {
				t.Errorf("work: %+v", m)
			}
		case "main":
			if m.DiskBudget == nil || m.DiskBudget.MaxBytes != 2<<30 {
				t.Errorf("main keeps openclaw.json's budget: %+v", m.DiskBudget)
			}
		}
	}
	for _, p := range doc.Transcripts.Plans {
		if want := map[string]int{"main": 7, "work": 0}[p.Agent]; p.Policy.MaxAgeDays != want {
			t.Errorf("%s transcripts: max age %d, want %d", p.Agent, p.Policy.MaxAgeDays, want)
		}
	}
	if doc.Ledger.OlderThanDays != 30 || doc.Ledger.Archived != 22 {
		t.Errorf("ledger: %+v (clawvault archive --older-than 30 archives 22)", doc.Ledger)
	}
}

func TestRetentionApplyAndUndo(t *testing.T) {
	t.Parallel()
	state, _ := demoCopy(t)
	dir := filepath.Dir(state)
	out, errOut, code := runCLI(t, retentionArgs(dir, "--apply", "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		DryRun  bool `json:"dryRun"`
		Applied struct {
			Manifest    string `json:"manifest"`
			RowsRemoved int    `json:"rowsRemoved"`
			Moved       int    `json:"moved"`
		} `json:"applied"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.DryRun || doc.Applied.Manifest == "" || doc.Applied.RowsRemoved == 0 || doc.Applied.Moved == 0 {
		t.Fatalf("applied: %s", out[len(out)-300:])
	}
	out, errOut, code = runCLI(t, "retention", "--undo", filepath.Dir(doc.Applied.Manifest))
	if code != 0 || !strings.Contains(out, "Undone:") {
		t.Fatalf("undo: exit %d: %s %s", code, out, errOut)
	}
	_, errOut, code = runCLI(t, "retention", "--undo", doc.Applied.Manifest)
	if code != 1 || !strings.Contains(errOut, "already undone") {
		t.Errorf("second undo: exit %d: %s", code, errOut)
	}
}

func TestRetentionErrors(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	badCfg := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(badCfg, []byte("[retention.transcripts]\nmax_age = 3\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{retentionArgs(dir, "--apply", "--dry-run"), 2, "contradict"},
		{[]string{"retention", "--undo", "x", "--apply"}, 2, "runs alone"},
		{retentionArgs(dir, "--older-than", "0"), 2, "--older-than must be a positive"},
		{retentionArgs(dir, "--only", "everything"), 2, "--only takes"},
		{retentionArgs(dir, "--now", "yesterday"), 2, "not an RFC 3339 time"},
		{retentionArgs(dir, "--max-age-days", "-1"), 2, "--max-age-days"},
		{retentionArgs(dir, "--max-disk-bytes", "80%"), 1, `--max-disk-bytes: maxDiskBytes "80%" is not a size`},
		{retentionArgs(dir, "--config", badCfg), 1, `unknown setting "retention.transcripts.max_age"`},
		{[]string{"retention", "--undo", filepath.Join(dir, "nowhere", "manifest.json")}, 1, "cannot read the manifest"},
		{[]string{"retention", "--undo", filepath.Join(dir, "state", "openclaw.json")}, 1, "is not a clawvault-tui retention manifest"},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want %d, %q in one line", tc.args[1:], code, errOut, tc.code, tc.want)
		}
	}
}

// The retention guide's examples run as written on a fresh demo.
func TestRetentionGuideExamples(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("..", "docs", "RETENTION.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := string(guide)
	var commands [][]string
	joined := strings.ReplaceAll(section, "\\\n", " ")
	for _, line := range strings.Split(joined, "\n") {
		if cmd, _, _ := strings.Cut(line, "#"); strings.HasPrefix(cmd, "bin/clawvault-tui retention") {
			commands = append(commands, strings.Fields(cmd)[1:])
		}
	}
	if len(commands) < 5 {
		t.Fatalf("found %d retention examples in docs/RETENTION.md", len(commands))
	}
	state, vault := demoCopy(t)
	t.Setenv("OPENCLAW_STATE_DIR", state)
	t.Setenv("CLAWVAULT_PATH", vault)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, args := range commands {
		out, errOut, code := runCLI(t, args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
		if slices.Contains(args, "--apply") {
			_, manifest, ok := strings.Cut(out, "Undo: clawvault-tui retention --undo ")
			if !ok {
				t.Fatalf("the apply printed no undo line: %s", out)
			}
			if _, errOut, code := runCLI(t, "retention", "--undo", strings.TrimSpace(manifest)); code != 0 {
				t.Errorf("undo: exit %d: %s", code, errOut)
			}
		}
	}
}
