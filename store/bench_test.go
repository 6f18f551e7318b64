package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"clawvault-tui/store/agentdb"
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
// sessions unchanged since the last status). x-jsonl is the warm ratio
// (budget: at most 2), x-jsonl-cold the cold one.
func BenchmarkStatusSQLiteVsJSONL(b *testing.B) {
	m, err := demotest.BenchWorkspace(demotest.BenchScale())
	if err != nil {
		b.Fatal(err)
	}
	state, err := demotest.BenchSQLiteState(m)
	if err != nil {
		b.Fatal(err)
	}
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
	var inJSONL, cold, warm time.Duration
	var rows, events, bytes int64
	for b.Loop() {
		start := time.Now()
		if _, err := Scan(context.Background(), OS, jsonl, ScanOptions{}); err != nil {
			b.Fatal(err)
		}
		inJSONL += time.Since(start)
		start = time.Now()
		if _, err := Scan(context.Background(), OS, sqlite, ScanOptions{}); err != nil {
			b.Fatal(err)
		}
		cold += time.Since(start)
		start = time.Now()
		snap, err := Scan(context.Background(), OS, sqlite, ScanOptions{CacheDir: cache})
		if err != nil {
			b.Fatal(err)
		}
		warm += time.Since(start)
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
	b.ReportMetric(float64(cold)/float64(inJSONL), "x-jsonl-cold")
	b.ReportMetric(float64(rows), "sessions")
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(float64(bytes)/1e6, "MB")
}

// BenchmarkTreeSQLiteVsJSONL is the SQLite tree budget: the tree of the
// heartbeat transcript (300 MB at scale 100) from its JSONL file (indexed
// and validated, as `tree` does) and from the SQLite-era store
// (identities, no body), in the same run; x-jsonl is the ratio (budget: at
// most 3).
func BenchmarkTreeSQLiteVsJSONL(b *testing.B) {
	m, err := demotest.BenchWorkspace(demotest.BenchScale())
	if err != nil {
		b.Fatal(err)
	}
	state, err := demotest.BenchSQLiteState(m)
	if err != nil {
		b.Fatal(err)
	}
	store := filepath.Join(state, "agents", "main", "agent", agentdb.FileName)
	var inJSONL, inSQLite time.Duration
	var entries, factRows int
	for b.Loop() {
		start := time.Now()
		ix, err := transcript.NewCache().Open(context.Background(), m.Heartbeat.File, transcript.Options{})
		if err != nil {
			b.Fatal(err)
		}
		inJSONL += time.Since(start)
		start = time.Now()
		db, err := agentdb.Open(context.Background(), store)
		if err != nil {
			b.Fatal(err)
		}
		tr, err := db.Transcript(context.Background(), m.Heartbeat.SessionID)
		db.Close()
		if err != nil {
			b.Fatal(err)
		}
		inSQLite += time.Since(start)
		if tr.Tree.Nodes != ix.Tree.Nodes {
			b.Fatalf("%d entries in the store, %d in the file", tr.Tree.Nodes, ix.Tree.Nodes)
		}
		entries, factRows = tr.Tree.Nodes, tr.FactRows
	}
	n := float64(b.N)
	b.ReportMetric(float64(inJSONL.Milliseconds())/n, "ms-jsonl")
	b.ReportMetric(float64(inSQLite.Milliseconds())/n, "ms-sqlite")
	b.ReportMetric(float64(inSQLite)/float64(inJSONL), "x-jsonl")
	b.ReportMetric(float64(entries), "entries")
	b.ReportMetric(float64(factRows), "fact-rows")
}
