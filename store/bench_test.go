package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/demo"
	"clawvault-tui/store/demo/demotest"
	"clawvault-tui/store/transcript"
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

// BenchmarkStatusSQLiteVsJSONL is the SQLite status budget: a scan of agent
// main's sessions as JSONL files (stat only) and a scan of the same sessions
// in the SQLite-era store (aggregate queries, no event body), in the same
// run: cold (every event row aggregated) and with the stats cache warm (the
// sessions unchanged since the last status), and live: a copy of the store
// where, before each status, OpenClaw would have appended an event to one
// session in a hundred (the cache counts only the rows after what it
// knows). x-jsonl is the warm ratio (budget: at most 2), x-jsonl-live the
// ratio on a store being written, x-jsonl-cold the first status on a
// store (no cache); cpu-ms-* are the CPU time (user and system) of each
// phase, and cpu-x-jsonl and cpu-x-jsonl-live the warm and live ratios of
// CPU time, which a busy machine disturbs less than the wall time.
func BenchmarkStatusSQLiteVsJSONL(b *testing.B) {
	m, state := benchSQLiteState(b)
	jsonl, err := Locate(OSEnv(), LocateOptions{StateDir: m.StateDir, Agent: "main", Vault: m.VaultDir})
	if err != nil {
		b.Fatal(err)
	}
	sqlite, err := Locate(OSEnv(), LocateOptions{StateDir: state, Vault: m.VaultDir})
	if err != nil {
		b.Fatal(err)
	}
	cache := b.TempDir()
	if _, err := Scan(context.Background(), OS, sqlite, ScanOptions{CacheDir: cache}); err != nil {
		b.Fatal(err)
	}
	live, appendEvents, appended := liveSQLiteCopy(b, state, m.VaultDir)
	liveCache := b.TempDir()
	liveSnap, err := Scan(context.Background(), OS, live, ScanOptions{CacheDir: liveCache})
	if err != nil {
		b.Fatal(err)
	}
	liveEvents := eventsIn(liveSnap)
	var inJSONL, cold, warm, onLive, cpuJSONL, cpuCold, cpuWarm, cpuLive time.Duration
	var rows, events, bytes int64
	for b.Loop() {
		start, cpu := time.Now(), demotest.CPUTime()
		if _, err := Scan(context.Background(), OS, jsonl, ScanOptions{}); err != nil {
			b.Fatal(err)
		}
		inJSONL += time.Since(start)
		cpuJSONL += demotest.CPUTime() - cpu
		start, cpu = time.Now(), demotest.CPUTime()
		if _, err := Scan(context.Background(), OS, sqlite, ScanOptions{}); err != nil {
			b.Fatal(err)
		}
		cold += time.Since(start)
		cpuCold += demotest.CPUTime() - cpu
		start, cpu = time.Now(), demotest.CPUTime()
		snap, err := Scan(context.Background(), OS, sqlite, ScanOptions{CacheDir: cache})
		if err != nil {
			b.Fatal(err)
		}
		warm += time.Since(start)
		cpuWarm += demotest.CPUTime() - cpu
		b.StopTimer()
		appendEvents()
		b.StartTimer()
		start, cpu = time.Now(), demotest.CPUTime()
		liveSnap, err := Scan(context.Background(), OS, live, ScanOptions{CacheDir: liveCache})
		if err != nil {
			b.Fatal(err)
		}
		onLive += time.Since(start)
		cpuLive += demotest.CPUTime() - cpu
		b.StopTimer()
		got := eventsIn(liveSnap)
		if got != liveEvents+appended {
			b.Fatalf("the live store shows %d events, want %d: the cache missed appended rows", got, liveEvents+appended)
		}
		liveEvents = got
		b.StartTimer()
		rows, events, bytes = 0, 0, 0
		for _, r := range snap.Rows {
			if r.Generation != nil {
				rows++
				events += r.Generation.Events
				bytes += r.Size
			}
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(inJSONL.Milliseconds())/n, "ms-jsonl")
	b.ReportMetric(float64(cold.Milliseconds())/n, "ms-sqlite-cold")
	b.ReportMetric(float64(warm.Milliseconds())/n, "ms-sqlite")
	b.ReportMetric(float64(warm)/float64(inJSONL), "x-jsonl")
	b.ReportMetric(float64(onLive.Milliseconds())/n, "ms-sqlite-live")
	b.ReportMetric(float64(onLive)/float64(inJSONL), "x-jsonl-live")
	b.ReportMetric(float64(cold)/float64(inJSONL), "x-jsonl-cold")
	b.ReportMetric(float64(cpuJSONL.Milliseconds())/n, "cpu-ms-jsonl")
	b.ReportMetric(float64(cpuCold.Milliseconds())/n, "cpu-ms-sqlite-cold")
	b.ReportMetric(float64(cpuWarm.Milliseconds())/n, "cpu-ms-sqlite")
	b.ReportMetric(float64(cpuLive.Milliseconds())/n, "cpu-ms-sqlite-live")
	b.ReportMetric(float64(cpuWarm)/float64(max(cpuJSONL, 1)), "cpu-x-jsonl")
	b.ReportMetric(float64(cpuLive)/float64(max(cpuJSONL, 1)), "cpu-x-jsonl-live")
	b.ReportMetric(float64(rows), "sessions")
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(float64(bytes)/1e6, "MB")
}

// BenchmarkTreeSQLiteVsJSONL is the SQLite tree budget: the tree of the
// heartbeat transcript (300 MB at scale 100) from its JSONL file (indexed
// and validated, as `tree` does) and from the SQLite-era store
// (identities, no body), in the same run; x-jsonl is the ratio (budget: at
// most 3). cpu-x-jsonl is the ratio of the CPU time (user and system) each
// side used, which a busy machine disturbs less than the wall time.
//
// Each side is measured as `tree` runs it, on its own: both are read once
// before the first measured run (so the page cache holds both files: the
// first run is not the only one to read a gigabyte from disk), and the heap
// is collected before each side (so neither pays for collecting what the
// other left).
func BenchmarkTreeSQLiteVsJSONL(b *testing.B) {
	m, state := benchSQLiteState(b)
	store := filepath.Join(state, "agents", "main", "agent", agentdb.FileName)
	fromJSONL := func() *transcript.Index {
		ix, err := transcript.NewCache().Open(context.Background(), m.Heartbeat.File, transcript.Options{})
		if err != nil {
			b.Fatal(err)
		}
		return ix
	}
	fromSQLite := func() *agentdb.Transcript {
		db, err := agentdb.Open(context.Background(), store)
		if err != nil {
			b.Fatal(err)
		}
		tr, err := db.Transcript(context.Background(), m.Heartbeat.SessionID)
		db.Close()
		if err != nil {
			b.Fatal(err)
		}
		return tr
	}
	fromJSONL()
	fromSQLite()
	var inJSONL, inSQLite, cpuJSONL, cpuSQLite time.Duration
	var entries, factRows int
	for b.Loop() {
		runtime.GC()
		start, cpu := time.Now(), demotest.CPUTime()
		ix := fromJSONL()
		inJSONL += time.Since(start)
		cpuJSONL += demotest.CPUTime() - cpu
		runtime.GC()
		start, cpu = time.Now(), demotest.CPUTime()
		tr := fromSQLite()
		inSQLite += time.Since(start)
		cpuSQLite += demotest.CPUTime() - cpu
		if tr.Tree.Nodes != ix.Tree.Nodes {
			b.Fatalf("%d entries in the store, %d in the file", tr.Tree.Nodes, ix.Tree.Nodes)
		}
		entries, factRows = tr.Tree.Nodes, tr.FactRows
	}
	n := float64(b.N)
	b.ReportMetric(float64(inJSONL.Milliseconds())/n, "ms-jsonl")
	b.ReportMetric(float64(inSQLite.Milliseconds())/n, "ms-sqlite")
	b.ReportMetric(float64(inSQLite)/float64(inJSONL), "x-jsonl")
	b.ReportMetric(float64(cpuJSONL.Milliseconds())/n, "cpu-ms-jsonl")
	b.ReportMetric(float64(cpuSQLite.Milliseconds())/n, "cpu-ms-sqlite")
	b.ReportMetric(float64(cpuSQLite)/float64(max(cpuJSONL, 1)), "cpu-x-jsonl")
	b.ReportMetric(float64(entries), "entries")
	b.ReportMetric(float64(factRows), "fact-rows")
}

// eventsIn counts the events of a scan's SQLite generations.
func eventsIn(snap *Snapshot) int64 {
	var n int64
	for _, r := range snap.Rows {
		if r.Generation != nil {
			n += r.Generation.Events
		}
	}
	return n
}

// liveSQLiteCopy copies the benchmark's SQLite state (the shared one is
// never written) and returns its workspace and a function that appends one
// event to every hundredth session, as a running gateway would between two
// status runs: each new row repeats the session's last event one seq on,
// and the session's window records the write, as OpenClaw's does. It also
// returns how many events each call appends.
func liveSQLiteCopy(b *testing.B, state, vault string) (*Workspace, func(), int64) {
	dir := b.TempDir()
	rel := filepath.Join("agents", "main", "agent")
	if err := os.MkdirAll(filepath.Join(dir, rel), 0o755); err != nil {
		b.Fatal(err)
	}
	for _, suffix := range []string{"", "-wal"} {
		name := filepath.Join(rel, "openclaw-agent.sqlite"+suffix)
		if err := copyFile(OSMover, filepath.Join(state, name), filepath.Join(dir, name)); err != nil && !os.IsNotExist(err) {
			b.Fatal(err)
		}
	}
	path := filepath.Join(dir, rel, "openclaw-agent.sqlite")
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close() })
	var ids []string
	rs, err := w.Query(`SELECT DISTINCT session_id FROM transcript_events ORDER BY session_id`)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; rs.Next(); i++ {
		var id string
		if err := rs.Scan(&id); err != nil {
			b.Fatal(err)
		}
		if i%100 == 0 {
			ids = append(ids, id)
		}
	}
	rs.Close()
	ws, err := Locate(OSEnv(), LocateOptions{StateDir: dir, Vault: vault})
	if err != nil {
		b.Fatal(err)
	}
	return ws, func() {
		tx, err := w.Begin()
		if err != nil {
			b.Fatal(err)
		}
		for _, id := range ids {
			if _, err := tx.Exec(`INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes, navigation_json)
				SELECT session_id, seq + 1, event_json, created_at + 1, event_zstd, event_utf8_bytes, navigation_json
				FROM transcript_events WHERE session_id = ? ORDER BY seq DESC LIMIT 1`, id); err != nil {
				b.Fatal(err)
			}
			if _, err := tx.Exec(`UPDATE session_windows SET transcript_updated_at = coalesce(transcript_updated_at, 0) + 1 WHERE session_id = ?`, id); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}, int64(len(ids))
}

