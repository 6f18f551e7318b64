package observer

import (
	"context"
	"testing"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/demo"
	"clawvault-tui/store/demo/demotest"
)

// BenchmarkPlanRetention is the retention budget of the issue: the three
// plans over the demo at BENCH_SCALE=100 (10,000 sessions, the 300 MB
// heartbeat transcript read line by line, ~900 ledger day files) in under
// a second. No transcript index is cached between runs, as for the CLI.
//
// The settings are given as flags, equal to the demo's openclaw.json:
// benchmark workspaces are generated once and shared, and one made before
// the demo's highWaterBytes was fixed still says "80%".
func BenchmarkPlanRetention(b *testing.B) {
	for _, bc := range []struct {
		name               string
		maxDisk, highWater string
		transcripts        bool
	}{
		{"demo-settings", "2gb", "1.6gb", true},
		{"budget-pressure", "64mb", "48mb", false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ws, m := benchWorkspace(b)
			var plan *model.RetentionPlan
			var err error
			for b.Loop() {
				plan, err = PlanRetention(context.Background(), RetentionOptions{
					Workspace: ws, Config: store.DefaultRetentionConfig(), Now: demotest.BenchClock,
					Maintenance: model.MaintenanceSettings{
						MaxDiskBytes:   model.Setting{Value: bc.maxDisk, Source: "bench"},
						HighWaterBytes: model.Setting{Value: bc.highWater, Source: "bench"},
					},
					SkipTranscripts: !bc.transcripts,
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			var files, rows int
			for _, mp := range plan.Maintenance {
				files += len(mp.Files)
				rows += mp.BeforeCount
			}
			b.ReportMetric(float64(m.Sessions), "sessions")
			b.ReportMetric(float64(rows), "rows")
			b.ReportMetric(float64(files+plan.Ledger.Archived()), "files-moved")
			b.ReportMetric(float64(plan.TranscriptsChecked), "transcripts")
		})
	}
}

func benchWorkspace(b *testing.B) (*store.Workspace, *demo.Manifest) {
	m, err := demotest.BenchWorkspace(demotest.BenchScale())
	if err != nil {
		b.Fatal(err)
	}
	ws, err := store.Locate(store.OSEnv(), store.LocateOptions{StateDir: m.StateDir, Vault: m.VaultDir})
	if err != nil {
		b.Fatal(err)
	}
	return ws, m
}
