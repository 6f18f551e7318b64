package store

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"clawvault-tui/model"
)

// manifestPlaces is a state dir and a vault, an archive folder where an
// apply puts one, a folder of the state dir that links out, and a place
// outside.
type manifestPlaces struct {
	state, vault, archive, outside string
}

func newManifestPlaces(t testing.TB) *manifestPlaces {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &manifestPlaces{state: filepath.Join(dir, "state"), vault: filepath.Join(dir, "vault"), outside: filepath.Join(dir, "outside")}
	p.archive = filepath.Join(p.state, "clawvault-tui-retention", "2026-11-21T12-00-00.000Z")
	for _, d := range []string{filepath.Join(p.state, "agents", "main", "sessions"), p.archive, filepath.Join(p.vault, "ledger"), p.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(p.vault, ".clawvault.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(p.outside, filepath.Join(p.state, "agents", "main", "sessions", "out")); err != nil {
		t.Fatal(err)
	}
	return p
}

// FuzzManifest: any manifest parses or is refused, and one UndoPlaces and
// Check accept moves, rewrites and removes nothing outside its places
// (symbolic links followed): its state dir, its vault, its own folder.
// Never a panic.
func FuzzManifest(f *testing.F) {
	p := newManifestPlaces(f)
	sessions := filepath.Join(p.state, "agents", "main", "sessions")
	seed := func(moves ...map[string]any) {
		data, err := json.Marshal(map[string]any{"version": 1, "tool": "clawvault-tui", "stateDir": p.state, "vault": p.vault,
			"archiveDir": p.archive, "moves": moves, "createdDirs": []string{p.archive}})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	move := func(plan, from, to string) map[string]any {
		return map[string]any{"plan": plan, "from": from, "to": to}
	}
	seed(move("maintenance", filepath.Join(sessions, "a.jsonl"), filepath.Join(p.archive, "main", "a.jsonl")))
	seed(move("ledger", filepath.Join(p.vault, "ledger", "observations", "1.md"), filepath.Join(p.vault, "ledger", "archive", "1.md")))
	seed(move("maintenance", sessions+"/../../../../outside/x", filepath.Join(p.archive, "x")))
	seed(move("maintenance", filepath.Join(p.outside, ".bashrc"), filepath.Join(p.archive, "x")))
	seed(move("maintenance", filepath.Join(sessions, "out", "x"), filepath.Join(p.archive, "x")))
	seed(move("maintenance", filepath.Join(sessions, "a\x00b"), filepath.Join(p.archive, "x")))
	seed(move("maintenance", filepath.Join(sessions, strings.Repeat("long/", 1000)), filepath.Join(p.archive, "x")))
	seed(move("ledger", filepath.Join(p.vault, "\xff\xfe"), filepath.Join(p.vault, "ledger", "x")))
	seed(move("maintenance", "relative/x", "x"))
	path := filepath.Join(p.archive, "manifest.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		man, err := parseManifest(path, data)
		if err != nil {
			return
		}
		places, err := UndoPlaces(man, path, nil)
		if err != nil || places.Check(man) != nil {
			return
		}
		inside := func(x string, dirs ...string) {
			real, err := placeOf(x)
			for _, d := range dirs {
				if err == nil && d != "" && Within(d, real) {
					return
				}
			}
			t.Fatalf("accepted %q (really %q, %v), not in %v", x, real, err, dirs)
		}
		for _, mv := range man.Moves {
			if mv.Plan == "ledger" {
				inside(mv.From, p.vault)
				inside(mv.To, p.vault)
			} else {
				inside(mv.From, p.state)
				inside(mv.To, p.archive)
			}
		}
		for _, s := range man.Stores {
			inside(s.Path, p.state)
			inside(s.Original, p.archive)
		}
	})
}

// UndoPlaces takes the state dir a manifest names only from where the
// manifest sits or from the workspace; Check keeps every entry in its
// place.
func TestUndoPlaces(t *testing.T) {
	t.Parallel()
	p := newManifestPlaces(t)
	path := filepath.Join(p.archive, "manifest.json")
	man := func() *model.RetentionManifest {
		return &model.RetentionManifest{StateDir: p.state, Vault: p.vault, ArchiveDir: p.archive, Moves: []model.ManifestMove{
			{Plan: "maintenance", From: filepath.Join(p.state, "agents", "main", "sessions", "a.jsonl"), To: filepath.Join(p.archive, "main", "a.jsonl")}}}
	}
	if places, err := UndoPlaces(man(), path, nil); err != nil || places.Check(man()) != nil {
		t.Fatalf("a manifest where an apply puts it: %v", err)
	}
	// Elsewhere (--archive-dir), only for the workspace's own state dir.
	other := filepath.Join(p.outside, "archive", "x")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	m := man()
	m.ArchiveDir, m.Moves[0].To = other, filepath.Join(other, "main", "a.jsonl")
	if _, err := UndoPlaces(m, filepath.Join(other, "manifest.json"), nil); err == nil || !strings.Contains(err.Error(), "--state-dir "+p.state) {
		t.Errorf("elsewhere without a workspace: %v", err)
	}
	if places, err := UndoPlaces(m, filepath.Join(other, "manifest.json"), &Workspace{StateDir: p.state}); err != nil || places.Check(m) != nil {
		t.Errorf("elsewhere, the workspace's: %v", err)
	}
	m = man()
	m.CreatedDirs = []string{filepath.Dir(p.archive), p.outside}
	if places, _ := UndoPlaces(m, path, nil); places.Check(m) == nil {
		t.Errorf("a created folder outside was accepted")
	}
}
