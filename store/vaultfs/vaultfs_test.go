package vaultfs

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

// fixture is a vault and one agent's workspace in a temp folder.
type fixture struct {
	dir, vault, ws, backups string
	space                   *Space
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{dir: dir, vault: filepath.Join(dir, "vault"), ws: filepath.Join(dir, "state", "workspace"), backups: filepath.Join(dir, "data", "backups")}
	write(t, filepath.Join(f.vault, ".clawvault.json"), "{}")
	write(t, filepath.Join(f.vault, ".clawvault", "observe-cursors.json"), "{}\n")
	write(t, filepath.Join(f.vault, "decisions", "2026-11-05.md"), "# decisions — 2026-11-05\n\n- [decision|c=0.90|i=0.90] 09:35 [telegram] user: We decided to move the sync.\n")
	write(t, filepath.Join(f.vault, "ledger", "raw", "openclaw", "2026", "11", "05.jsonl"), `{"recordedAt":"x","message":"m"}`+"\n")
	write(t, filepath.Join(f.ws, "MEMORY.md"), "# MEMORY.md\n\n## Decisions\n- Invoices are immutable.\n")
	write(t, filepath.Join(f.ws, "AGENTS.md"), "instructions\n")
	write(t, filepath.Join(f.ws, "memory", "2026-11-20.md"), "# 2026-11-20\n\n- 10:03 We decided to use PostgreSQL.\n")
	ws := &store.Workspace{Vault: f.vault, Agents: []store.Agent{{ID: "main", Workspace: f.ws}}}
	clock := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	f.space = New(ws, Options{BackupDir: f.backups, Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	return f
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestConfine(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	outside := filepath.Join(f.dir, "secret.md")
	write(t, outside, "secret\n")
	if err := os.Symlink(outside, filepath.Join(f.vault, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.dir, filepath.Join(f.ws, "memory", "up")); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"dangling.md":    filepath.Join(f.dir, "nowhere.md"),
		"danglingdir.md": filepath.Join(f.dir, "gone", "nowhere.md"),
		"dangcursor":     filepath.Join(f.vault, ".clawvault", "new.json"),
		"danginside.md":  filepath.Join(f.vault, "inbox", "new.md"),
	} {
		// Dangling links resolve to where they point: in the vault's
		// memory is memory, anywhere else is refused.
		if err := os.Symlink(target, filepath.Join(f.vault, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		path string
		ok   bool
		rel  string
	}{
		{filepath.Join(f.vault, "decisions", "2026-11-05.md"), true, "decisions/2026-11-05.md"},
		{filepath.Join(f.vault, "new", "file.md"), true, "new/file.md"},
		{filepath.Join(f.vault, ".clawvault", "observe-cursors.json"), false, ""},
		{filepath.Join(f.vault, ".clawvault.json"), false, ""},
		{filepath.Join(f.ws, "MEMORY.md"), true, "MEMORY.md"},
		{filepath.Join(f.ws, "memory", "2026-11-20.md"), true, "memory/2026-11-20.md"},
		{filepath.Join(f.ws, "AGENTS.md"), false, ""},
		{filepath.Join(f.vault, "link.md"), false, ""},
		{filepath.Join(f.vault, "dangling.md"), false, ""},
		{filepath.Join(f.vault, "danglingdir.md"), false, ""},
		{filepath.Join(f.vault, "dangcursor"), false, ""},
		{filepath.Join(f.vault, "danginside.md"), true, "inbox/new.md"},
		{filepath.Join(f.ws, "memory", "up", "secret.md"), false, ""},
		{filepath.Join(f.vault, "..", "secret.md"), false, ""},
		{outside, false, ""},
	} {
		pl, err := f.space.Confine(tc.path)
		if tc.ok != (err == nil) {
			t.Errorf("%s: err = %v, want ok %v", tc.path, err, tc.ok)
			continue
		}
		if err == nil && pl.Rel != tc.rel {
			t.Errorf("%s: rel %q, want %q", tc.path, pl.Rel, tc.rel)
		}
		if err != nil && !errors.Is(err, store.ErrOutside) {
			t.Errorf("%s: %v is not store.ErrOutside", tc.path, err)
		}
	}
	var ee *EditError
	if _, err := f.space.Editable(filepath.Join(f.vault, "ledger", "raw", "openclaw", "2026", "11", "05.jsonl")); !errors.As(err, &ee) {
		t.Errorf("the raw ledger is editable: %v", err)
	}
	if _, err := f.space.Save(outside, []byte("x"), Version{}); !errors.Is(err, store.ErrOutside) || read(t, outside) != "secret\n" {
		t.Errorf("save outside: %v", err)
	}
}

func TestSave(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	path := filepath.Join(f.ws, "MEMORY.md")
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	doc, err := f.space.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := append(bytes.Clone(doc.Data), "- Credit notes for corrections.\n"...)
	saved, err := f.space.Save(path, edited, doc.Version)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); got != string(edited) {
		t.Errorf("on disk %q", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	if saved.Backup == "" || read(t, saved.Backup) != string(doc.Data) {
		t.Errorf("backup %q does not hold the previous version", saved.Backup)
	}
	if !strings.HasPrefix(saved.Backup, BackupFolder(f.backups, doc.Real)+string(filepath.Separator)) {
		t.Errorf("backup %s is not in the file's backup folder", saved.Backup)
	}
	if again, _ := f.space.Read(path); !again.Version.Same(saved.Version) {
		t.Errorf("the returned version is not what is on disk")
	}
	// A second save from the new version works; one from the old conflicts.
	if _, err := f.space.Save(path, []byte("x\n"), doc.Version); !errors.Is(err, ErrConflict) {
		t.Errorf("save from a stale version: %v", err)
	}
	if _, err := f.space.Save(path, append(edited, "- more\n"...), saved.Version); err != nil {
		t.Errorf("save from the saved version: %v", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(f.ws, ".MEMORY.md.clawvault-tui-*"))
	if len(leftovers) > 0 {
		t.Errorf("temp files left: %v", leftovers)
	}
}

func TestSaveConflict(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	path := filepath.Join(f.ws, "memory", "2026-11-20.md")
	doc, err := f.space.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	theirs := string(doc.Data) + "- 11:00 the agent wrote this meanwhile\n"
	write(t, path, theirs)
	ours := []byte(strings.Replace(string(doc.Data), "PostgreSQL", "PostgreSQL 17", 1))
	_, err = f.space.Save(path, ours, doc.Version)
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a conflict", err)
	}
	if read(t, path) != theirs {
		t.Errorf("the file was written over")
	}
	if string(ce.Disk.Data) != theirs || !ce.Disk.Version.Exists() {
		t.Errorf("the conflict carries %q", ce.Disk.Data)
	}
	if ce.Kept == "" || read(t, ce.Kept) != string(ours) {
		t.Errorf("our version is not kept: %q", ce.Kept)
	}
	if !strings.Contains(err.Error(), "changed on disk") || !strings.Contains(err.Error(), ce.Kept) {
		t.Errorf("message: %v", err)
	}
	// Deleted meanwhile: a conflict too, and nothing is recreated.
	os.Remove(path)
	if _, err := f.space.Save(path, ours, doc.Version); !errors.As(err, &ce) || ce.Disk.Version.Exists() {
		t.Errorf("deleted: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a deleted file was recreated")
	}
	// Created meanwhile, where the edit began with no file.
	fresh := filepath.Join(f.ws, "memory", "2026-11-21.md")
	write(t, fresh, "someone else's\n")
	if _, err := f.space.Save(fresh, []byte("mine\n"), Version{}); !errors.Is(err, ErrConflict) || read(t, fresh) != "someone else's\n" {
		t.Errorf("created meanwhile: %v", err)
	}
}

// Touching a file (same bytes, new mtime) loses nothing if it is saved over.
func TestSaveAfterTouch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	path := filepath.Join(f.ws, "MEMORY.md")
	doc, _ := f.space.Read(path)
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := f.space.Save(path, []byte("new\n"), doc.Version); err != nil {
		t.Errorf("after a touch: %v", err)
	}
}

func TestBackupsPruned(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.space.opt.Keep = 3
	path := filepath.Join(f.ws, "MEMORY.md")
	for i := range 5 {
		doc, _ := f.space.Read(path)
		if _, err := f.space.Save(path, []byte(strings.Repeat("x", i+1)+"\n"), doc.Version); err != nil {
			t.Fatal(err)
		}
	}
	real, _ := filepath.EvalSymlinks(path)
	des, _ := os.ReadDir(BackupFolder(f.backups, real))
	var kept []string
	for _, de := range des {
		b, _ := os.ReadFile(filepath.Join(BackupFolder(f.backups, real), de.Name()))
		kept = append(kept, strings.TrimSpace(string(b)))
	}
	if strings.Join(kept, ",") != "xx,xxx,xxxx" {
		t.Errorf("kept %v, want the three newest previous versions", kept)
	}
}

// failingWriter runs out of disk after budget bytes.
type failingWriter struct {
	store.WriteFS
	budget int
}

type failingTemp struct {
	store.TempFile
	w *failingWriter
}

func (f *failingWriter) CreateTemp(dir, pattern string) (store.TempFile, error) {
	t, err := f.WriteFS.CreateTemp(dir, pattern)
	return &failingTemp{t, f}, err
}

func (t *failingTemp) Write(p []byte) (int, error) {
	if len(p) > t.w.budget {
		n, _ := t.TempFile.Write(p[:t.w.budget])
		t.w.budget = 0
		return n, syscall.ENOSPC
	}
	t.w.budget -= len(p)
	return t.TempFile.Write(p)
}

func TestSaveFullDisk(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	path := filepath.Join(f.ws, "MEMORY.md")
	before := read(t, path)
	doc, _ := f.space.Read(path)
	f.space.opt.Writer = &failingWriter{WriteFS: store.OSWriter, budget: 10}
	if _, err := f.space.Save(path, []byte(strings.Repeat("new text\n", 20)), doc.Version); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("err = %v, want ENOSPC", err)
	}
	if read(t, path) != before {
		t.Errorf("the file changed")
	}
	if leftovers, _ := filepath.Glob(filepath.Join(f.ws, ".MEMORY.md.clawvault-tui-*")); len(leftovers) > 0 {
		t.Errorf("temp files left: %v", leftovers)
	}
}

func TestPromote(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	line := "- [decision|c=0.90|i=0.90] 09:35 [telegram] user: We decided to move the [[sync]] to Thursdays."
	got, err := f.space.Promote("main", "decisions", line, false)
	if err != nil {
		t.Fatal(err)
	}
	want := "# MEMORY.md\n\n## Decisions\n- Invoices are immutable.\n- We decided to move the sync to Thursdays.\n"
	if read(t, got.File) != want || !got.Added || got.Line != 5 || got.Section != "Decisions" || got.Backup == "" {
		t.Errorf("got %+v\n%q", got, read(t, got.File))
	}
	again, err := f.space.Promote("main", "Decisions", "We decided to move the sync to thursdays", false)
	if err != nil || again.Added || again.Line != 5 || read(t, got.File) != want {
		t.Errorf("again: %+v %v", again, err)
	}
	if _, err := f.space.Promote("main", "Lessons", "x", false); err == nil || !strings.Contains(err.Error(), `"Decisions"`) {
		t.Errorf("missing section: %v", err)
	}
	created, err := f.space.Promote("main", "Lessons", "Backups first.", true)
	if err != nil || !created.SectionCreated || !strings.HasSuffix(read(t, got.File), "\n## Lessons\n- Backups first.\n") {
		t.Errorf("created: %+v %v", created, err)
	}
	if _, err := f.space.Promote("ops", "Lessons", "x", true); err == nil {
		t.Error("an agent without a workspace")
	}
	// No MEMORY.md yet: only with create.
	os.Remove(got.File)
	if _, err := f.space.Promote("main", "Lessons", "x", false); err == nil {
		t.Error("promoted into a missing file without create")
	}
	if p, err := f.space.Promote("main", "Lessons", "x", true); err != nil || read(t, p.File) != "## Lessons\n- x\n" {
		t.Errorf("into a new file: %v", err)
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	entries, problems, err := f.space.List(context.Background())
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	var got []string
	for _, e := range entries {
		s := strings.Repeat("  ", e.Depth()) + e.Name()
		if e.Dir {
			s += "/"
		}
		got = append(got, s)
	}
	want := []string{"vault/", "  decisions/", "    2026-11-05.md", "  ledger/", "    raw/", "      openclaw/", "        2026/", "          11/", "            05.jsonl",
		"main's workspace/", "  MEMORY.md", "  memory/", "    2026-11-20.md"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestReadLine(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	got, err := f.space.ReadLine(filepath.Join(f.ws, "memory", "2026-11-20.md"), 3)
	if err != nil || got != "- 10:03 We decided to use PostgreSQL." {
		t.Errorf("got %q %v", got, err)
	}
	if _, err := f.space.ReadLine(filepath.Join(f.ws, "memory", "2026-11-20.md"), 9); err == nil {
		t.Error("a line past the end")
	}
}

func TestFindSource(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	raw := filepath.Join(f.vault, "ledger", "raw", "openclaw", "2026", "11", "06.jsonl")
	write(t, raw, `{"recordedAt":"2026-11-06T09:35:00.000Z","timestamp":"2026-11-06T09:35:00.000Z","source":"openclaw","sessionKey":"agent:main:main","transcriptId":"aaa","message":"[main] user: other"}`+"\n"+
		`{"recordedAt":"2026-11-06T09:36:00.000Z","timestamp":"2026-11-06T09:36:00.000Z","source":"openclaw","sessionKey":"agent:main:telegram:dm:1","transcriptId":"bbb","message":"[telegram] user: We decided to move the sync."}`+"\n")
	rows := model.ObservationRows(read(t, filepath.Join(f.vault, "decisions", "2026-11-05.md")), "")
	src, found, err := f.space.FindSource(context.Background(), rows[0].Content, rows[0].Date)
	if err != nil || !found {
		t.Fatalf("not found: %v", err)
	}
	if src.SessionKey != "agent:main:telegram:dm:1" || src.TranscriptID != "bbb" || src.RawLine != 2 || src.RawFile != raw {
		t.Errorf("got %+v", src)
	}
	if _, found, _ := f.space.FindSource(context.Background(), "09:00 [main] user: nobody said this at all", "2026-11-05"); found {
		t.Error("found a message nobody wrote")
	}
}

// A MEMORY.md that begins with a byte-order mark: promote --create finds
// the first section instead of adding a second one, and keeps the mark.
func TestPromoteAfterAByteOrderMark(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	path := filepath.Join(f.ws, "MEMORY.md")
	write(t, path, "\ufeff## Decisions\n- Invoices are immutable.\n\n## Lessons\n- Backups first.\n")
	got, err := f.space.Promote("main", "Decisions", "We use PostgreSQL.", true)
	if err != nil {
		t.Fatal(err)
	}
	want := "\ufeff## Decisions\n- Invoices are immutable.\n- We use PostgreSQL.\n\n## Lessons\n- Backups first.\n"
	if text := read(t, path); text != want || got.SectionCreated || got.Line != 3 {
		t.Errorf("got %+v\n%q\nwant\n%q", got, text, want)
	}
}

// meddler writes the file once, as another program would, in the moment
// between Save's check and its swap (when the new version is staged).
type meddler struct {
	store.WriteFS
	path  string
	edit  func(string) string
	fired bool
}

func (m *meddler) CreateTemp(dir, pattern string) (store.TempFile, error) {
	if !m.fired && !strings.Contains(dir, "backups") {
		m.fired = true
		b, _ := os.ReadFile(m.path)
		os.WriteFile(m.path, []byte(m.edit(string(b))), 0o644)
	}
	return m.WriteFS.CreateTemp(dir, pattern)
}

func (m *meddler) Exchange(a, b string) error { return m.WriteFS.(store.Swapper).Exchange(a, b) }
func (m *meddler) Link(oldname, newname string) error {
	return m.WriteFS.(store.Swapper).Link(oldname, newname)
}

// A change another program makes between the check and the write is
// merged when it touches other lines; a save from the same text after
// that conflicts rather than drop it.
func TestSaveMergesAChangeMadeWhileSaving(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	path := filepath.Join(f.ws, "MEMORY.md")
	doc, _ := f.space.Read(path)
	f.space.opt.Writer = &meddler{WriteFS: store.OSWriter, path: path, edit: func(s string) string { return s + "- the agent's line\n" }}
	ours := strings.Replace(string(doc.Data), "# MEMORY.md", "# Memory", 1)
	saved, err := f.space.Save(path, []byte(ours), doc.Version)
	want := ours + "- the agent's line\n"
	if err != nil || string(saved.Merged) != want || read(t, path) != want {
		t.Fatalf("%+v, %v; on disk %q, want both changes", saved, err, read(t, path))
	}
	if _, err := f.space.Save(path, []byte(ours+"- more\n"), saved.Version); !errors.Is(err, ErrConflict) {
		t.Errorf("a save from the text before the merge: %v, want a conflict", err)
	}
}

// A change to the same line, made between the check and the write, is
// left in place and reported as a conflict; ours is kept in the backups.
func TestSaveLeavesAClashMadeWhileSaving(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	path := filepath.Join(f.ws, "MEMORY.md")
	doc, _ := f.space.Read(path)
	theirs := strings.Replace(string(doc.Data), "immutable", "append-only", 1)
	f.space.opt.Writer = &meddler{WriteFS: store.OSWriter, path: path, edit: func(string) string { return theirs }}
	ours := strings.Replace(string(doc.Data), "immutable", "never edited", 1)
	_, err := f.space.Save(path, []byte(ours), doc.Version)
	var ce *ConflictError
	if !errors.As(err, &ce) || read(t, path) != theirs || string(ce.Disk.Data) != theirs || ce.Kept == "" || read(t, ce.Kept) != ours {
		t.Fatalf("%v; on disk %q; want theirs left and ours kept", err, read(t, path))
	}
	if leftovers, _ := filepath.Glob(filepath.Join(f.ws, ".MEMORY.md.clawvault-tui-*")); len(leftovers) > 0 {
		t.Errorf("left %v", leftovers)
	}
}
