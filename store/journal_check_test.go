package store

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// journalVault is a vault with a folder that links out of it, and a place
// outside.
type journalVault struct {
	root    *Root
	outside string
}

func newJournalVault(t testing.TB) *journalVault {
	t.Helper()
	dir := t.TempDir()
	vault, outside := filepath.Join(dir, "vault"), filepath.Join(dir, "outside")
	for _, d := range []string{filepath.Join(vault, "ledger", "raw"), filepath.Join(vault, ".clawvault"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(vault, "out")); err != nil {
		t.Fatal(err)
	}
	root, err := NewRoot(vault)
	if err != nil {
		t.Fatal(err)
	}
	return &journalVault{root: root, outside: outside}
}

func (v *journalVault) in(rel string) string { return filepath.Join(v.root.Real(), rel) }

func tempOf(path string) string {
	return filepath.Join(filepath.Dir(path), TempName(filepath.Base(path), 4242, "77"))
}

// Check accepts what a commit writes and refuses, in one clause, every
// path a commit does not write.
func TestJournalCheck(t *testing.T) {
	t.Parallel()
	v := newJournalVault(t)
	day := v.in("ledger/observations/2026/11/21.md")
	raw := v.in("ledger/raw/21.jsonl")
	good := func() *Journal {
		return &Journal{Version: journalVersion,
			Files:   []JournalStaged{{Path: day, Temp: tempOf(day), Size: 3}},
			Appends: []JournalAppend{{Path: raw, Offset: 10, Length: 5, Temp: tempOf(raw)}},
			Cursors: []JournalCursor{{SessionID: "s1", LastObservedOffset: 10, LastFileSize: 10, Append: 0}}}
	}
	if err := good().Check(OS, v.root); err != nil {
		t.Fatalf("a journal a commit writes: %v", err)
	}
	if err := os.WriteFile(filepath.Join(v.outside, "secret"), []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	linkTemp := tempOf(v.in("linked.md"))
	if err := os.Symlink(filepath.Join(v.outside, "secret"), linkTemp); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		edit  func(j *Journal)
		words string
	}{
		{"outside", func(j *Journal) { j.Files[0].Path = filepath.Join(v.outside, "x.md") }, "outside the vault"},
		{"climbing out", func(j *Journal) { j.Files[0].Path = v.in("ledger") + "/../../outside/x.md" }, "not a clean absolute path"},
		{"relative", func(j *Journal) { j.Files[0].Path = "ledger/x.md" }, "not a clean absolute path"},
		{"through a linked folder", func(j *Journal) { j.Files[0].Path = v.in("out/x.md"); j.Files[0].Temp = tempOf(j.Files[0].Path) }, "outside the vault"},
		{"a NUL", func(j *Journal) { j.Files[0].Path = day + "\x00.md" }, "not a clean absolute path"},
		{"very long", func(j *Journal) { j.Files[0].Path = v.in(strings.Repeat("a/", 3000)) }, "not a clean absolute path"},
		{"the vault's own folder", func(j *Journal) {
			j.Files[0].Path = v.in(".clawvault/observe-cursors.json")
			j.Files[0].Temp = tempOf(j.Files[0].Path)
		}, "never stages"},
		{"the vault's own file", func(j *Journal) { j.Files[0].Path = v.in(".clawvault.json"); j.Files[0].Temp = tempOf(j.Files[0].Path) }, "never stages"},
		{"a temp elsewhere", func(j *Journal) { j.Files[0].Temp = tempOf(raw) }, "not a temp file of clawvault-tui beside it"},
		{"a temp of another name", func(j *Journal) { j.Files[0].Temp = v.in("ledger/observations/2026/11/notes.md") }, "not a temp file"},
		{"a temp that links out", func(j *Journal) { j.Files[0].Path = v.in("linked.md"); j.Files[0].Temp = linkTemp }, "a symbolic link"},
		{"an append outside", func(j *Journal) { j.Appends[0].Path = filepath.Join(v.outside, ".bashrc"); j.Appends[0].Temp = "" }, "outside the vault"},
		{"an append's temp outside", func(j *Journal) { j.Appends[0].Temp = filepath.Join(v.outside, "x") }, "not a temp file"},
		{"a negative region", func(j *Journal) { j.Appends[0].Offset = -1 }, "which no file holds"},
		{"an overflowing region", func(j *Journal) { j.Appends[0].Offset, j.Appends[0].Length = 1<<62, 1<<62 }, "which no file holds"},
		{"a negative size", func(j *Journal) { j.Files[0].Size = -1 }, "negative size"},
		{"a cursor on no append", func(j *Journal) { j.Cursors[0].Append = 3 }, "append 3 of 1"},
		{"a cursor of no session", func(j *Journal) { j.Cursors[0].SessionID = "../x" }, "no session id"},
		{"a negative cursor", func(j *Journal) { j.Cursors[0].LastObservedOffset = -5 }, "not a byte count"},
		{"a seq cursor on no append", func(j *Journal) { j.SeqCursors = []JournalSeqCursor{{SessionID: "s", Append: 9}} }, "append 9 of 1"},
	} {
		j := good()
		c.edit(j)
		err := j.Check(OS, v.root)
		refused, ok := err.(*JournalRefusedError)
		if !ok || !strings.Contains(refused.Reason, c.words) {
			t.Errorf("%s: %v (%T), want a refusal saying %q", c.name, err, err, c.words)
		}
	}
}

// FuzzJournal: any journal parses or is refused, and one that passes
// Check names nothing outside the vault (symbolic links followed) and no
// temp file but one of ours beside its target. Never a panic.
func FuzzJournal(f *testing.F) {
	v := newJournalVault(f)
	day := v.in("ledger/observations/2026/11/21.md")
	seed := func(j map[string]any) {
		data, err := json.Marshal(j)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	file := func(path, temp string) map[string]any {
		return map[string]any{"version": 3, "files": []any{map[string]any{"path": path, "temp": temp, "size": 1}}}
	}
	seed(file(day, tempOf(day)))
	seed(map[string]any{"version": 3, "appends": []any{map[string]any{"path": v.in("ledger/raw/1.jsonl"), "offset": 1, "length": 2, "temp": tempOf(v.in("ledger/raw/1.jsonl"))}},
		"cursors": []any{map[string]any{"sessionId": "s", "lastObservedOffset": 3, "append": 0}}})
	seed(file(v.in("ledger/../../outside/x"), tempOf(day)))
	seed(file(filepath.Join(v.outside, "x"), tempOf(filepath.Join(v.outside, "x"))))
	seed(file(v.in("out/x.md"), tempOf(v.in("out/x.md"))))
	seed(file(day+"\x00", tempOf(day)))
	seed(file(v.in(strings.Repeat("long/", 900)), tempOf(day)))
	seed(file(v.in("ledger/\xff\xfe.md"), tempOf(v.in("ledger/\xff\xfe.md"))))
	f.Add([]byte(`{"version":3,"files":[{"path":"/` + "\xff" + `","temp":"/x"}]}`))
	f.Add([]byte(`{"version":1e400}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := JournalFile(v.root.Dir)
		j, err := parseJournal(path, data)
		if err != nil {
			if _, ok := err.(*JournalRefusedError); !ok {
				t.Fatalf("not a refusal: %v", err)
			}
			return
		}
		// What a sweep writes of a journal reads back the same.
		again, err := encodeJournal(j)
		if err != nil {
			t.Fatal(err)
		}
		if j2, err := parseJournal(path, again); err != nil || !reflect.DeepEqual(j, j2) {
			t.Fatalf("written again, it reads %+v (%v), not %+v:\n%s", j2, err, j, again)
		}
		if err := j.Check(OS, v.root); err != nil {
			return
		}
		inside := func(p string) {
			real, err := RealPath(p)
			if err != nil || real != p || !v.root.Contains(real) || !Within(v.root.Real(), p) {
				t.Fatalf("accepted %q (real %q, %v)", p, real, err)
			}
		}
		beside := func(target, temp string) {
			if filepath.Dir(temp) != filepath.Dir(target) {
				t.Fatalf("accepted the temp %q of %q", temp, target)
			}
			if _, ok := TempOwner(filepath.Base(temp)); !ok {
				t.Fatalf("accepted the temp %q", temp)
			}
		}
		for _, f := range j.Files {
			inside(f.Path)
			beside(f.Path, f.Temp)
		}
		for _, a := range j.Appends {
			inside(a.Path)
			if a.Temp != "" {
				beside(a.Path, a.Temp)
			}
		}
	})
}
