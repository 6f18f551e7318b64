package observer

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"clawvault-tui/store"
	"clawvault-tui/store/demo/demotest"
	"clawvault-tui/store/jsonscan"
)

// scanPending is the floor of the sweep budget: validate every pending
// line with our JSON scanner and decode what a sweep takes from it (the
// message's role and the text of its content), on all cores in 4 MiB
// pieces cut at newlines, as the sweep's reader does. It returns the bytes
// of text decoded.
func scanPending(candidates []Candidate) (int64, error) {
	type piece struct{ data []byte }
	work := make(chan piece, runtime.GOMAXPROCS(0))
	var total int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var n int64
			for p := range work {
				for line := range bytes.Lines(p.data) {
					n += decodeLine(bytes.TrimSuffix(line, []byte{'\n'}))
				}
			}
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	var err error
	for _, c := range candidates {
		if err = sendPieces(c, func(data []byte) { work <- piece{data} }); err != nil {
			break
		}
	}
	close(work)
	wg.Wait()
	return total, err
}

// sendPieces reads a candidate's pending range in pieces of whole lines.
func sendPieces(c Candidate, send func([]byte)) error {
	f, err := os.Open(c.File)
	if err != nil {
		return err
	}
	defer f.Close()
	r := io.NewSectionReader(f, c.StartOffset, c.NewBytes)
	var carry []byte
	for {
		buf := make([]byte, len(carry)+readChunk)
		copy(buf, carry)
		n, err := io.ReadFull(r, buf[len(carry):])
		buf = buf[:len(carry)+n]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			send(buf)
			return nil
		}
		if err != nil {
			return err
		}
		cut := bytes.LastIndexByte(buf, '\n') + 1
		send(buf[:cut])
		carry = buf[cut:]
	}
}

// decodeLine validates one line and decodes its message's role and text.
func decodeLine(line []byte) int64 {
	var n int64
	jsonscan.ObjectWith(line, 0, func(key []byte, at int) (int, bool) {
		if !jsonscan.KeyIs(key, "message") || at >= len(line) || line[at] != '{' {
			return jsonscan.Value(line, at)
		}
		return jsonscan.Object(line, at, func(k, v []byte) bool {
			switch {
			case jsonscan.KeyIs(k, "role"):
				n += int64(len(jsonscan.Unquote(v)))
			case jsonscan.KeyIs(k, "content") && len(v) > 0 && v[0] == '"':
				n += int64(len(jsonscan.Unquote(v)))
			case jsonscan.KeyIs(k, "content") && len(v) > 0 && v[0] == '[':
				jsonscan.Array(v, 0, func(block []byte) bool {
					jsonscan.Object(block, 0, func(bk, bv []byte) bool {
						if jsonscan.KeyIs(bk, "text") {
							n += int64(len(jsonscan.Unquote(bv)))
						}
						return true
					})
					return true
				})
			}
			return true
		})
	})
	return n
}

// warmPending reads the pending ranges once, so that what follows reads
// them from the page cache.
func warmPending(candidates []Candidate) error {
	for _, c := range candidates {
		if err := sendPieces(c, func([]byte) {}); err != nil {
			return err
		}
	}
	return nil
}

// copyVault copies a vault (its files, not links) into dst.
func copyVault(b *testing.B, src, dst string) {
	b.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
}

func vaultBytes(root string) int64 {
	var n int64
	filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// BenchmarkSweepVsScan measures the sweep budget: with the rules
// compressor, a sweep of the demo's main agent into a copy of the demo's
// own vault without its cursor file (every transcript pending), against validating and decoding the same pending lines with
// our JSON scanner (scanPending) in the same iteration: x-scan is the
// ratio (budget: 4). It runs at scale 10 and at BENCH_SCALE (make bench:
// 100): ns-per-pending-byte at both says whether the cost is linear in the
// pending bytes and in the vault's size, which grow together. Every
// iteration sweeps into a fresh copy of the vault, so every file is
// written.
func BenchmarkSweepVsScan(b *testing.B) {
	scales := []int{10}
	if s := demotest.BenchScale(); s != 10 && s > 1 {
		scales = append(scales, s)
	}
	for _, scale := range scales {
		b.Run(fmt.Sprintf("scale=%d", scale), func(b *testing.B) { benchSweepVsScan(b, scale) })
	}
}

func benchSweepVsScan(b *testing.B, scale int) {
	m, err := demotest.BenchWorkspace(scale)
	if err != nil {
		b.Fatal(err)
	}
	ws, err := store.Locate(store.Env{Getenv: func(string) string { return "" }, Home: b.TempDir(), Cwd: "/"},
		store.LocateOptions{StateDir: m.StateDir, Vault: m.VaultDir})
	if err != nil {
		b.Fatal(err)
	}
	now := demotest.BenchClock
	var scanTime, sweepTime time.Duration
	var report *SweepReport
	var pending, vault int64
	progressReports := 0
	for b.Loop() {
		dir := b.TempDir()
		ws.Vault = filepath.Join(dir, "vault")
		copyVault(b, m.VaultDir, ws.Vault)
		// Without the demo's cursors every transcript is pending: the
		// pending bytes and the vault both grow with the scale.
		if err := os.Remove(store.CursorFile(ws.Vault)); err != nil {
			b.Fatal(err)
		}
		vault = vaultBytes(ws.Vault)

		snap, err := store.Scan(context.Background(), store.OS, ws, store.ScanOptions{Now: now})
		if err != nil {
			b.Fatal(err)
		}
		sel := Select(snap, "main", 0)
		pending = sel.NewBytes()
		// Both are timed from the page cache.
		if err := warmPending(sel.Candidates); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if _, err := scanPending(sel.Candidates); err != nil {
			b.Fatal(err)
		}
		scanTime += time.Since(start)

		progressReports = 0
		start = time.Now()
		report, err = Sweep(context.Background(), SweepOptions{Workspace: ws, Snapshot: snap, Now: func() time.Time { return now },
			Progress: func(Progress) { progressReports++ }})
		if err != nil {
			b.Fatal(err)
		}
		sweepTime += time.Since(start)
		os.RemoveAll(dir)
	}
	b.SetBytes(pending)
	n := float64(b.N)
	b.ReportMetric(float64(len(report.Observed)), "sessions")
	b.ReportMetric(float64(pending)/1e6, "MB-pending")
	b.ReportMetric(float64(vault)/1e6, "MB-vault")
	b.ReportMetric(float64(report.Observations), "observations")
	b.ReportMetric(scanTime.Seconds()*1000/n, "ms-scan")
	b.ReportMetric(sweepTime.Seconds()*1000/n, "ms-sweep")
	b.ReportMetric(sweepTime.Seconds()/scanTime.Seconds(), "x-scan")
	b.ReportMetric(float64(sweepTime.Nanoseconds())/n/float64(pending), "ns-per-pending-byte")
	b.ReportMetric(float64(progressReports), "progress-reports")
}
