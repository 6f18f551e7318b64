package demo

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// BenchClock is the clock benchmark workspaces are generated with, so that
// every run measures the same bytes.
var BenchClock = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// BenchWorkspace returns a demo workspace at the given scale for benchmarks,
// generated once into the system temp folder and reused by later runs and
// other packages (a scale-100 workspace is ~600 MB and takes seconds to
// write). It never lives in the repository; delete the folder at will.
func BenchWorkspace(scale int) (*Manifest, error) {
	dir := filepath.Join(os.TempDir(), "clawvault-tui-bench", fmt.Sprintf("scale-%d-seed-1", scale))
	done := filepath.Join(dir, "manifest.json")
	if data, err := os.ReadFile(done); err == nil {
		var m Manifest
		if json.Unmarshal(data, &m) == nil {
			return &m, nil
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	m, err := Generate(filepath.Join(dir, "ws"), ScaleOptions(scale, 1, BenchClock))
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