// benchSQLiteState is the benchmark's demo workspace and the state dir in
// which its agent main lives in the SQLite-era store.
func benchSQLiteState(b *testing.B) (*demo.Manifest, string) {
	m, err := demotest.BenchWorkspace(demotest.BenchScale())
	if err != nil {
		b.Fatal(err)
	}
	state, err := demotest.BenchSQLiteState(m)
	if err != nil {
		b.Fatal(err)
	}
	return m, state
}

// BenchmarkImportCheck is the budget of leftover JSONL verified against the
// store (docs/PERFORMANCE.md): the demo's largest transcript, as a JSONL
// left beside the store that holds it, compared entry by entry with the
// store's events of its session (every event read, the file's lines
// matched). MB/s counts the JSONL's bytes (budget: at least 100); cpu-MB/s
// counts them by the process's CPU time.
func BenchmarkImportCheck(b *testing.B) {
	m, state := benchSQLiteState(b)
	db, err := agentdb.Open(context.Background(), filepath.Join(state, "agents", "main", "agent", agentdb.FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	fi, err := os.Stat(m.Heartbeat.File)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	var ch model.ImportCheck
	cpu := demotest.CPUTime()
	for b.Loop() {
		events, err := db.ImportEvents(context.Background(), m.Heartbeat.SessionID, m.Heartbeat.Key, 0)
		if err != nil {
			b.Fatal(err)
		}
		if ch, err = CompareImport(context.Background(), OS, m.Heartbeat.File, m.Heartbeat.File, events, loader(db), -1, transcript.DefaultMaxLineBytes); err != nil {
			b.Fatal(err)
		}
	}
	if spent := demotest.CPUTime() - cpu; spent > 0 {
		// The CPU time, which other processes on a busy machine disturb
		// less than the wall time.
		b.ReportMetric(float64(fi.Size())*float64(b.N)/spent.Seconds()/1e6, "cpu-MB/s")
	}
	if ch.Verdict != model.CodeImportVerified {
		b.Fatalf("%s: %s", ch.Verdict, ch.Diagnosis("store").Message)
	}
	b.ReportMetric(float64(ch.Entries), "entries")
}

// BenchmarkSpace is the budget of `space` (docs/PERFORMANCE.md): where the
// bytes of the benchmark's store go, beside a first status of it (no
// cache) in the same run; x-status is space's time over the status's
// (budget: at most 2), cpu-x-status the same of CPU time.
func BenchmarkSpace(b *testing.B) {
	m, state := benchSQLiteState(b)
	ws, err := Locate(OSEnv(), LocateOptions{StateDir: state, Vault: m.VaultDir})
	if err != nil {
		b.Fatal(err)
	}
	var inStatus, inSpace, cpuStatus, cpuSpace time.Duration
	for b.Loop() {
		runtime.GC()
		start, cpu := time.Now(), demotest.CPUTime()
		if _, err := Scan(context.Background(), OS, ws, ScanOptions{CacheDir: b.TempDir()}); err != nil {
			b.Fatal(err)
		}
		inStatus += time.Since(start)
		cpuStatus += demotest.CPUTime() - cpu
		runtime.GC()
		start, cpu = time.Now(), demotest.CPUTime()
		if _, err := MeasureSpace(context.Background(), OS, ws, "", time.Now()); err != nil {
			b.Fatal(err)
		}
		inSpace += time.Since(start)
		cpuSpace += demotest.CPUTime() - cpu
	}
	n := float64(b.N)
	b.ReportMetric(float64(inStatus.Milliseconds())/n, "ms-first-status")
	b.ReportMetric(float64(inSpace.Milliseconds())/n, "ms-space")
	b.ReportMetric(float64(inSpace)/float64(inStatus), "x-status")
	b.ReportMetric(float64(cpuSpace)/float64(max(cpuStatus, 1)), "cpu-x-status")
}
