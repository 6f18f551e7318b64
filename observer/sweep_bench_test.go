package observer

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"clawvault-tui/store"
	"clawvault-tui/store/demo/demotest"
)

// readPending is the baseline of the sweep budget: read every candidate's
// pending bytes and count their newlines, nothing else.
func readPending(candidates []Candidate) (int64, error) {
	buf := make([]byte, 1<<20)
	var total int64
	for _, c := range candidates {
		f, err := os.Open(c.File)
		if err != nil {
			return 0, err
		}
		r := io.NewSectionReader(f, c.StartOffset, c.NewBytes)
		for {
			n, err := r.Read(buf)
			total += int64(bytes.Count(buf[:n], []byte{'\n'}))
			if err == io.EOF {
				break
			}
			if err != nil {
				f.Close()
				return 0, err
			}
		}
		f.Close()
	}
	return total, nil
}

// BenchmarkSweepVsRead measures the sweep budget of docs/ARCHITECTURE.md: with the
// rules compressor, a sweep of the main agent of the demo at BENCH_SCALE=100
// into an empty vault (368 sessions, 387 MB pending, the 300 MB heartbeat
// transcript among them) against merely reading those pending bytes. Every
// iteration sweeps into a fresh vault, so every file is written.
func BenchmarkSweepVsRead(b *testing.B) {
	m, err := demotest.BenchWorkspace(demotest.BenchScale())
	if err != nil {
		b.Fatal(err)
	}
	ws, err := store.Locate(store.Env{Getenv: func(string) string { return "" }, Home: b.TempDir(), Cwd: "/"},
		store.LocateOptions{StateDir: m.StateDir, Vault: m.VaultDir})
	if err != nil {
		b.Fatal(err)
	}
	now := demotest.BenchClock
	var readTime, sweepTime time.Duration
	var report *SweepReport
	var pending int64
	progressReports := 0
	for b.Loop() {
		vault := filepath.Join(b.TempDir(), "vault")
		if err := os.MkdirAll(vault, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(vault, ".clawvault.json"), []byte(`{"name":"bench"}`), 0o644); err != nil {
			b.Fatal(err)
		}
		ws.Vault = vault

		snap, err := store.Scan(context.Background(), store.OS, ws, store.ScanOptions{Now: now})
		if err != nil {
			b.Fatal(err)
		}
		candidates := Select(snap, "main", 0).Candidates
		pending = Select(snap, "main", 0).NewBytes()
		start := time.Now()
		if _, err := readPending(candidates); err != nil {
			b.Fatal(err)
		}
		readTime += time.Since(start)

		progressReports = 0
		start = time.Now()
		report, err = Sweep(context.Background(), SweepOptions{Workspace: ws, Now: func() time.Time { return now },
			Progress: func(Progress) { progressReports++ }})
		if err != nil {
			b.Fatal(err)
		}
		sweepTime += time.Since(start)
		os.RemoveAll(vault)
	}
	b.SetBytes(pending)
	n := float64(b.N)
	b.ReportMetric(float64(len(report.Observed)), "sessions")
	b.ReportMetric(float64(pending)/1e6, "MB-pending")
	b.ReportMetric(float64(report.Observations), "observations")
	b.ReportMetric(readTime.Seconds()*1000/n, "ms-read")
	b.ReportMetric(sweepTime.Seconds()*1000/n, "ms-sweep")
	b.ReportMetric(sweepTime.Seconds()/readTime.Seconds(), "x-read")
	b.ReportMetric(float64(progressReports), "progress-reports")
}
