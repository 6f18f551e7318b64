package model

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var maintNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

const testDir = "/s"

// at is a row time n days before maintNow.
func daysAgo(n float64) RowTime {
	ms := float64(maintNow.UnixMilli()) - n*86_400_000
	return RowTime{Set: true, Value: ms, IsNumber: true}
}

// row builds a row whose transcript is <id>.jsonl.
func mrow(key, id string, updated RowTime) MaintenanceRow {
	p := filepath.Join(testDir, id+".jsonl")
	return MaintenanceRow{Key: key, SessionID: id, UpdatedAt: updated, Transcript: p, Candidates: []string{p}, ChunkBytes: 100}
}

func mfile(name string, size int64, ageDays float64) DirFile {
	return DirFile{Name: name, IsFile: true, Size: size, ModTime: maintNow.Add(-time.Duration(ageDays * float64(24*time.Hour)))}
}

func policy(mod func(p *MaintenancePolicy)) MaintenancePolicy {
	p, _ := ResolveMaintenance(MaintenanceSettings{})
	if mod != nil {
		mod(&p)
	}
	return p
}

func plan(rows []MaintenanceRow, files []DirFile, pol MaintenancePolicy, mod ...func(*MaintenanceInput)) *MaintenancePlan {
	in := MaintenanceInput{Agent: "main", SessionsDir: testDir, StorePath: filepath.Join(testDir, "sessions.json"), Rows: rows, Files: files, Now: maintNow}
	for _, m := range mod {
		m(&in)
	}
	return PlanMaintenance(in, pol)
}

// actions maps each key to its action.
func actions(p *MaintenancePlan) map[string]RowAction {
	out := map[string]RowAction{}
	for _, r := range p.Rows {
		out[r.Key] = r.Action
	}
	return out
}

// steps lists "step name" for each file leaving, in order.
func steps(p *MaintenancePlan) []string {
	var out []string
	for _, f := range p.Files {
		out = append(out, string(f.Step)+" "+f.Name)
	}
	return out
}

