package observer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"clawvault-tui/store"
)

// A folder or file of the vault that is a symbolic link to somewhere
// outside it: the sweep refuses with one sentence naming the path and
// where it leads, and writes nothing, there or in the vault. Before, it
// wrote the raw ledger, category files and its own files through them.
func TestSweepRefusesToWriteOutsideTheVault(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		link string // relative to the vault: a link to the outside folder
		file bool   // the link names a file outside, not a folder
	}{
		{"the ledger folder", "ledger", false},
		{"the raw ledger's year", "ledger/raw/openclaw/2026", false},
		{"a category folder", "lessons", false},
		{"the backlog folder", "backlog", false},
		{"ClawVault's folder", ".clawvault", false},
		{"a category file", "lessons/2026-11-21.md", true},
		{"the cursor file", ".clawvault/observe-cursors.json", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := twoSessions(t)
			outside := filepath.Join(t.TempDir(), "outside")
			if err := os.MkdirAll(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			target := outside
			if c.file {
				target = filepath.Join(outside, "target.md")
				f.write(target, "# not the vault's\n")
			}
			link := filepath.Join(f.vault, c.link)
			if existing, err := os.Lstat(link); err == nil && existing.IsDir() {
				// Keep what the vault held there, outside (as a user who
				// moved a folder and linked it would).
				if err := os.Rename(link, filepath.Join(outside, "moved")); err != nil {
					t.Fatal(err)
				}
				target = filepath.Join(outside, "moved")
			}
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			outsideBefore := treeOfDir(t, outside)
			vaultBefore := f.files()
			_, err := f.sweep(context.Background(), SweepOptions{})
			if err == nil || !strings.Contains(err.Error(), "outside the vault") || !strings.Contains(err.Error(), f.vault) {
				t.Fatalf("err = %v", err)
			}
			if after := treeOfDir(t, outside); !mapsEqual(after, outsideBefore) {
				t.Errorf("written outside the vault: %v (before %v)", keys(after), keys(outsideBefore))
			}
			diffFiles(t, f.files(), vaultBefore)
			if _, err := os.Stat(store.SweepLockFile(f.vault)); err == nil {
				t.Error("the lock file stays")
			}
		})
	}
}

// treeOfDir lists every file and folder under root with its content
// ("<dir>" for folders).
func treeOfDir(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			out[rel] = "<dir>"
			return nil
		}
		data, _ := os.ReadFile(p)
		out[rel] = string(data)
		return nil
	})
	return out
}
