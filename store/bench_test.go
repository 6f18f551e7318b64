package store

import (
	"context"
	"os"
	"strconv"
	"testing"

	"clawvault-tui/store/demo"
)

// BenchmarkStatus10k is the status budget of DESIGN.md §7: one scan of
// every agent over the demo at BENCH_SCALE=100 (10,000 sessions), stat only.
func BenchmarkStatus(b *testing.B) {
	scale := 1
	if s, err := strconv.Atoi(os.Getenv("BENCH_SCALE")); err == nil && s > 0 {
		scale = s
	}
	m, err := demo.BenchWorkspace(scale)
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
