package search

import (
	"bufio"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"clawvault-tui/store"
	"clawvault-tui/store/demo/demotest"
)

// The search budgets of docs/ARCHITECTURE.md, on the vault the demo generator makes
// at BENCH_SCALE (100 in `make bench`: a 15 MB vault): a full build in
// MB/s, a query per key press (p95), and the re-index of one edited file.

func benchScale() int {
	if s, err := strconv.Atoi(os.Getenv("BENCH_SCALE")); err == nil && s > 0 {
		return s
	}
	return 1
}

// benchOptions indexes the bench workspace's vault and workspaces into a
// fresh folder.
func benchOptions(b *testing.B, vault, state string) Options {
	b.Helper()
	ws, err := store.Locate(store.OSEnv(), store.LocateOptions{StateDir: state, Vault: vault})
	if err != nil {
		b.Fatal(err)
	}
	opt, err := OptionsFor(ws, store.SearchConfig{CacheDir: b.TempDir()}, store.OSEnv())
	if err != nil {
		b.Fatal(err)
	}
	return opt
}

// BenchmarkBuild: a full build of the index over every file, in MB/s of
// Markdown read; peak-rss-MB is the process's peak resident memory during
// the build (Linux), index-MB the index folder afterwards.
func BenchmarkBuild(b *testing.B) {
	m, err := demotest.BenchWorkspace(benchScale())
	if err != nil {
		b.Fatal(err)
	}
	opt := benchOptions(b, m.VaultDir, m.StateDir)
	var st Stats
	var peak, size int64
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		os.RemoveAll(opt.Dir)
		resetPeakRSS()
		cpuStart := demotest.CPUTime()
		b.StartTimer()
		ix, err := Open(opt)
		if err != nil {
			b.Fatal(err)
		}
		if st, err = ix.Sync(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		if err := ix.Close(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += demotest.CPUTime() - cpuStart
		peak = max(peak, peakRSS())
		size = dirSize(opt.Dir)
		b.StartTimer()
	}
	b.SetBytes(st.Bytes)
	b.ReportMetric(float64(st.Files), "files")
	b.ReportMetric(float64(st.Docs), "sections")
	b.ReportMetric(float64(peak)/1e6, "peak-rss-MB")
	// CPU seconds spent, all threads: steadier than wall time on a shared machine.
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(size)/1e6, "index-MB")
}

// typedQueries are searches typed one key at a time: each prefix of each
// is one query, as the Search screen runs them.
var typedQueries = []string{
	"postgresql migration",
	"elena invoice",
	"credit notes",
	"soc2 questionnaire type:todo",
	"decided telegram i>=0.8",
	"path:memory cut-over",
	"acme pricing -discount",
	"\"weekly billing sync\"",
	"warehouse jonas",
	"type:lesson backup",
}

// BenchmarkSearchAsYouType: every prefix of typedQueries, as typed; p95-ms
// is the budget's figure (< 10 ms).
func BenchmarkSearchAsYouType(b *testing.B) {
	m, err := demotest.BenchWorkspace(benchScale())
	if err != nil {
		b.Fatal(err)
	}
	opt := benchOptions(b, m.VaultDir, m.StateDir)
	ix, err := Open(opt)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	var prefixes []string
	for _, q := range typedQueries {
		for i := 1; i <= len(q); i++ {
			prefixes = append(prefixes, q[:i])
		}
	}
	ctx := context.Background()
	var took []time.Duration
	hits := 0
	b.ResetTimer()
	for b.Loop() {
		for _, p := range prefixes {
			start := time.Now()
			res, err := ix.Search(ctx, p, SearchOptions{Limit: 20, AsYouType: true})
			if err != nil {
				b.Fatalf("%q: %v", p, err)
			}
			took = append(took, time.Since(start))
			hits += len(res.Hits)
		}
	}
	slices.Sort(took)
	pct := func(p float64) float64 { return float64(took[int(p*float64(len(took)-1))]) / 1e6 }
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
	b.ReportMetric(pct(1), "max-ms")
	b.ReportMetric(float64(len(prefixes)), "queries/op")
}

// BenchmarkReindexOneFile: the index is up to date; one ledger day file of
// a copy of the vault is edited (alternately, so it always changes) and
// re-indexed, as after a save in the editor.
func BenchmarkReindexOneFile(b *testing.B) {
	m, err := demotest.BenchWorkspace(benchScale())
	if err != nil {
		b.Fatal(err)
	}
	vault := filepath.Join(b.TempDir(), "vault")
	if err := os.CopyFS(vault, os.DirFS(m.VaultDir)); err != nil {
		b.Fatal(err)
	}
	opt := benchOptions(b, vault, m.StateDir)
	ix, err := Open(opt)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	if _, err := ix.Sync(ctx, nil); err != nil {
		b.Fatal(err)
	}
	day := newestLedgerDay(b, vault)
	original, err := os.ReadFile(day)
	if err != nil {
		b.Fatal(err)
	}
	edited := append(slices.Clone(original), []byte("- [decision|c=0.90|i=0.85] 23:59 [main] user: We decided to benchmark the re-index.\n")...)
	i := 0
	for b.Loop() {
		data := original
		if i%2 == 0 {
			data = edited
		}
		i++
		if err := os.WriteFile(day, data, 0o644); err != nil {
			b.Fatal(err)
		}
		st, err := ix.Update(ctx, day)
		if err != nil || st.Indexed != 1 {
			b.Fatalf("update: %+v %v", st, err)
		}
	}
	b.ReportMetric(float64(len(original))/1e3, "file-KB")
}

func newestLedgerDay(b *testing.B, vault string) string {
	var days []string
	filepath.WalkDir(filepath.Join(vault, "ledger", "observations"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			days = append(days, p)
		}
		return nil
	})
	if len(days) == 0 {
		b.Fatal("no ledger day files")
	}
	slices.Sort(days)
	return days[len(days)-1]
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// resetPeakRSS resets the kernel's peak resident set size of this process
// (Linux: writing 5 to /proc/self/clear_refs), so peakRSS measures from
// here.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS is VmHWM from /proc/self/status in bytes, 0 where unknown.
func peakRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024
		}
	}
	return 0
}
