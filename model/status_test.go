package model

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"clawvault-tui/jscompat"
)

var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

const dir = "/state/agents/main/sessions"

func row(key, id string, extra string) ScanRow {
	raw := fmt.Sprintf(`{"sessionId":%q,"updatedAt":%d%s}`, id, testNow.UnixMilli(), extra)
	var e SessionEntry
	if err := json.Unmarshal([]byte(raw), &e); err != nil {
		panic(err)
	}
	return ScanRow{Key: key, Entry: e.StatusEntry}
}

func file(name string, size int64) DirFile {
	return DirFile{Name: name, IsFile: true, Size: size, ModTime: testNow}
}

func cursor(off, size int64, age time.Duration, key string) Cursor {
	return Cursor{LastObservedOffset: float64(off), LastObservedAt: jscompat.FormatISOTime(testNow.Add(-age)), SessionKey: key, LastFileSize: float64(size)}
}

// scenario builds one agent with the given rows, files and cursors.
type scenario struct {
	rows    []ScanRow
	files   []DirFile
	cursors map[string]Cursor
	corrupt string
	readErr error
	invalid map[string]string
	sqlite  bool
	outside map[string]DirFile
}

func (s scenario) build() []SessionRow {
	slices.SortFunc(s.files, func(a, b DirFile) int { return strings.Compare(a.Name, b.Name) })
	snap := AgentSnapshot{AgentID: "main", SessionsDir: dir, Files: s.files, Rows: s.rows, Outside: s.outside}
	if s.sqlite {
		snap.SQLitePath = "/state/agents/main/agent/openclaw-agent.sqlite"
		snap.SQLite = &DirFile{Name: "openclaw-agent.sqlite", IsFile: true, Size: 4096}
	}
	store := NewCursorStore()
	for id, c := range s.cursors {
		store.Set(id, c)
	}
	cs := CursorState{Path: "/vault/.clawvault/observe-cursors.json", Store: store, Problems: s.invalid, Corrupt: s.corrupt, ReadError: s.readErr}
	return BuildRows(snap, cs, StatusOptions{Now: testNow})
}

func codesOf(r SessionRow) []DiagnosisCode {
	var c []DiagnosisCode
	for _, d := range r.Diagnosis {
		c = append(c, d.Code)
	}
	return c
}

func findRow(t *testing.T, rows []SessionRow, file string) SessionRow {
	t.Helper()
	for _, r := range rows {
		if strings.HasSuffix(r.File, "/"+file) {
			return r
		}
	}
	t.Fatalf("no row for %s in %d rows", file, len(rows))
	return SessionRow{}
}

