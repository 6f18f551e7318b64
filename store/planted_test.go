package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"clawvault-tui/model"
	"clawvault-tui/store/regfile/regfiletest"
	"clawvault-tui/store/transcript"
)

// plantedReader reads one kind of file the state dir or the vault holds,
// from a test folder, and returns what it said about it.
type plantedReader struct {
	name string
	// rel is where the file is, under the test folder.
	rel  string
	read func(dir string) error
}

var plantedReaders = []plantedReader{
	{"the cursor file", "vault/.clawvault/observe-cursors.json", func(dir string) error {
		return LoadCursors(OS, filepath.Join(dir, "vault")).ReadError
	}},
	{"the seq cursor file", "vault/.clawvault/clawvault-tui-seq-cursors.json", func(dir string) error {
		_, err := ReadSeqCursors(OS, filepath.Join(dir, "vault"))
		return err
	}},
	{"sessions.json", "state/agents/main/sessions/sessions.json", func(dir string) error {
		if p := LoadSessionStore(OS, filepath.Join(dir, "state/agents/main/sessions/sessions.json")).Problem; p != "" {
			return errors.New(p)
		}
		return nil
	}},
	{"openclaw.json", "state/openclaw.json", func(dir string) error {
		_, err := readOpenClawConfig(filepath.Join(dir, "state/openclaw.json"))
		return err
	}},
	{"config.toml", "config/config.toml", func(dir string) error {
		_, err := LoadConfig(filepath.Join(dir, "config/config.toml"))
		return err
	}},
	{"a transcript", "state/agents/main/sessions/s1.jsonl", func(dir string) error {
		row := model.SessionRow{File: filepath.Join(dir, "state/agents/main/sessions/s1.jsonl")}
		_, err := TranscriptReader(transcript.NewCache(), row).Index(context.Background(), transcript.Options{})
		return err
	}},
	{"a compressed transcript", "state/agents/main/sessions/s1.jsonl.deleted.2026-01-01T00-00-00.000Z.zst", func(dir string) error {
		row := model.SessionRow{File: filepath.Join(dir, "state/agents/main/sessions/s1.jsonl.deleted.2026-01-01T00-00-00.000Z.zst")}
		_, err := TranscriptReader(transcript.NewCache(), row).Index(context.Background(), transcript.Options{})
		return err
	}},
}

// A FIFO, a link to /dev/zero, a link loop or a folder where a file is
// read is refused in one sentence naming it, at once: never a hang, never
// a read without end.
func TestPlantedFilesAreRefusedAtOnce(t *testing.T) {
	t.Parallel()
	for _, r := range plantedReaders {
		for _, kind := range regfiletest.Kinds {
			t.Run(r.name+"/"+kind, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				path := filepath.Join(dir, r.rel)
				regfiletest.Plant(t, kind, path)
				var err error
				regfiletest.Within(t, "reading "+r.name, func() { err = r.read(dir) })
				if err == nil {
					t.Fatalf("%s as a %s read without a word", r.name, kind)
				}
				if msg := err.Error(); !strings.Contains(msg, filepath.Base(path)) || strings.Count(msg, "\n") > 0 {
					t.Errorf("the error is not one sentence naming the file: %q", msg)
				}
			})
		}
	}
}

// A planted file of terabytes (sparse: it costs the disk nothing) in the
// place of a file read whole is refused by its size, not read: memory
// stays small and the answer is one sentence.
func TestHugeFilesAreNotReadWhole(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, r := range plantedReaders {
		if strings.Contains(r.name, "transcript") {
			continue // indexed in chunks, not read whole (see store/transcript)
		}
		t.Run(r.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, r.rel)
			mkfile(t, path, "")
			if err := os.Truncate(path, 1<<40); err != nil {
				t.Skip("no sparse files here:", err)
			}
			var err error
			regfiletest.Within(t, "reading "+r.name, func() { err = r.read(dir) })
			if r.name == "sessions.json" {
				// Streamed: a file of NUL bytes does not parse at its
				// first byte, and is not read whole to say how.
				if err == nil || !strings.Contains(err.Error(), "does not parse") {
					t.Errorf("%v, want it named as not parsing", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "more than the") {
				t.Errorf("%v, want one sentence giving its size", err)
			}
		})
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("reading the planted files allocated %d MiB", alloc>>20)
	}
}
