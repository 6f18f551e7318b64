package vaultfs

import (
	"context"
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
