package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/observer"
	"clawvault-tui/store"
)

// The retention conformance tests compare the plans with what the real
// OpenClaw 2026.4.12 (`openclaw sessions cleanup`) and ClawVault 3.5.2
// (`clawvault archive`) did on the same demo workspace; their outputs are
// in testdata/conformance/{openclaw,clawvault} (conformance/run.sh makes
// them).

// openclawVariants are conformance/openclaw.sh's variants, as flag layers.
var openclawVariants = []struct {
	name       string
	agents     []string
	settings   model.MaintenanceSettings
	activeKey  string
	fixMissing bool
}{
	{name: "default", agents: []string{"main", "ops", "work"}},
	{name: "budget-active", agents: []string{"main"}, activeKey: "agent:main:main",
		settings: model.MaintenanceSettings{MaxDiskBytes: flagSetting("16mb"), HighWaterBytes: flagSetting("14mb")}},
	{name: "budget-cap", agents: []string{"main"}, fixMissing: true,
		settings: model.MaintenanceSettings{MaxEntries: flagSetting("10"), MaxDiskBytes: flagSetting("16mb"), HighWaterBytes: flagSetting("14mb"),
			ResetArchiveRetention: flagSetting("false")}},
}

func flagSetting(v string) model.Setting { return model.Setting{Value: v, Source: "test"} }

