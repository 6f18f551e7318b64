package demotest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"clawvault-tui/store/demo"
	"clawvault-tui/store/lockfile"
)

// BenchClock is the clock benchmark workspaces are generated with, so that
// every run measures the same bytes.
var BenchClock = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// BenchScale is the scale benchmarks run at: $BENCH_SCALE (make bench sets
// 100, the budgets' scale), else 1.
func BenchScale() int {
	if s, err := strconv.Atoi(os.Getenv("BENCH_SCALE")); err == nil && s > 0 {
		return s
	}
	return 1
}

// BenchWorkspace returns a demo workspace at the given scale for benchmarks,
// generated once into the system temp folder and reused by later runs and
// other packages (a scale-100 workspace is ~600 MB and takes seconds to
// write). It never lives in the repository; delete the folder at will.
func BenchWorkspace(scale int) (*demo.Manifest, error) {
	return BenchWorkspaceOf(fmt.Sprintf("scale-%d-seed-1", scale), demo.ScaleOptions(scale, 1, BenchClock))
}

// BenchWorkspaceOf is BenchWorkspace for any options, kept under name
// (which must say what the options are: the folder is reused by name).
func BenchWorkspaceOf(name string, opt demo.Options) (*demo.Manifest, error) {
	// The generator's version is part of the name: a workspace an older
	// generator wrote (before the SQLite-era store, say) is not reused.
	dir := filepath.Join(os.TempDir(), "clawvault-tui-bench", fmt.Sprintf("gen%d-%s", demo.GeneratorVersion, name))
	done := filepath.Join(dir, "manifest.json")
	if m, ok := readManifest(done); ok {
		return m, nil
	}
	// Benchmarks of several packages run at once: one generates, the others wait.
	unlock, err := lockfile.Lock(dir + ".lock")
	if err != nil {
		return nil, err
	}
	defer unlock()
	if m, ok := readManifest(done); ok {
		return m, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	m, err := demo.Generate(context.Background(), filepath.Join(dir, "ws"), opt)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	// Written last: its presence says the workspace is complete.
	return m, os.WriteFile(done, data, 0o644)
}

func readManifest(path string) (*demo.Manifest, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	var m demo.Manifest
	if json.Unmarshal(data, &m) != nil {
		return nil, false
	}
	return &m, true
}

// BenchSQLiteState returns the state dir of a benchmark workspace's agent
// main moved to the SQLite-era store: every session a sessions.json row of
// main names, under the same key, imported as OpenClaw's importer imports
// (one event per line that is a JSON object). Benchmarks compare reading it
// with reading the same sessions as JSONL files. Generated once, beside the
// workspace.
func BenchSQLiteState(m *demo.Manifest) (string, error) {
	dir := filepath.Join(filepath.Dir(filepath.Dir(m.StateDir)), "sqlite-state")
	done := filepath.Join(dir, "done")
	if _, err := os.Stat(done); err == nil {
		return dir, nil
	}
	unlock, err := lockfile.Lock(dir + ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(done); err == nil {
		return dir, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	sessions := filepath.Join(m.StateDir, "agents", "main", "sessions")
	data, err := os.ReadFile(filepath.Join(sessions, "sessions.json"))
	if err != nil {
		return "", err
	}
	var rows map[string]json.RawMessage
	if err := json.Unmarshal(data, &rows); err != nil {
		return "", err
	}
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	store := demo.AgentStore{AgentID: "main", AppVersion: "2026.9.6", Now: BenchClock}
	seen := map[string]bool{}
	for _, key := range keys {
		var row struct {
			SessionID   string `json:"sessionId"`
			SessionFile string `json:"sessionFile"`
		}
		if json.Unmarshal(rows[key], &row) != nil || row.SessionID == "" || seen[row.SessionID] {
			continue
		}
		file := row.SessionFile
		if file == "" {
			file = filepath.Join(sessions, row.SessionID+".jsonl")
		} else if !filepath.IsAbs(file) {
			file = filepath.Join(sessions, file)
		}
		if _, err := os.Stat(file); err != nil {
			continue
		}
		seen[row.SessionID] = true
		store.Sessions = append(store.Sessions, demo.StoreSession{Key: key, SessionID: row.SessionID, File: file, Entry: rows[key], UpdatedAt: BenchClock})
	}
	if err := demo.WriteAgentStore(filepath.Join(dir, "agents", "main", "agent", "openclaw-agent.sqlite"), store); err != nil {
		return "", err
	}
	return dir, os.WriteFile(done, nil, 0o644)
}
