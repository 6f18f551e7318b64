package vaultfs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"clawvault-tui/model"
	"clawvault-tui/store/regfile/regfiletest"
)

// A FIFO, a link to /dev/zero, a link loop or a folder in MEMORY.md's
// place is refused at once, in one sentence naming it, by every way in:
// the Vault screen's read, a save, a promote, a backup.
func TestPlantedMemoryFileIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	ways := []struct {
		name string
		do   func(f *fixture, path string) error
	}{
		{"read", func(f *fixture, path string) error { _, err := f.space.Read(path); return err }},
		{"save", func(f *fixture, path string) error {
			_, err := f.space.Save(path, []byte("mine\n"), Version{})
			return err
		}},
		{"promote", func(f *fixture, _ string) error {
			_, err := f.space.Promote("main", "Decisions", "A fact.", true)
			return err
		}},
		{"backup", func(f *fixture, path string) error { _, err := f.space.Backup(path); return err }},
	}
	for _, way := range ways {
		for _, kind := range regfiletest.Kinds {
			t.Run(way.name+"/"+kind, func(t *testing.T) {
				t.Parallel()
				f := newFixture(t)
				path := filepath.Join(f.ws, "MEMORY.md")
				regfiletest.Plant(t, kind, path)
				var err error
				regfiletest.Within(t, way.name, func() { err = way.do(f, path) })
				if err == nil {
					t.Fatalf("%s of a MEMORY.md that is a %s said nothing", way.name, kind)
				}
				if msg := err.Error(); !strings.Contains(msg, "MEMORY.md") || strings.Contains(msg, "\n") {
					t.Errorf("not one sentence naming the file: %q", msg)
				}
			})
		}
	}
}

// A raw ledger day that is not a regular file holds nothing to link, and
// the lookup goes on to the next day.
func TestFindSourceSkipsPlantedLedgerFiles(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	day := filepath.Join(f.vault, "ledger", "raw", "openclaw", "2026", "11")
	regfiletest.Plant(t, "fifo", filepath.Join(day, "05.jsonl"))
	regfiletest.Plant(t, "dev-zero", filepath.Join(day, "04.jsonl"))
	write(t, filepath.Join(day, "06.jsonl"), `{"sessionKey":"agent:main:main","transcriptId":"bbb","message":"[telegram] user: We decided to move the sync."}`+"\n")
	rows := model.ObservationRows(read(t, filepath.Join(f.vault, "decisions", "2026-11-05.md")), "")
	var src Source
	var found bool
	var err error
	regfiletest.Within(t, "the source lookup", func() {
		src, found, err = f.space.FindSource(context.Background(), rows[0].Content, rows[0].Date)
	})
	if err != nil || !found || src.TranscriptID != "bbb" {
		t.Errorf("got %+v, %v, %v; want the record of the 6th", src, found, err)
	}
}

// NUL bytes and CRLF line ends are kept byte for byte by a promote: the
// new line takes the file's line end, and nothing else moves.
func TestPromoteKeepsNULAndCRLF(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	path := filepath.Join(f.ws, "MEMORY.md")
	before := "# Memory\r\n\r\n## Decisions\r\n- a\x00b\r\n\r\n## Log\r\n- \x00\r\n"
	write(t, path, before)
	if _, err := f.space.Promote("main", "Decisions", "We keep bytes.", false); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(before, "- a\x00b\r\n", "- a\x00b\r\n- We keep bytes.\r\n", 1)
	if got := read(t, path); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// A MEMORY.md over the 64 MB the editor reads (an agent's runaway log,
// 100 MB) is one sentence for every way in, and is never read or
// rewritten.
func TestMemoryFileOverTheLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	path := filepath.Join(f.ws, "MEMORY.md")
	if err := os.Truncate(path, 100<<20); err != nil { // sparse: no 100 MB written
		t.Fatal(err)
	}
	before, _ := os.Stat(path)
	for name, do := range map[string]func() error{
		"read":    func() error { _, err := f.space.Read(path); return err },
		"save":    func() error { _, err := f.space.Save(path, []byte("x\n"), Version{}); return err },
		"promote": func() error { _, err := f.space.Promote("main", "Decisions", "x", true); return err },
		"backup":  func() error { _, err := f.space.Backup(path); return err },
	} {
		err := do()
		if err == nil || !strings.Contains(err.Error(), "100 MB, more than the 64 MB") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one sentence giving both sizes", name, err)
		}
	}
	if after, _ := os.Stat(path); !os.SameFile(before, after) || after.Size() != 100<<20 {
		t.Error("the file was rewritten")
	}
}