// conformancePlan plans maintenance on the conformance demo as the variant
// sets it, without the cron reaper (cleanup does not run it).
func conformancePlan(t *testing.T, dir string, settings model.MaintenanceSettings, activeKey string, fixMissing bool) *model.RetentionPlan {
	t.Helper()
	ws, err := store.Locate(store.Env{Getenv: func(string) string { return "" }, Home: t.TempDir(), Cwd: "/"},
		store.LocateOptions{StateDir: filepath.Join(dir, "state"), Vault: filepath.Join(dir, "vault")})
	if err != nil {
		t.Fatal(err)
	}
	now := conformanceNow(t)
	settings.CronRetention = flagSetting("false")
	p, err := observer.PlanRetention(context.Background(), observer.RetentionOptions{
		Workspace: ws, Config: store.DefaultRetentionConfig(), Now: now, Maintenance: settings,
		ActiveKey: activeKey, FixMissing: fixMissing, SkipTranscripts: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// readCleanup reads `openclaw sessions cleanup --json`, whose field names
// maintenanceDoc shares, by agent.
func readCleanup(t *testing.T, path string) map[string]maintenanceDoc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]maintenanceDoc{}
	var all struct {
		Stores []maintenanceDoc `json:"stores"`
	}
	if json.Unmarshal(data, &all) == nil && len(all.Stores) > 0 {
		for _, s := range all.Stores {
			out[s.AgentID] = s
		}
		return out
	}
	var one maintenanceDoc
	if err := json.Unmarshal(data, &one); err != nil {
		t.Fatal(err)
	}
	out[one.AgentID] = one
	return out
}

func TestConformanceOpenClawMaintenance(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	for _, v := range openclawVariants {
		t.Run(v.name, func(t *testing.T) {
			golden := filepath.Join(conformanceDir(), "openclaw", v.name)
			p := conformancePlan(t, dir, v.settings, v.activeKey, v.fixMissing)
			enforce := readCleanup(t, filepath.Join(golden, "enforce.json"))
			files := readLines(t, filepath.Join(golden, "enforce-files.txt"))
			stores := readLines(t, filepath.Join(golden, "enforce-stores.txt"))
			var gotFiles []string
			for _, agent := range v.agents {
				m := findMaintenance(p, agent)
				want, ok := enforce[agent]
				if m == nil || !ok {
					t.Fatalf("agent %s: plan %v, golden %v", agent, m != nil, ok)
				}
				// Enforce prunes missing rows before maintenance and counts
				// the rest; the dry-run and our plan count them all.
				if m.BeforeCount != want.BeforeCount+want.Missing || m.AfterCount != want.AfterCount || m.Missing != want.Missing ||
					m.Pruned != want.Pruned || m.Capped != want.Capped {
					t.Errorf("%s counts: plan %d→%d missing %d pruned %d capped %d; enforce %+v",
						agent, m.BeforeCount, m.AfterCount, m.Missing, m.Pruned, m.Capped, want)
				}
				checkBudget(t, agent, m.Budget, want.DiskBudget)
				for _, f := range m.Files {
					verb := "deleted"
					if f.Step == model.StepArchiveRemoved && !f.BudgetToo {
						verb = "renamed" // OpenClaw renames it to .deleted.<ts>; we move it
					}
					rel, _ := filepath.Rel(filepath.Join(dir, "state", "agents"), f.Path)
					gotFiles = append(gotFiles, verb+" "+rel)
				}
				// The store we would write is the one enforce wrote.
				st, err := store.ReadSessionStoreFile(store.OS, m.StorePath)
				if err != nil || !st.Exists {
					continue // OpenClaw writes "{}" where there was no store; we write nothing
				}
				removed := map[string]bool{}
				for _, r := range m.Rows {
					if r.Action != model.ActionKeep {
						removed[r.Key] = true
					}
				}
				spliced, _, err := store.SpliceOutRows(st.Data, removed)
				if err != nil {
					t.Fatal(err)
				}
				normalized := strings.ReplaceAll(string(spliced), dir, "$DEMO")
				line := store.SHA256Hex([]byte(normalized)) + " " + agent + "/sessions/sessions.json"
				if !slices.Contains(stores, line) {
					t.Errorf("%s: the store we would write differs from enforce's (%s not in %q)", agent, line, stores)
				}
			}
			slices.Sort(gotFiles)
			if !slices.Equal(gotFiles, files) {
				t.Errorf("files: plan\n%s\nenforce\n%s", strings.Join(gotFiles, "\n"), strings.Join(files, "\n"))
			}
		})
	}
}

// checkBudget compares our disk budget with enforce's. Enforce counts its
// own sessions.json.lock (JSON with its pid, ~90 bytes) among the folder's
// files, in both totals; everything else is exact.
func checkBudget(t *testing.T, agent string, got, want *model.DiskBudget) {
	t.Helper()
	if (got == nil) != (want == nil) {
		t.Errorf("%s budget: plan %+v, enforce %+v", agent, got, want)
		return
	}
	if got == nil {
		return
	}
	lock := want.TotalBytesBefore - got.TotalBytesBefore
	if lock <= 0 || lock > 200 || want.TotalBytesAfter-got.TotalBytesAfter != lock ||
		got.RemovedFiles != want.RemovedFiles || got.RemovedEntries != want.RemovedEntries || got.FreedBytes != want.FreedBytes ||
		got.MaxBytes != want.MaxBytes || got.HighWaterBytes != want.HighWaterBytes || got.OverBudget != want.OverBudget {
		t.Errorf("%s budget: plan %+v\nenforce %+v", agent, *got, *want)
	}
}

func findMaintenance(p *model.RetentionPlan, agent string) *model.MaintenancePlan {
	for _, m := range p.Maintenance {
		if m.Agent == agent {
			return m
		}
	}
	return nil
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if sc.Text() != "" {
			out = append(out, sc.Text())
		}
	}
	slices.Sort(out)
	return out
}

