package transcript_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"testing"
	"time"

	"clawvault-tui/store/demo/demotest"
	"clawvault-tui/store/transcript"
)

// newlineCount is the baseline of the indexing budget: read the file and
// count newlines, nothing else.
func newlineCount(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	n := 0
	for {
		m, err := f.Read(buf)
		n += bytes.Count(buf[:m], []byte{'\n'})
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// BenchmarkIndexVsNewlineCount measures the budget of docs/ARCHITECTURE.md on the
// demo's heartbeat-heavy transcript (300 MB at BENCH_SCALE=100): indexing
// takes at most 4× a bare newline count of the same file, and the index
// keeps at most 256 bytes of heap per entry.
func BenchmarkIndexVsNewlineCount(b *testing.B) {
	m, err := demotest.BenchWorkspace(demotest.BenchScale())
	if err != nil {
		b.Fatal(err)
	}
	path := m.Heartbeat.File
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	var countTime, indexTime, validateTime time.Duration
	var ix *transcript.Index
	for b.Loop() {
		start := time.Now()
		if _, err := newlineCount(path); err != nil {
			b.Fatal(err)
		}
		countTime += time.Since(start)

		start = time.Now()
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		ix, err = transcript.Build(context.Background(), path, f, fi.Size(), transcript.Options{DeferValidation: true})
		if err != nil {
			b.Fatal(err)
		}
		indexTime += time.Since(start)

		start = time.Now()
		ix, err = ix.Validate(context.Background(), f, transcript.Options{})
		f.Close()
		if err != nil || !ix.Validated {
			b.Fatal(err)
		}
		validateTime += time.Since(start)
	}
	n := float64(b.N)
	b.ReportMetric(float64(countTime.Milliseconds())/n, "newline-ms/op")
	b.ReportMetric(float64(indexTime.Milliseconds())/n, "index-ms/op")
	b.ReportMetric(float64(indexTime)/float64(countTime), "x-newline-count")
	b.ReportMetric(float64(validateTime.Milliseconds())/n, "validate-ms/op")
	b.ReportMetric(float64(len(ix.Entries)), "entries")
	b.ReportMetric(retainedPerEntry(b, path, fi.Size()), "heap-B/entry")
}

// retainedPerEntry builds the index once more and measures the heap it
// keeps, after garbage collection, per entry.
func retainedPerEntry(b *testing.B, path string, size int64) float64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	ix, err := transcript.Build(context.Background(), path, f, size, transcript.Options{DeferValidation: true})
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / float64(len(ix.Entries))
	runtime.KeepAlive(ix)
	return per
}

// BenchmarkReopen: an unchanged transcript comes from the cache.
func BenchmarkReopen(b *testing.B) {
	m, err := demotest.BenchWorkspace(demotest.BenchScale())
	if err != nil {
		b.Fatal(err)
	}
	c := transcript.NewCache()
	if _, err := c.Open(context.Background(), m.MainNeverObserved.File, transcript.Options{}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := c.Open(context.Background(), m.MainNeverObserved.File, transcript.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReopenGrown: a transcript that grew by one line is extended
// from where its index stopped; only the new bytes are read and sniffed
// (the tree, derived from all entries, is rebuilt).
func BenchmarkReopenGrown(b *testing.B) {
	m, err := demotest.BenchWorkspace(demotest.BenchScale())
	if err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile(m.Heartbeat.File)
	if err != nil {
		b.Fatal(err)
	}
	path := b.TempDir() + "/grown.jsonl"
	if err := os.WriteFile(path, src, 0o644); err != nil {
		b.Fatal(err)
	}
	c := transcript.NewCache()
	ix, err := c.Open(context.Background(), path, transcript.Options{DeferValidation: true})
	if err != nil {
		b.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	leaf := ix.Tree.LeafID()
	for b.Loop() {
		b.StopTimer()
		id := fmt.Sprintf("%08x", b.N+int(time.Now().UnixNano()&0xffffff))
		fmt.Fprintf(f, `{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-11-21T12:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"HEARTBEAT_OK"}]}}`+"\n", id, leaf)
		leaf = id
		b.StartTimer()
		if ix, err = c.Open(context.Background(), path, transcript.Options{DeferValidation: true}); err != nil {
			b.Fatal(err)
		}
	}
	if c.Stats.Extends == 0 {
		b.Fatal("the grown file was not extended")
	}
	b.ReportMetric(float64(len(ix.Entries)), "entries")
}