func TestMaintenanceRowActions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		rows []MaintenanceRow
		pol  MaintenancePolicy
		fix  bool
		want map[string]RowAction
	}{
		{
			name: "stale rows go, a row without updatedAt stays",
			rows: []MaintenanceRow{mrow("a", "a", daysAgo(31)), mrow("b", "b", daysAgo(29)), mrow("c", "c", RowTime{})},
			pol:  policy(nil),
			want: map[string]RowAction{"a": ActionPruneStale, "b": ActionKeep, "c": ActionKeep},
		},
		{
			name: "updatedAt as a numeric string is coerced; a word never compares",
			rows: []MaintenanceRow{mrow("s", "s", RowTime{Set: true, Value: 5}), mrow("w", "w", RowTime{Set: true, Value: math.NaN()})},
			pol:  policy(nil),
			want: map[string]RowAction{"s": ActionPruneStale, "w": ActionKeep},
		},
		{
			name: "the cap keeps the newest; rows without updatedAt go first",
			rows: []MaintenanceRow{mrow("old", "1", daysAgo(3)), mrow("none", "2", RowTime{}), mrow("new", "3", daysAgo(1)), mrow("mid", "4", daysAgo(2))},
			pol:  policy(func(p *MaintenancePolicy) { p.MaxEntries = 2 }),
			want: map[string]RowAction{"old": ActionCapOverflow, "none": ActionCapOverflow, "new": ActionKeep, "mid": ActionKeep},
		},
		{
			name: "ties at the cap keep store order",
			rows: []MaintenanceRow{mrow("x", "1", daysAgo(1)), mrow("y", "2", daysAgo(1)), mrow("z", "3", daysAgo(1))},
			pol:  policy(func(p *MaintenancePolicy) { p.MaxEntries = 2 }),
			want: map[string]RowAction{"x": ActionKeep, "y": ActionKeep, "z": ActionCapOverflow},
		},
		{
			name: "stale before cap: pruned rows do not count toward the cap",
			rows: []MaintenanceRow{mrow("p", "1", daysAgo(40)), mrow("q", "2", daysAgo(2)), mrow("r", "3", daysAgo(1))},
			pol:  policy(func(p *MaintenancePolicy) { p.MaxEntries = 2 }),
			want: map[string]RowAction{"p": ActionPruneStale, "q": ActionKeep, "r": ActionKeep},
		},
		{
			name: "a missing transcript is pruned only with --fix-missing, before staleness",
			rows: []MaintenanceRow{func() MaintenanceRow { r := mrow("m", "m", daysAgo(40)); r.Missing = true; return r }()},
			pol:  policy(nil),
			fix:  true,
			want: map[string]RowAction{"m": ActionPruneMissing},
		},
		{
			name: "cron runs past cron.sessionRetention go after maintenance; the job row stays",
			rows: []MaintenanceRow{mrow("agent:main:cron:nightly:run:r1", "r1", daysAgo(2)), mrow("agent:main:cron:nightly", "r1", daysAgo(2)),
				mrow("agent:main:cron:nightly:run:r2", "r2", daysAgo(0.5))},
			pol: policy(nil),
			want: map[string]RowAction{"agent:main:cron:nightly:run:r1": ActionPruneCronRun, "agent:main:cron:nightly": ActionKeep,
				"agent:main:cron:nightly:run:r2": ActionKeep},
		},
	} {
		p := plan(tc.rows, nil, tc.pol, func(in *MaintenanceInput) { in.FixMissing = tc.fix })
		if got := actions(p); !mapsEqual(got, tc.want) {
			t.Errorf("%s: actions = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestMaintenanceArchivesAndExpiry(t *testing.T) {
	t.Parallel()
	rows := []MaintenanceRow{
		mrow("gone", "g", daysAgo(40)),
		mrow("shared-old", "s", daysAgo(40)), mrow("shared-new", "s", daysAgo(1)),
	}
	files := []DirFile{
		mfile("g.jsonl", 500, 40), mfile("s.jsonl", 700, 1), mfile("sessions.json", 400, 0),
		mfile("old.jsonl.deleted.2026-10-01T00-00-00.000Z", 300, 51),
		mfile("new.jsonl.deleted.2026-11-20T00-00-00.000Z", 300, 1),
		mfile("r.jsonl.reset.2026-10-01T00-00-00Z", 200, 51),
		mfile("r2.jsonl.reset.2026-11-01T00-00-00.000Z", 200, 20),
		mfile("z.jsonl.reset.2026-09-01T00-00-00.000Z.zst", 100, 80), // OpenClaw 2026.4 does not read .zst stamps
	}
	p := plan(rows, files, policy(nil))
	want := []string{
		"archive-removed g.jsonl",
		"expire-deleted old.jsonl.deleted.2026-10-01T00-00-00.000Z",
		"expire-reset r.jsonl.reset.2026-10-01T00-00-00Z",
	}
	if got := steps(p); !slices.Equal(got, want) {
		t.Errorf("steps = %q\nwant %q", got, want)
	}
	for _, r := range p.Rows {
		// The shared transcript stays with the kept row; the other leaves
		// with its row, whose share of sessions.json is 100 + 2 bytes.
		if want := map[string]int64{"gone": 500 + 102, "shared-old": 102, "shared-new": 0}[r.Key]; r.FreedBytes != want {
			t.Errorf("%s frees %d bytes, want %d", r.Key, r.FreedBytes, want)
		}
	}
	if p.Files[0].Key != "gone" {
		t.Errorf("the archived transcript leaves with its row: %+v", p.Files[0])
	}

	// resetArchiveRetention: false turns reset expiry off and, with nothing
	// archived, the .deleted expiry too (OpenClaw skips the whole step).
	p = plan(rows[1:], files, policy(func(p *MaintenancePolicy) { p.ResetArchives = false }))
	if got := steps(p); len(got) != 0 {
		t.Errorf("with reset retention off and nothing archived: %q", got)
	}
	p = plan(rows, files, policy(func(p *MaintenancePolicy) { p.ResetArchives = false }))
	if got := steps(p); !slices.Equal(got, want[:2]) {
		t.Errorf("with reset retention off: %q", got)
	}
}

func TestMaintenanceDiskBudget(t *testing.T) {
	t.Parallel()
	budget := func(maxBytes, highWater int64) MaintenancePolicy {
		return policy(func(p *MaintenancePolicy) {
			p.DiskBudget, p.MaxDiskBytes, p.HighWaterBytes = true, maxBytes, highWater
		})
	}
	// Four rows of 100 chunk bytes: the store is 4 + 400 + 6 = 410 bytes.
	rows := []MaintenanceRow{
		mrow("active", "a", daysAgo(9)), mrow("b", "b", daysAgo(5)), mrow("c", "c", daysAgo(4)), mrow("d", "d", daysAgo(1)),
	}
	files := []DirFile{
		mfile("sessions.json", 999, 0), // replaced by the projected 410 bytes
		mfile("a.jsonl", 1000, 9), mfile("b.jsonl", 1000, 5), mfile("c.jsonl", 1000, 4), mfile("d.jsonl", 1000, 1),
		mfile("orphan.jsonl", 300, 2),
		mfile("x.jsonl.reset.2026-11-20T00-00-00.000Z", 200, 2), // same mtime as the orphan: name order
		mfile("sessions.json.bak.1790000000000", 100, 3),
		mfile("empty.jsonl", 0, 8),
	}
	for _, tc := range []struct {
		name        string
		pol         MaintenancePolicy
		active      string
		wantSteps   []string
		wantActions map[string]RowAction
		wantBudget  DiskBudget
	}{
		{
			name: "under budget: nothing", pol: budget(10_000, 8000),
			wantBudget: DiskBudget{TotalBytesBefore: 5010, TotalBytesAfter: 5010, MaxBytes: 10_000, HighWaterBytes: 8000},
		},
		{
			name: "archives and orphans first, oldest mtime first, name order on ties",
			pol:  budget(5000, 4500),
			wantSteps: []string{"budget-orphan empty.jsonl", "budget-archive sessions.json.bak.1790000000000",
				"budget-orphan orphan.jsonl", "budget-archive x.jsonl.reset.2026-11-20T00-00-00.000Z"},
			wantBudget: DiskBudget{TotalBytesBefore: 5010, TotalBytesAfter: 4410, RemovedFiles: 3, FreedBytes: 600,
				MaxBytes: 5000, HighWaterBytes: 4500, OverBudget: true},
		},
		{
			name: "then the oldest rows with their transcripts",
			pol:  budget(5000, 3000),
			wantSteps: []string{"budget-orphan empty.jsonl", "budget-archive sessions.json.bak.1790000000000",
				"budget-orphan orphan.jsonl", "budget-archive x.jsonl.reset.2026-11-20T00-00-00.000Z",
				"budget-evict a.jsonl", "budget-evict b.jsonl"},
			wantActions: map[string]RowAction{"active": ActionEvictBudget, "b": ActionEvictBudget, "c": ActionKeep, "d": ActionKeep},
			// 4410 − (1000 + 102) − (1000 + 102) = 2206
			wantBudget: DiskBudget{TotalBytesBefore: 5010, TotalBytesAfter: 2206, RemovedFiles: 5, RemovedEntries: 2,
				FreedBytes: 2600, MaxBytes: 5000, HighWaterBytes: 3000, OverBudget: true},
		},
		{
			name: "never the active key, even under pressure", pol: budget(5000, 3000), active: " Active ",
			wantSteps: []string{"budget-orphan empty.jsonl", "budget-archive sessions.json.bak.1790000000000",
				"budget-orphan orphan.jsonl", "budget-archive x.jsonl.reset.2026-11-20T00-00-00.000Z",
				"budget-evict b.jsonl", "budget-evict c.jsonl"},
			wantActions: map[string]RowAction{"active": ActionKeep, "b": ActionEvictBudget, "c": ActionEvictBudget, "d": ActionKeep},
			wantBudget: DiskBudget{TotalBytesBefore: 5010, TotalBytesAfter: 2206, RemovedFiles: 5, RemovedEntries: 2,
				FreedBytes: 2600, MaxBytes: 5000, HighWaterBytes: 3000, OverBudget: true},
		},
		{
			name: "the last row leaves the store as {}", pol: budget(5000, 0), active: "",
			wantActions: map[string]RowAction{"active": ActionEvictBudget, "b": ActionEvictBudget, "c": ActionEvictBudget, "d": ActionEvictBudget},
			// every file and row goes; "{}" (2 bytes) remains.
			wantBudget: DiskBudget{TotalBytesBefore: 5010, TotalBytesAfter: 2, RemovedFiles: 7, RemovedEntries: 4,
				FreedBytes: 4600, MaxBytes: 5000, HighWaterBytes: 0, OverBudget: true},
		},
	} {
		p := plan(rows, files, tc.pol, func(in *MaintenanceInput) { in.ActiveKey = tc.active })
		if p.Budget == nil || *p.Budget != tc.wantBudget {
			t.Errorf("%s: budget = %+v\nwant %+v", tc.name, p.Budget, tc.wantBudget)
		}
		if tc.wantSteps != nil && !slices.Equal(steps(p), tc.wantSteps) {
			t.Errorf("%s: steps = %q\nwant %q", tc.name, steps(p), tc.wantSteps)
		}
		if tc.wantActions != nil && !mapsEqual(actions(p), tc.wantActions) {
			t.Errorf("%s: actions = %v", tc.name, actions(p))
		}
		if tc.active != "" {
			for _, r := range p.Rows {
				if r.Key == "active" && !r.Protected {
					t.Errorf("%s: the active row is not marked protected", tc.name)
				}
			}
		}
	}
}

func TestMaintenanceBudgetSharedSession(t *testing.T) {
	t.Parallel()
	// Two rows share a session id: evicting the first keeps the transcript
	// for the second; the budget then evicts the second with it.
	rows := []MaintenanceRow{mrow("one", "s", daysAgo(3)), mrow("two", "s", daysAgo(2)), mrow("keep", "k", daysAgo(1))}
	files := []DirFile{mfile("s.jsonl", 1000, 3), mfile("k.jsonl", 100, 1)}
	pol := policy(func(p *MaintenancePolicy) { p.DiskBudget, p.MaxDiskBytes, p.HighWaterBytes = true, 1000, 900 })
	p := plan(rows, files, pol)
	if got := actions(p); got["one"] != ActionEvictBudget || got["two"] != ActionEvictBudget || got["keep"] != ActionKeep {
		t.Errorf("actions = %v", got)
	}
	if got := steps(p); !slices.Equal(got, []string{"budget-evict s.jsonl"}) || p.Files[0].Key != "two" {
		t.Errorf("steps = %q (%+v)", got, p.Files)
	}
	if p.Budget.RemovedEntries != 2 || p.Budget.RemovedFiles != 1 {
		t.Errorf("budget = %+v", p.Budget)
	}
}

func TestMaintenanceBudgetUpdatedAtKinds(t *testing.T) {
	t.Parallel()
	// The budget reads only finite numbers; a string updatedAt counts as 0
	// (oldest), while pruning coerces it.
	rows := []MaintenanceRow{mrow("num", "n", daysAgo(1)), mrow("str", "s", RowTime{Set: true, Value: float64(maintNow.UnixMilli())})}
	files := []DirFile{mfile("n.jsonl", 1000, 1), mfile("s.jsonl", 1000, 1)}
	pol := policy(func(p *MaintenancePolicy) { p.DiskBudget, p.MaxDiskBytes, p.HighWaterBytes = true, 1500, 1500 })
	p := plan(rows, files, pol)
	if got := actions(p); got["str"] != ActionEvictBudget || got["num"] != ActionKeep {
		t.Errorf("actions = %v", got)
	}
}

func TestMaintenanceWarnings(t *testing.T) {
	t.Parallel()
	p := plan([]MaintenanceRow{mrow("agent:main:main", "m", daysAgo(45))}, nil, policy(nil), func(in *MaintenanceInput) { in.ActiveKey = "agent:main:main" })
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "only from the disk budget") {
		t.Errorf("warnings = %q", p.Warnings)
	}
}

func TestStoreBytes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		chunks []int64
		want   int64
	}{{nil, 2}, {[]int64{10}, 14}, {[]int64{10, 20}, 36}} {
		if got := StoreBytes(tc.chunks); got != tc.want {
			t.Errorf("StoreBytes(%v) = %d, want %d", tc.chunks, got, tc.want)
		}
	}
}