// Without budget pressure, cleanup's own dry-run agrees with the plan on
// the counts, and its table (action, key, age, model, flags per row) is
// ours. Its disk total still holds the archives enforce would expire first.
func TestConformanceOpenClawDryRun(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	golden := filepath.Join(conformanceDir(), "openclaw", "default")
	p := conformancePlan(t, dir, model.MaintenanceSettings{}, "", false)
	dry := readCleanup(t, filepath.Join(golden, "dry-run.json"))
	for _, m := range p.Maintenance {
		want := dry[m.Agent]
		if m.BeforeCount != want.BeforeCount || m.AfterCount != want.AfterCount || m.Pruned != want.Pruned || m.Capped != want.Capped {
			t.Errorf("%s: plan %d→%d, dry-run %+v", m.Agent, m.BeforeCount, m.AfterCount, want)
		}
		var expired int64
		for _, f := range m.Files {
			if f.Step == model.StepExpireDeleted || f.Step == model.StepExpireReset {
				expired += f.Size
			}
		}
		if want.DiskBudget == nil || m.Budget == nil || m.Budget.TotalBytesBefore+expired != want.DiskBudget.TotalBytesBefore {
			t.Errorf("%s: disk total %+v + %d expired, dry-run %+v", m.Agent, m.Budget, expired, want.DiskBudget)
		}
	}

	// The table, agent by agent, as cleanup prints it.
	var ours []string
	for _, m := range p.Maintenance {
		ours = append(ours, "Agent: "+m.Agent)
		for _, r := range m.Rows {
			line := strings.Join([]string{padEnd(string(r.Action), 12), padEnd(truncateKey(r.Key), 26), padEnd(ageCell(p.Now, r.UpdatedAt), 9),
				padEnd(modelCell(r.Entry, m.DefaultModel), 14), flagsCell(r.Entry)}, " ")
			ours = append(ours, strings.TrimRight(line, " "))
		}
	}
	var theirs []string
	inTable := false
	for _, line := range readFileLines(t, filepath.Join(golden, "dry-run.txt")) {
		switch {
		case strings.HasPrefix(line, "Agent: "):
			theirs = append(theirs, line)
			inTable = false
		case strings.HasPrefix(line, "Action "):
			inTable = true
		case line == "":
			inTable = false
		case inTable:
			theirs = append(theirs, line)
		}
	}
	if !slices.Equal(byAgent(ours), byAgent(theirs)) {
		t.Errorf("table: ours\n%s\ncleanup's\n%s", strings.Join(ours, "\n"), strings.Join(theirs, "\n"))
	}
}

// byAgent orders "Agent: x" blocks by agent id (OpenClaw lists agents in
// its config's order, we in the folder's), keeping the rows of each.
func byAgent(lines []string) []string {
	var blocks [][]string
	for _, l := range lines {
		if strings.HasPrefix(l, "Agent: ") || len(blocks) == 0 {
			blocks = append(blocks, nil)
		}
		blocks[len(blocks)-1] = append(blocks[len(blocks)-1], l)
	}
	slices.SortFunc(blocks, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	return slices.Concat(blocks...)
}

func readFileLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n")
}

// The ledger plan archives exactly the dates ClawVault's archive pass
// names, at 14 days (also reflect's) and at 30; its line is ClawVault's.
func TestConformanceClawVaultArchive(t *testing.T) {
	t.Parallel()
	dir := conformanceDemo(t)
	for _, days := range []int{14, 30} {
		ws, err := store.Locate(store.Env{Getenv: func(string) string { return "" }, Home: t.TempDir(), Cwd: "/"},
			store.LocateOptions{StateDir: filepath.Join(dir, "state"), Vault: filepath.Join(dir, "vault")})
		if err != nil {
			t.Fatal(err)
		}
		now, _ := time.Parse(time.RFC3339, "2026-11-21T12:00:00Z")
		p, err := observer.PlanRetention(context.Background(), observer.RetentionOptions{Workspace: ws, Now: now,
			Config: store.DefaultRetentionConfig(), OlderThanDays: days, SkipMaintenance: true, SkipTranscripts: true})
		if err != nil {
			t.Fatal(err)
		}
		var dates []string
		for _, mv := range p.Ledger.Moves {
			dates = append(dates, mv.Date)
		}
		want := readLines(t, filepath.Join(conformanceDir(), "clawvault", fmt.Sprintf("archive-%d-dates.txt", days)))
		if !slices.Equal(dates, want) {
			t.Errorf("%d days: plan archives %v\nClawVault %v", days, dates, want)
		}
		line := readFileLines(t, filepath.Join(conformanceDir(), "clawvault", fmt.Sprintf("archive-%d.txt", days)))[0]
		if wantLine := fmt.Sprintf("Dry run: %d observation file(s) would be archived.", p.Ledger.Archived()); line != wantLine {
			t.Errorf("%d days: ClawVault printed %q, the plan says %q", days, line, wantLine)
		}
	}
}