// Every diagnosis code, each in the situation that produces it, with the
// numbers its sentence must name.
func TestDiagnosisCodes(t *testing.T) {
	tests := []struct {
		name     string
		scenario scenario
		file     string
		want     []DiagnosisCode
		mentions []string
	}{
		{
			name:     "the 14 MB main session that was never observed",
			scenario: scenario{rows: []ScanRow{row("agent:main:main", "m", "")}, files: []DirFile{file("m.jsonl", 14*MiB)}},
			file:     "m.jsonl",
			want:     []DiagnosisCode{CodeNoCursor, CodeCandidate, CodeOverdue},
			mentions: []string{"14,680,064 bytes", "307,200 bytes", "47× the threshold"},
		},
		{
			name: "a DM below its threshold",
			scenario: scenario{rows: []ScanRow{row("agent:main:telegram:dm:1", "d", "")}, files: []DirFile{file("d.jsonl", 30000)},
				cursors: map[string]Cursor{"d": cursor(10000, 10000, time.Hour, "agent:main:telegram:dm:1")}},
			file:     "d.jsonl",
			want:     []DiagnosisCode{CodeBelowThreshold},
			mentions: []string{"31,200 bytes", "20,000 bytes", "51,200 bytes"},
		},
		{
			name: "a cursor past the end of a truncated file",
			scenario: scenario{rows: []ScanRow{row("agent:main:direct:x", "t", "")}, files: []DirFile{file("t.jsonl", 80000)},
				cursors: map[string]Cursor{"t": cursor(120000, 120000, time.Hour, "agent:main:direct:x")}},
			file:     "t.jsonl",
			want:     []DiagnosisCode{CodeCursorPastEOF, CodeCandidate},
			mentions: []string{"120,000", "80,000 bytes"},
		},
		{
			name: "stale: observed long ago and grown since",
			scenario: scenario{rows: []ScanRow{row("agent:main:main", "s", "")}, files: []DirFile{file("s.jsonl", 70000)},
				cursors: map[string]Cursor{"s": cursor(60000, 60000, 50*time.Hour, "agent:main:main")}},
			file:     "s.jsonl",
			want:     []DiagnosisCode{CodeStale, CodeBelowThreshold},
			mentions: []string{"2d 2h", "10,000 bytes"},
		},
		{
			name: "a reset archive holding unobserved content",
			scenario: scenario{files: []DirFile{file("r.jsonl.reset.2026-11-19T08-30-00.000Z", 90000)},
				cursors: map[string]Cursor{"r": cursor(30000, 30000, 60*time.Hour, "agent:main:main")}},
			file:     "r.jsonl.reset.2026-11-19T08-30-00.000Z",
			want:     []DiagnosisCode{CodeResetArchive},
			mentions: []string{"60,000 bytes", "2026-11-19T08-30-00.000Z"},
		},
		{
			name:     "a reset archive never observed at all",
			scenario: scenario{files: []DirFile{file("r.jsonl.reset.2026-11-19T08-30-00.000Z", 900)}},
			file:     "r.jsonl.reset.2026-11-19T08-30-00.000Z",
			want:     []DiagnosisCode{CodeResetArchive, CodeNoCursor},
		},
		{
			name: "a reset archive observed to its end lost nothing",
			scenario: scenario{files: []DirFile{file("r.jsonl.reset.2026-11-19T08-30-00.000Z", 900)},
				cursors: map[string]Cursor{"r": cursor(900, 900, 60*time.Hour, "agent:main:main")}},
			file: "r.jsonl.reset.2026-11-19T08-30-00.000Z",
			want: nil,
		},
		{
			name: "two rows sharing a session: ClawVault takes the newest, no scan involved",
			scenario: scenario{rows: []ScanRow{row("agent:main:cron:job", "j", ""), row("agent:main:cron:job:run:j", "j", "")}, files: []DirFile{file("j.jsonl", 100)},
				cursors: map[string]Cursor{"j": cursor(100, 100, time.Hour, "agent:main:cron:job")}},
			file: "j.jsonl",
			want: []DiagnosisCode{CodeBelowThreshold},
		},
		{
			name:     "a row whose transcript does not exist",
			scenario: scenario{rows: []ScanRow{row("agent:main:direct:y", "gone", "")}},
			file:     "gone.jsonl",
			want:     []DiagnosisCode{CodeMissingFile},
			mentions: []string{"gone.jsonl"},
		},
		{
			name: "a memory flush skipped before compactions",
			scenario: scenario{rows: []ScanRow{row("agent:main:main", "f", `,"compactionCount":3,"memoryFlushCompactionCount":1`)}, files: []DirFile{file("f.jsonl", 100)},
				cursors: map[string]Cursor{"f": cursor(100, 100, time.Hour, "agent:main:main")}},
			file:     "f.jsonl",
			want:     []DiagnosisCode{CodeBelowThreshold, CodeFlushSkipped},
			mentions: []string{"compactionCount 3", "memoryFlushCompactionCount 1"},
		},
		{
			name:     "a cursor that fails validation",
			scenario: scenario{rows: []ScanRow{row("agent:main:main", "c", "")}, files: []DirFile{file("c.jsonl", 100)}, invalid: map[string]string{"c": "lastObservedOffset is -1, not a finite number ≥ 0"}},
			file:     "c.jsonl",
			want:     []DiagnosisCode{CodeCursorInvalid, CodeBelowThreshold},
			mentions: []string{"lastObservedOffset is -1"},
		},
		{
			name:     "a corrupt cursor file",
			scenario: scenario{rows: []ScanRow{row("agent:main:main", "c", "")}, files: []DirFile{file("c.jsonl", 100)}, corrupt: "unexpected end of JSON input"},
			file:     "c.jsonl",
			want:     []DiagnosisCode{CodeCursorFileCorrupt, CodeBelowThreshold},
			mentions: []string{"unexpected end of JSON input"},
		},
		{
			name:     "a link in the sessions folder that leads out of the state dir",
			scenario: scenario{files: []DirFile{{Name: "l.jsonl", IsFile: true, Size: 900, Link: true, Outside: "/etc/shadow"}}},
			file:     "l.jsonl",
			want:     []DiagnosisCode{CodeOutsideStateDir},
			mentions: []string{"leads to /etc/shadow", "never read"},
		},
		{
			name:     "a cursor file that cannot be read is not corrupt",
			scenario: scenario{rows: []ScanRow{row("agent:main:main", "c", "")}, files: []DirFile{file("c.jsonl", 100)}, readErr: &fs.PathError{Op: "open", Path: "/vault/.clawvault/observe-cursors.json", Err: syscall.EACCES}},
			file:     "c.jsonl",
			want:     []DiagnosisCode{CodeCursorFileUnreadable, CodeBelowThreshold},
			mentions: []string{"cannot be read (permission denied)", "sweeps stop"},
		},
		{
			name:     "a name that is not a valid session id",
			scenario: scenario{files: []DirFile{file("notes (copy).jsonl", 100)}},
			file:     "notes (copy).jsonl",
			want:     []DiagnosisCode{CodeNotDiscovered},
			mentions: []string{"not a valid session id"},
		},
		{
			name:     "a .backup name",
			scenario: scenario{files: []DirFile{file("old.backup.jsonl", 100)}},
			file:     "old.backup.jsonl",
			want:     []DiagnosisCode{CodeNotDiscovered},
			mentions: []string{".backup"},
		},
		{
			name:     "a .deleted archive",
			scenario: scenario{files: []DirFile{file("x.jsonl.deleted.2026-10-01T00-00-00.000Z", 100)}},
			file:     "x.jsonl.deleted.2026-10-01T00-00-00.000Z",
			want:     []DiagnosisCode{CodeNotDiscovered},
			mentions: []string{".deleted archive"},
		},
		{
			name: "a transcript in another agent's folder",
			scenario: scenario{rows: []ScanRow{row("agent:main:direct:z", "o", `,"sessionFile":"/state/agents/work/sessions/o.jsonl"`)},
				outside: map[string]DirFile{"/state/agents/work/sessions/o.jsonl": file("o.jsonl", 100)}},
			file:     "o.jsonl",
			want:     []DiagnosisCode{CodeNotDiscovered},
			mentions: []string{"/state/agents/work/sessions", "looks only in " + dir},
		},
		{
			name:     "a telegram topic found only by the scan",
			scenario: scenario{rows: []ScanRow{row("agent:main:telegram:group:-1:topic:42", "g", `,"sessionFile":"`+dir+`/g-topic-42.jsonl"`)}, files: []DirFile{file("g-topic-42.jsonl", 100)}},
			file:     "g-topic-42.jsonl",
			want:     []DiagnosisCode{CodeScanOnly, CodeNoCursor, CodeBelowThreshold},
			mentions: []string{"agent:main:unknown:g-topic-42", "[unknown]", "[telegram-group]"},
		},
		{
			name:     "a checkpoint copy observed twice",
			scenario: scenario{files: []DirFile{file("p.checkpoint.0b7e4a52-3c1d-4f6e-9a80-2d5c7e91f4a3.jsonl", 100)}},
			file:     "p.checkpoint.0b7e4a52-3c1d-4f6e-9a80-2d5c7e91f4a3.jsonl",
			want:     []DiagnosisCode{CodeCheckpointCopy, CodeNoCursor, CodeBelowThreshold},
		},
		{
			name:     "an agent on the SQLite-era store",
			scenario: scenario{sqlite: true, rows: []ScanRow{row("agent:main:main", "q", "")}, files: []DirFile{file("q.jsonl", 100)}},
			file:     "q.jsonl",
			want:     []DiagnosisCode{CodeSQLiteStore, CodeNoCursor, CodeBelowThreshold},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := findRow(t, tt.scenario.build(), tt.file)
			if got := codesOf(r); !slices.Equal(got, tt.want) {
				t.Errorf("codes = %v, want %v\n%s", got, tt.want, messages(r))
			}
			all := messages(r)
			for _, m := range tt.mentions {
				if !strings.Contains(all, m) {
					t.Errorf("the diagnosis does not mention %q:\n%s", m, all)
				}
			}
		})
	}
}