func TestMaintenanceNames(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]bool{
		"agent:main:cron:nightly:run:abc": true, "AGENT:Main:Cron:n:Run:x": true, "agent:main:cron:nightly": false,
		"agent:main:cron:n:run:x:y": false, "cron:n:run:x": false, "agent::cron:n:run:x": false, "agent:m:cron::n:run:x": true,
	} {
		if IsCronRunKey(key) != want {
			t.Errorf("IsCronRunKey(%q) = %v", key, !want)
		}
	}
	for name, want := range map[string]bool{
		"a.jsonl.deleted.2026-01-01T00-00-00.000Z": true, "a.jsonl.reset.2026-01-01T00-00-00Z": true,
		"sessions.json.bak.1790000000000": true, "sessions.json.bak.x": false, "a.jsonl.bak.2026-01-01T00-00-00Z": true,
		"a.jsonl.reset.2026-01-01T00-00-00Z.zst": false, "a.jsonl": false, "a.checkpoint.x.jsonl": false,
	} {
		if IsArchiveArtifactName(name) != want {
			t.Errorf("IsArchiveArtifactName(%q) = %v", name, !want)
		}
	}
	if at, ok := ArchiveTime("x.jsonl.deleted.2026-10-12T07-00-00.000Z", "deleted"); !ok || !at.Equal(time.Date(2026, 10, 12, 7, 0, 0, 0, time.UTC)) {
		t.Errorf("ArchiveTime = %v %v", at, ok)
	}
	if ArchiveStamp(time.Date(2026, 11, 21, 12, 0, 4, 837e6, time.UTC)) != "2026-11-21T12-00-04.837Z" {
		t.Error("ArchiveStamp")
	}
	for name, want := range map[string]bool{"a.jsonl": true, "a.checkpoint.b.jsonl": true, "sessions.json": false, "a.jsonl.lock": false,
		"a.jsonl.deleted.2026-01-01T00-00-00Z": false} {
		if IsPrimaryTranscriptName(name) != want {
			t.Errorf("IsPrimaryTranscriptName(%q) = %v", name, !want)
		}
	}
}
