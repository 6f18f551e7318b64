package store

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func readString(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A staged file is renamed over the version it was made from; one already
// renamed is left; one another writer changed since gets the commit's
// operations replayed on their version (merged), or, when the journal
// records none, is kept as they left it, said, and reported dropped.
func TestRollForwardFiles(t *testing.T) {
	dir := t.TempDir()
	stage := func(name, old, new string) JournalStaged {
		p := filepath.Join(dir, name)
		if old != "" {
			mkfile(t, p, old)
		}
		st, err := StageFile(OSWriter, p, []byte(new), 0o644)
		if err != nil {
			t.Fatal(err)
		}
		return JournalStagedOf(st, []byte(old), old != "")
	}
	pending := stage("pending.md", "old\n", "new\n")
	created := stage("created.md", "", "created\n")
	renamed := stage("renamed.md", "old\n", "renamed\n")
	if err := os.Rename(renamed.Temp, renamed.Path); err != nil {
		t.Fatal(err)
	}
	changed := stage("changed.md", "old\n", "ours\n")
	mkfile(t, changed.Path, "theirs\n")
	merged := stage("merged.md", "old\n", "old\nours\n")
	merged.Ops = json.RawMessage(`"ours\n"`)
	mkfile(t, merged.Path, "old\ntheirs\n")
	// The merge appends the line the operations name unless it is there.
	merge := func(ops json.RawMessage, content []byte, exists bool) ([]byte, bool, error) {
		var line string
		if err := json.Unmarshal(ops, &line); err != nil {
			return nil, false, err
		}
		if strings.Contains(string(content), line) {
			return content, exists, nil
		}
		return append(content, line...), true, nil
	}

	j := &Journal{Files: []JournalStaged{pending, created, renamed, changed, merged}}
	r, err := RollForward(OSWriter, OS, j, merge)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{pending.Path: "new\n", created.Path: "created\n", renamed.Path: "renamed\n",
		changed.Path: "theirs\n", merged.Path: "old\ntheirs\nours\n"} {
		if got := readString(t, path); got != want {
			t.Errorf("%s = %q, want %q", filepath.Base(path), got, want)
		}
	}
	if len(r.Notes) != 2 || !strings.Contains(r.Notes[0], "changed.md changed after") || !strings.Contains(r.Notes[1], "merged into it") {
		t.Errorf("notes = %q", r.Notes)
	}
	if len(r.Dropped) != 1 || r.Dropped[0] != changed.Path {
		t.Errorf("dropped = %q", r.Dropped)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 5 {
		t.Errorf("left behind: %v", entries)
	}
	// Run again (a crash during the roll-forward): nothing changes.
	if r, err := RollForward(OSWriter, OS, j, merge); err != nil || len(r.Notes) != 2 || readString(t, merged.Path) != "old\ntheirs\nours\n" {
		t.Errorf("again: %q %v", r.Notes, err)
	}
}

// A prepared ledger append is renamed into place; when another writer
// appended to the ledger since, ours go after theirs; when it is already
// in place, it counts as landed.
func TestRollForwardAppends(t *testing.T) {
	for _, c := range []struct {
		name   string
		meddle func(path string, a JournalAppend)
		want   string
	}{
		{"untouched", func(string, JournalAppend) {}, "old\nours\n"},
		{"appended meanwhile", func(p string, _ JournalAppend) {
			f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("theirs\n")
			f.Close()
		}, "old\ntheirs\nours\n"},
		{"renamed already", func(p string, a JournalAppend) {
			if err := os.Rename(a.Temp, p); err != nil {
				t.Fatal(err)
			}
		}, "old\nours\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "21.jsonl")
			mkfile(t, p, "old\n")
			a, err := BeginAppend(OSWriter, OS, p)
			if err != nil {
				t.Fatal(err)
			}
			a.Write([]byte("ours\n"))
			if err := a.Prepare(); err != nil {
				t.Fatal(err)
			}
			off, n, crc := a.Region()
			ja := JournalAppend{Path: p, Offset: off, Length: n, CRC32C: crc, Temp: a.Temp(), Base: StampOf(a.Base())}
			c.meddle(p, ja)
			r, err := RollForward(OSWriter, OS, &Journal{Appends: []JournalAppend{ja}}, nil)
			if err != nil || len(r.Landed) != 1 || !r.Landed[0] {
				t.Fatalf("landed %v, %v", r.Landed, err)
			}
			if got := readString(t, p); got != c.want {
				t.Errorf("ledger = %q, want %q", got, c.want)
			}
			entries, _ := os.ReadDir(filepath.Dir(p))
			if len(entries) != 1 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}

// encodeJournal writes what json.Marshal writes of a journal, every field
// of it, while copying the files' ops as they are; a field added to
// Journal fails here until encodeJournal writes it.
func TestEncodeJournal(t *testing.T) {
	t.Parallel()
	if n := reflect.TypeFor[Journal]().NumField(); n != 7 {
		t.Fatalf("Journal has %d fields: encodeJournal writes 7", n)
	}
	stamp := &Stamp{Exists: true, Dev: 1, Inode: 2, Size: 3, ModTime: "2026-11-28T10:00:00Z"}
	full := &Journal{Version: journalVersion, CreatedAt: "2026-11-28T10:00:00.000Z",
		Files: []JournalStaged{
			{Path: "/v/a.md", Temp: "/v/.a.md.tmp", BaseExists: true, BaseSize: 4, BaseCRC32C: 5, Size: 6, CRC32C: 7, Ops: json.RawMessage(`[{"kind":"append","line":"x \"q\" \u2028"}]`)},
			{Path: "/v/b.md", Temp: "/v/.b.md.tmp"},
			{Path: "/v/c.md", Temp: "/v/.c.md.tmp", Ops: json.RawMessage(`null`)},
		},
		Appends:    []JournalAppend{{Path: "/v/raw.jsonl", Offset: 1, Length: 2, CRC32C: 3, Temp: "/v/.raw.tmp", Base: stamp}},
		Cursors:    []JournalCursor{{SessionID: "s1", LastObservedOffset: 10.5, LastObservedAt: "t", SessionKey: "k<&>", LastFileSize: 11, Truncated: true, Append: 0}},
		Sessions:   []JournalSession{{SessionID: "s1", SessionKey: "k"}},
		SeqCursors: []JournalSeqCursor{{SessionID: "s2", AgentID: "a", SessionKey: "k2", LastObservedSeq: 9, ObservedBytes: 8, LastObservedAt: "t", Append: -1}},
	}
	for name, j := range map[string]*Journal{"every field": full, "empty": {Version: journalVersion}, "no files": {Files: []JournalStaged{}}} {
		got, err := encodeJournal(j)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(j)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("%s: not JSON: %v\n%s", name, err, got)
		}
		json.Unmarshal(want, &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}