func messages(r SessionRow) string {
	var b strings.Builder
	for _, d := range r.Diagnosis {
		fmt.Fprintf(&b, "  %s: %s\n", d.Code, d.Message)
	}
	return b.String()
}

func TestDiagnosisFromTail(t *testing.T) {
	t.Parallel()
	s := scenario{rows: []ScanRow{row("agent:main:main", "m", "")}, files: []DirFile{file("m.jsonl", 60000)}}
	snap := AgentSnapshot{AgentID: "main", SessionsDir: dir, Files: s.files, Rows: s.rows}
	cs := CursorState{Store: NewCursorStore()}
	r := BuildRows(snap, cs, StatusOptions{Now: testNow})[0]
	r.Tail = &TailFacts{PartialTail: true, TailBytes: 312, Messages: 0}
	got := codesOf(SessionRow{Diagnosis: Diagnose(&r, snap, cs, StatusOptions{Now: testNow})})
	want := []DiagnosisCode{CodeNoCursor, CodeCandidate, CodePartialTail, CodeNoMessages}
	if !slices.Equal(got, want) {
		t.Errorf("codes = %v, want %v", got, want)
	}
}

func TestSQLiteStoreRow(t *testing.T) {
	rows := scenario{sqlite: true}.build()
	if len(rows) != 1 || rows[0].Origin != OriginSQLite || !rows[0].Has(CodeSQLiteStore) {
		t.Fatalf("an agent with only the SQLite store gets one row for it: %+v", rows)
	}
}

