package store

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"clawvault-tui/model"
)

// importFixture is a state dir whose agent main the real importer moved
// into its store (the cases of testdata/import, 2026.9.6), with JSONL left
// over: case 01 back in sessions/ as OpenClaw left it, case 05 (an id
// twice, with other content) as OpenClaw left it, case 09 appended to after
// the import, case 03 edited in place, a transcript the store has
// no session of, and cases 02 and 06 in the importer's archive folder.
// ClawVault's cursors: case 06 observed to the end of its line 2, case 03
// to the middle of a line.
func importFixture(t *testing.T) (state, vault string) {
	t.Helper()
	root := t.TempDir()
	state, vault = filepath.Join(root, "state"), filepath.Join(root, "vault")
	importedStore(t, state, "2026.9.6").Close()
	sessions := filepath.Join(state, "agents", "main", "sessions")
	archive := filepath.Join(state, "agents", "main", "session-sqlite-import-archive")
	for _, d := range []string{sessions, archive, filepath.Join(vault, ".clawvault")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(importCasesDir, name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write := func(path, data string) {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	id := func(n string) string { return "7e1c0000-0000-4000-8000-0000000000" + n }
	write(filepath.Join(sessions, id("01")+".jsonl"), read("01-plain"))
	write(filepath.Join(sessions, id("05")+".jsonl"), read("05-duplicates"))
	write(filepath.Join(sessions, id("09")+".jsonl"), read("09-compressed")+
		`{"type":"message","id":"e0000009","parentId":"e0000004","timestamp":"2026-04-10T09:00:00.000Z","message":{"role":"user","content":"written after the import"}}`+"\n")
	write(filepath.Join(sessions, id("03")+".jsonl"), strings.Replace(read("03-json-text"), "id first", "id first, edited", 1))
	write(filepath.Join(sessions, "99999999-0000-4000-8000-000000000000.jsonl"), `{"type":"session","version":3,"id":"99999999-0000-4000-8000-000000000000","timestamp":"t","cwd":"/"}`+"\n")
	write(filepath.Join(archive, "agent_main_direct_import-02."+id("02")+".jsonl.imported-1795872913441"), read("02-normalized"))
	write(filepath.Join(archive, "agent_main_direct_import-06."+id("06")+".jsonl.imported-1795872913442"), read("06-crlf"))
	write(filepath.Join(archive, "legacy-store.sessions.json.imported-1795872913500"), "{}\n")
	line2 := strings.Index(read("06-crlf"), "\n") + 1
	line2 += strings.Index(read("06-crlf")[line2:], "\n") + 1
	cursors := map[string]any{
		id("06"): map[string]any{"lastObservedOffset": line2, "lastObservedAt": "2026-11-20T08:00:00.000Z", "sessionKey": "agent:main:main", "lastFileSize": line2},
		id("03"): map[string]any{"lastObservedOffset": 100, "lastObservedAt": "2026-11-20T08:00:00.000Z", "sessionKey": "agent:main:main", "lastFileSize": 100},
	}
	data, _ := json.MarshalIndent(cursors, "", "  ")
	write(filepath.Join(vault, ".clawvault", "observe-cursors.json"), string(data)+"\n")
	write(filepath.Join(vault, ".clawvault.json"), `{"name":"v"}`+"\n")
	write(filepath.Join(state, "openclaw.json"), `{"agents":{"list":[{"id":"main"}]}}`+"\n")
	return state, vault
}

func rowOf(t *testing.T, snap *Snapshot, file string) *model.SessionRow {
	t.Helper()
	for i := range snap.Rows {
		if strings.HasSuffix(snap.Rows[i].File, file) {
			return &snap.Rows[i]
		}
	}
	t.Fatalf("no row of %s", file)
	return nil
}

func codes(r *model.SessionRow) []string {
	var out []string
	for _, d := range r.Diagnosis {
		out = append(out, string(d.Code))
	}
	return out
}

func hasCode(r *model.SessionRow, code model.DiagnosisCode) bool { return r.Has(code) }

// The rows of leftover JSONL say what comparing them with the store found,
// under the session key the store gives them; a verified one is no
// candidate; the archive folder's transcripts are rows of their own.
func TestLeftoverJSONLRows(t *testing.T) {
	t.Parallel()
	state, vault := importFixture(t)
	snap := scanAt(t, state, vault)
	for _, tt := range []struct {
		file, key string
		code      model.DiagnosisCode
		says      string
	}{
		{"000000000001.jsonl", "agent:main:direct:import-01", model.CodeImportVerified, "All 14 entries"},
		{"000000000005.jsonl", "agent:main:direct:import-05", model.CodeImportDiffers, "first at line 5, id e0000001"},
		{"000000000009.jsonl", "agent:main:direct:import-09", model.CodeImportIncomplete, "1 of its 6 entries are absent from openclaw-agent.sqlite's session agent:main:direct:import-09 (from line 6)"},
		{"000000000003.jsonl", "agent:main:direct:import-03", model.CodeImportDiffers, "first at line 5, id e0000004"},
		{"99999999-0000-4000-8000-000000000000.jsonl", "agent:main:unknown:99999999-0000-4000-8000-000000000000", model.CodeNotImported, "has no session 99999999"},
		{".jsonl.imported-1795872913441", "agent:main:direct:import-02", model.CodeImportVerified, "All 11 entries"},
		{".jsonl.imported-1795872913442", "agent:main:direct:import-06", model.CodeImportVerified, "All 3 entries"},
	} {
		r := rowOf(t, snap, tt.file)
		if r.DisplayKey() != tt.key || !hasCode(r, tt.code) {
			t.Errorf("%s: key %s, codes %v; want %s and %s", tt.file, r.DisplayKey(), codes(r), tt.key, tt.code)
			continue
		}
		for _, d := range r.Diagnosis {
			if d.Code == tt.code && !strings.Contains(d.Message, tt.says) {
				t.Errorf("%s: %q does not say %q", tt.file, d.Message, tt.says)
			}
		}
		if tt.code == model.CodeImportVerified && (r.Candidate || hasCode(r, model.CodeCandidate) || hasCode(r, model.CodeBelowThreshold)) {
			t.Errorf("%s: verified, but a candidate or waiting for one: %v", tt.file, codes(r))
		}
	}
	for _, r := range snap.Rows {
		if strings.Contains(r.File, "legacy-store") {
			t.Errorf("the archived sessions.json is a row: %s", r.File)
		}
	}
}

// A byte cursor ClawVault had on a session's JSONL carries over to the seq
// of the event whose line ended there: the session's pending events are
// those after it. One in the middle of a line does not, and says so.
func TestByteCursorCarriesOverTheImport(t *testing.T) {
	t.Parallel()
	state, vault := importFixture(t)
	snap := scanAt(t, state, vault)
	var six, three *model.SessionRow
	for i := range snap.Rows {
		r := &snap.Rows[i]
		if r.Origin != model.OriginSQLite {
			continue
		}
		switch r.SessionID {
		case "7e1c0000-0000-4000-8000-000000000006":
			six = r
		case "7e1c0000-0000-4000-8000-000000000003":
			three = r
		}
	}
	g := six.Generation
	if g.Carried == nil || g.Carried.Problem != "" || g.Read.AfterSeq != 1 || g.PendingEvents != 1 {
		t.Fatalf("case 06: carried %+v, read %+v, pending %d events; want after seq 1, 1 pending", g.Carried, g.Read, g.PendingEvents)
	}
	if !strings.Contains(six.Diagnosis[0].Message, "to byte") || !strings.Contains(six.Diagnosis[0].Message, "through seq 1") {
		t.Errorf("case 06 says %q", six.Diagnosis[0].Message)
	}
	if !hasCode(three, model.CodeCursorNotCarried) || three.Generation.Read.AfterSeq != -1 {
		t.Errorf("case 03: %v, read after %d; want cursor-not-carried and a read from the first event", codes(three), three.Generation.Read.AfterSeq)
	}
}

// openCountingFS counts the transcripts opened under a folder.
type openCountingFS struct {
	FS
	under  string
	opened atomic.Int64
}

func (c *openCountingFS) Open(name string) (File, error) {
	if strings.HasPrefix(name, c.under) && strings.Contains(name, ".jsonl") {
		c.opened.Add(1)
	}
	return c.FS.Open(name)
}

// A second status reads no leftover file again: its verdict is cached by
// the file's identity; a file that changed is compared again.
func TestImportVerdictsAreCached(t *testing.T) {
	t.Parallel()
	state, vault := importFixture(t)
	ws, err := Locate(env(nil, "/nohome", "/"), LocateOptions{StateDir: state, Vault: vault})
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	fsys := &openCountingFS{FS: OS, under: filepath.Join(state, "agents", "main", "session")}
	scan := func() *Snapshot {
		snap, err := Scan(context.Background(), fsys, ws, ScanOptions{Now: sqliteNow, CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		return snap
	}
	scan()
	if fsys.opened.Load() == 0 {
		t.Fatal("the first status read no leftover file")
	}
	fsys.opened.Store(0)
	snap := scan()
	if n := fsys.opened.Load(); n != 0 {
		t.Errorf("the second status opened %d leftover files", n)
	}
	if !hasCode(rowOf(t, snap, "000000000009.jsonl"), model.CodeImportIncomplete) {
		t.Errorf("the cached verdict is lost: %v", codes(rowOf(t, snap, "000000000009.jsonl")))
	}
	p := filepath.Join(state, "agents", "main", "sessions", "7e1c0000-0000-4000-8000-000000000001.jsonl")
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"custom","id":"z1","parentId":null,"customType":"x"}` + "\n")
	f.Close()
	snap = scan()
	if n := fsys.opened.Load(); n != 1 {
		t.Errorf("after one file grew, %d files were opened; want 1", n)
	}
	if !hasCode(rowOf(t, snap, "000000000001.jsonl"), model.CodeImportIncomplete) {
		t.Errorf("the grown file: %v", codes(rowOf(t, snap, "000000000001.jsonl")))
	}
}
