package observer

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"clawvault-tui/store"
)

// errFS fails every read of the paths fail names (ReadFile, Open, Stat,
// ReadDir) with its error: a permission or I/O error the test cannot make
// with chmod (tests may run as root).
type errFS struct {
	store.FS
	fail func(name string) error
}

func (e errFS) check(op, name string) error {
	if err := e.fail(name); err != nil {
		return &fs.PathError{Op: op, Path: name, Err: err}
	}
	return nil
}

func (e errFS) ReadFile(name string) ([]byte, error) {
	if err := e.check("open", name); err != nil {
		return nil, err
	}
	return e.FS.ReadFile(name)
}

func (e errFS) Open(name string) (store.File, error) {
	if err := e.check("open", name); err != nil {
		return nil, err
	}
	return e.FS.Open(name)
}

func (e errFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := e.check("open", name); err != nil {
		return nil, err
	}
	return e.FS.ReadDir(name)
}

// failOn fails reads of exactly path.
func failOn(path string, err error) errFS {
	return errFS{FS: store.OS, fail: func(name string) error {
		if filepath.Clean(name) == filepath.Clean(path) {
			return err
		}
		return nil
	}}
}

// A vault swept once, then given more to observe: the state every case
// below starts from, with cursors, a day file, category files and backlog
// items on disk.
func sweptOnce(t *testing.T) *fixture {
	t.Helper()
	f := twoSessions(t)
	f.mustSweep(SweepOptions{})
	f.session("agent:main:telegram:dm:43", "s3", lines(
		msgLine("c1", "user", "We decided to move the billing cron to 06:00 UTC from now on."),
		msgLine("c2", "user", "TODO: send the SOC2 questionnaire to Elena by Friday."),
		msgLine("c3", "user", "Lesson learned: check the webhook number 7 before every release."),
	))
	return f
}

// An error reading a file the sweep reads, changes and writes back stops
// the sweep with one sentence naming the file and the OS error, and
// changes nothing: the cursor file is not replaced by the new cursors
// alone (which made every session count as never observed), the day file,
// category files and backlog items are not rewritten without what could
// not be read. Before the fix, a cursor file that could not be read was
// treated like corrupt JSON and rewritten, and an unreadable backlog item
// was skipped (and re-created under a duplicate).
func TestSweepStopsOnUnreadableFiles(t *testing.T) {
	t.Parallel()
	type tc struct {
		name string
		// fsys makes the failure; path is the file it names.
		fsys func(f *fixture) (store.FS, string)
		want string // in the error
	}
	day := func(f *fixture) string {
		return filepath.Join(f.vault, "ledger", "observations", "2026", "11", "21.md")
	}
	cases := []tc{
		{"cursor file, permission denied", func(f *fixture) (store.FS, string) {
			p := store.CursorFile(f.vault)
			return failOn(p, syscall.EACCES), p
		}, "permission denied"},
		{"cursor file, I/O error", func(f *fixture) (store.FS, string) {
			p := store.CursorFile(f.vault)
			return failOn(p, syscall.EIO), p
		}, "input/output error"},
		{"day file, I/O error", func(f *fixture) (store.FS, string) {
			return failOn(day(f), syscall.EIO), day(f)
		}, "input/output error"},
		{"category file, permission denied", func(f *fixture) (store.FS, string) {
			p := filepath.Join(f.vault, "lessons", "2026-11-21.md")
			return failOn(p, syscall.EACCES), p
		}, "permission denied"},
		{"backlog item, permission denied", func(f *fixture) (store.FS, string) {
			entries, err := os.ReadDir(filepath.Join(f.vault, "backlog"))
			if err != nil || len(entries) == 0 {
				t.Fatalf("the first sweep wrote no backlog item: %v", err)
			}
			p := filepath.Join(f.vault, "backlog", entries[0].Name())
			return failOn(p, syscall.EACCES), p
		}, "permission denied"},
		{"backlog folder, permission denied", func(f *fixture) (store.FS, string) {
			p := filepath.Join(f.vault, "backlog")
			return failOn(p, syscall.EACCES), p
		}, "permission denied"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := sweptOnce(t)
			fsys, path := c.fsys(f)
			before := f.files()
			_, err := f.sweep(context.Background(), SweepOptions{FS: fsys})
			if err == nil {
				t.Fatal("the sweep went on")
			}
			msg := err.Error()
			if !strings.Contains(msg, path) || !strings.Contains(msg, c.want) || strings.Count(msg, path) != 1 {
				t.Errorf("error %q does not name %s and %q once", msg, path, c.want)
			}
			if strings.Contains(msg, "does not parse") || strings.Contains(msg, "corrupt") {
				t.Errorf("a read error is not corrupt content: %q", msg)
			}
			diffFiles(t, f.files(), before)
			f.checkClean()
		})
	}
}

// A directory where the cursor file belongs is said to be one, and left
// alone (it was "rename: file exists" after the file had been treated as
// corrupt).
func TestSweepCursorFileIsADirectory(t *testing.T) {
	t.Parallel()
	f := sweptOnce(t)
	p := store.CursorFile(f.vault)
	if err := os.Rename(p, p+".saved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	before := f.files()
	_, err := f.sweep(context.Background(), SweepOptions{})
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("err = %v", err)
	}
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		t.Errorf("the directory was touched: %v", err)
	}
	diffFiles(t, f.files(), before)
}

// Corrupt content stays ClawVault's case: it loads as empty, and the sweep
// goes on (and says so).
func TestSweepCorruptCursorFileIsClawVaultsCase(t *testing.T) {
	t.Parallel()
	f := sweptOnce(t)
	f.write(store.CursorFile(f.vault), `{"s1": {"lastObservedOffset": 3,`)
	r := f.mustSweep(SweepOptions{})
	if len(r.Observed) != 3 {
		t.Errorf("observed %d sessions, want all 3 (the file loads as empty)", len(r.Observed))
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "does not parse") {
		t.Errorf("notes = %q", r.Notes)
	}
}