func TestBuildRowsOrigins(t *testing.T) {
	rows := scenario{
		rows:  []ScanRow{row("agent:main:main", "a", "")},
		files: []DirFile{file("a.jsonl", 10), file("orphan.jsonl", 10), file("a.jsonl.lock", 10), file("sessions.json", 10), file("a.jsonl.reset.2026-11-19T08-30-00.000Z", 10)},
	}.build()
	var got []string
	for _, r := range rows {
		got = append(got, r.Origin.String()+":"+r.Name.Kind.String())
	}
	want := []string{"sessions.json:primary", "archive:reset-archive", "scan:primary"}
	if !slices.Equal(got, want) {
		t.Errorf("rows = %v, want %v", got, want)
	}
	if a := rows[0]; !slices.Contains(a.Siblings, "a.jsonl.lock") || !slices.Contains(a.Siblings, "a.jsonl.reset.2026-11-19T08-30-00.000Z") {
		t.Errorf("siblings = %v", a.Siblings)
	}
	if o := rows[2]; o.ObserverKey != "agent:main:unknown:orphan" || o.Label != "unknown" || !o.Discovered {
		t.Errorf("orphan: %+v", o)
	}
}

// After `observe --include-resets`, a reset archive's own cursor says what
// was observed of it, and the diagnosis goes.
func TestResetArchiveCursor(t *testing.T) {
	t.Parallel()
	name := "old1.jsonl.reset.2026-11-20T10-00-00.000Z"
	snap := AgentSnapshot{AgentID: "main", SessionsDir: "/s", Files: []DirFile{{Name: name, IsFile: true, Size: 900}}}
	cursors := CursorState{Store: NewCursorStore(), Problems: map[string]string{}}
	cursors.Store.Set("old1", Cursor{LastObservedOffset: 300, LastObservedAt: "2026-11-20T09:00:00.000Z", SessionKey: "agent:main:main", LastFileSize: 300})
	opt := StatusOptions{Now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	row := BuildRows(snap, cursors, opt)[0]
	if row.CursorID != "old1" || row.Pending() != 600 || !hasCode(row, CodeResetArchive) {
		t.Fatalf("before: %+v", row)
	}
	cursors.Store.Set(ResetCursorID(name), Cursor{LastObservedOffset: 900, LastObservedAt: "2026-11-21T12:00:00.000Z", SessionKey: "agent:main:main", LastFileSize: 900})
	row = BuildRows(snap, cursors, opt)[0]
	if row.CursorID != name || row.Pending() != 0 || hasCode(row, CodeResetArchive) {
		t.Errorf("after: %+v", row)
	}
}

func hasCode(row SessionRow, code DiagnosisCode) bool {
	for _, d := range row.Diagnosis {
		if d.Code == code {
			return true
		}
	}
	return false
}

// RowFileIn answers as RowFile and filepath.Dir do, fast path or not.
func TestRowFileIn(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{"/s/agents/main/sessions", "/", "/s/x/", "rel/dir", "/s/./x"} {
		for _, e := range []StatusEntry{
			{SessionID: "abc"},
			{SessionID: " abc "},
			{SessionID: "a/b"},
			{SessionID: ".."},
			{SessionID: ""},
			{SessionFile: dir + "/abc.jsonl"},
			{SessionFile: dir + "//abc.jsonl"},
			{SessionFile: dir + "/sub/abc.jsonl"},
			{SessionFile: dir + "/../abc.jsonl"},
			{SessionFile: dir + "/."},
			{SessionFile: dir + "c/abc.jsonl"},
			{SessionFile: "abc.jsonl"},
			{SessionFile: "/elsewhere/abc.jsonl"},
		} {
			want := RowFile(dir, e)
			path, inDir := RowFileIn(dir, e)
			if path != want || inDir != (filepath.Dir(want) == dir) {
				t.Errorf("RowFileIn(%q, %+v) = %q, %v; RowFile says %q (in the folder: %v)", dir, e, path, inDir, want, filepath.Dir(want) == dir)
			}
		}
	}
}
