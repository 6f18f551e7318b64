package transcript_test

import (
	"context"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store/demo/demotest"
	"clawvault-tui/store/transcript"
)

// BenchmarkTUIHeapPerEntry opens a transcript as the Transcript screen
// does (Cache.File's Reader: Index with deferred validation, Validate,
// then the tree and context views the pane keeps) and reports the Go heap
// it keeps per entry after garbage collection (heap-B/entry; the budget is
// 256 bytes whatever the file's size) and the highest heap seen while it
// worked (peak-heap-B/entry, sampled every 5 ms). The file is read, not
// mapped: what the page cache holds of it is the kernel's, shared and
// dropped under pressure, and not in these figures.
//
// The transcript is the demo's heartbeat-heavy one at $BENCH_SCALE (300 MB
// at 100), or the file $BENCH_TRANSCRIPT names (make bench-compare's 1 GB
// one, for instance).
func BenchmarkTUIHeapPerEntry(b *testing.B) {
	path := os.Getenv("BENCH_TRANSCRIPT")
	if path == "" {
		m, err := demotest.BenchWorkspace(demotest.BenchScale())
		if err != nil {
			b.Fatal(err)
		}
		path = m.Heartbeat.File
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	var retained, peak float64
	var entries int
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		stop := make(chan struct{})
		var top uint64
		var wg sync.WaitGroup
		wg.Go(func() {
			tick := time.NewTicker(5 * time.Millisecond)
			defer tick.Stop()
			var ms runtime.MemStats
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					runtime.ReadMemStats(&ms)
					top = max(top, ms.HeapAlloc)
				}
			}
		})
		r := transcript.NewCache().File(path)
		ctx := context.Background()
		ix, err := r.Index(ctx, transcript.Options{DeferValidation: true})
		if err == nil {
			ix, err = r.Validate(ctx, ix, transcript.Options{})
		}
		if err != nil {
			b.Fatal(err)
		}
		tree, context := model.FlattenTree(ix.Tree), model.ContextView(ix.Tree)
		close(stop)
		wg.Wait()
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		entries = len(ix.Entries)
		retained = float64(after.HeapAlloc-before.HeapAlloc) / float64(entries)
		peak = float64(max(top, after.HeapAlloc)-before.HeapAlloc) / float64(entries)
		runtime.KeepAlive(r)
		runtime.KeepAlive(ix)
		runtime.KeepAlive(tree)
		runtime.KeepAlive(context)
	}
	b.ReportMetric(float64(entries), "entries")
	b.ReportMetric(retained, "heap-B/entry")
	b.ReportMetric(peak, "peak-heap-B/entry")
}
