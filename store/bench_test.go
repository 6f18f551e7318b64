package store

import (
	"context"
	"testing"

	"clawvault-tui/store/demo/demotest"
)

// BenchmarkStatus10k is the status budget of docs/ARCHITECTURE.md: one scan of
// every agent over the demo at BENCH_SCALE=100 (10,000 sessions), stat only.
func BenchmarkStatus(b *testing.B) {
	m, err := demotest.BenchWorkspace(demotest.BenchScale())
	if err != nil {
		b.Fatal(err)
	}
	ws, err := Locate(OSEnv(), LocateOptions{StateDir: m.StateDir, Vault: m.VaultDir})
	if err != nil {
		b.Fatal(err)
	}
	var rows int
	// The budget says: no transcript content read. countingFS fails any read.
	fsys := &countingFS{FS: OS}
	for b.Loop() {
		snap, err := Scan(context.Background(), fsys, ws, ScanOptions{})
		if err != nil {
			b.Fatal(err)
		}
		rows = len(snap.Rows)
	}
	b.ReportMetric(float64(rows), "sessions")
}
