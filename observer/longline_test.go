package observer

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"clawvault-tui/store"
)

// writeHugeLineTranscript writes a transcript whose second line is one
// message of size bytes, between two ordinary ones, without holding it in
// memory.
func writeHugeLineTranscript(t testing.TB, path string, size int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(msgLine("a1", "user", "We decided to keep the first line small.") + "\n")
	w.WriteString(`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-11-21T10:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"`)
	chunk := []byte(strings.Repeat("x", 1<<20))
	for left := size; left > 0; left -= len(chunk) {
		w.Write(chunk[:min(len(chunk), left)])
	}
	w.WriteString("\"}]}}\n")
	w.WriteString(msgLine("a3", "user", "Lesson learned: after the big line, check the webhook.") + "\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// A 200 MB single-line message: the sweep skips that line (reported with
// its number), observes the others, and never holds it: it allocates far
// less than the line. Before the cap it was read whole (and the parallel
// reader re-copied the growing line per 4 MiB chunk: 75 s and 1.5 GB).
func TestSweepSkipsALineOverTheCap(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 200 MB transcript")
	}
	f := newFixture(t)
	path := filepath.Join(f.sessions, "s1.jsonl")
	writeHugeLineTranscript(t, path, 200<<20)
	f.session("agent:main:main", "s1", "")
	writeHugeLineTranscript(t, path, 200<<20) // session() wrote it empty

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := f.mustSweep(SweepOptions{})
	runtime.ReadMemStats(&after)

	if len(r.Observed) != 1 {
		t.Fatalf("observed %+v, failed %+v", r.Observed, r.Failed)
	}
	s := r.Observed[0]
	if len(s.LongLines) != 1 || s.LongLines[0].Line != 2 || s.LongLines[0].Bytes < 200<<20 || s.Messages != 2 || s.NextOffset != fileSize(t, path) {
		t.Errorf("session = %+v", s)
	}
	if s.ByType["decision"] != 1 || s.ByType["lesson"] != 1 {
		t.Errorf("observations = %v", s.ByType)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 100<<20 {
		t.Errorf("the sweep allocated %d MB for a 200 MB line it skips", alloc>>20)
	}
	var text []string
	for _, l := range r.TextLines() {
		text = append(text, l.Text)
	}
	if !strings.Contains(strings.Join(text, "\n"), "line 2 (byte ") {
		t.Errorf("the report does not name the line:\n%s", strings.Join(text, "\n"))
	}
}

// Line numbers count from the start of the file, also when the read starts
// at a cursor.
func TestLongLineNumbersFromACursor(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "t.jsonl")
	writeHugeLineTranscript(t, path, 5000)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first := int64(strings.IndexByte(string(data), '\n') + 1)
	for _, start := range []int64{0, first} {
		var msgs []string
		res, err := readIncremental(t.Context(), store.OS, path, start, 1024, func(m string) { msgs = append(msgs, m) }, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.LongLines) != 1 || res.LongLines[0].Line != 2 || res.LongLines[0].Offset != first || res.NextOffset != int64(len(data)) {
			t.Errorf("start %d: %+v", start, res)
		}
	}
}

// BenchmarkReadHugeLine reads a 200 MB single-line transcript (the line
// over the default cap, between two ordinary ones) as a sweep does, on all
// cores: MB-alloc/op and MB-heap-peak say what it costs in memory (before
// the cap and the linear reader: 1.5 GB and 75 s).
func BenchmarkReadHugeLine(b *testing.B) {
	path := filepath.Join(b.TempDir(), "huge.jsonl")
	writeHugeLineTranscript(b, path, 200<<20)
	var peak uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // samples the heap while the reads run
		defer close(done)
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			default:
			}
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			time.Sleep(5 * time.Millisecond)
		}
	}()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for b.Loop() {
		res, err := readIncremental(context.Background(), store.OS, path, 0, 0, func(string) {}, nil)
		if err != nil || len(res.LongLines) != 1 {
			b.Fatal(err, res)
		}
	}
	runtime.ReadMemStats(&after)
	close(stop)
	<-done
	b.SetBytes(fileSize(b, path))
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/1e6, "MB-alloc/op")
	b.ReportMetric(float64(peak)/1e6, "MB-heap-peak")
}

// A long line names its event only when it was read from the store's rows:
// a cold archive of a SQLite-era session is a file, read by bytes, whose
// lines have no seq (it was "event seq 0" for each of them).
func TestLongLineTextNamesSeqOnlyForRows(t *testing.T) {
	t.Parallel()
	seq := int64(0)
	r := &SweepReport{Candidates: []Candidate{{}}, MaxLineBytes: 1 << 20, Observed: []SessionResult{
		{SessionKey: "agent:ops:main", SessionID: "cold", SeqCursor: &SeqCursorOut{LastObservedSeq: 9},
			LongLines: []LongLine{{Line: 3, Offset: 4096, Bytes: 2 << 20}}},
		{SessionKey: "agent:ops:cron", SessionID: "rows", SeqCursor: &SeqCursorOut{LastObservedSeq: 9},
			LongLines: []LongLine{{Line: 1, Offset: 0, Bytes: 2 << 20, Seq: &seq}}},
	}}
	var text []string
	for _, l := range r.TextLines() {
		text = append(text, l.Text)
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{"line 3 (byte 4096) skipped", "event seq 0 skipped"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in:\n%s", want, all)
		}
	}
	if strings.Count(all, "event seq") != 1 {
		t.Errorf("the cold archive's line is named by a seq:\n%s", all)
	}
}
