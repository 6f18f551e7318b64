package observer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

// fixture is a small OpenClaw state dir and ClawVault vault.
type fixture struct {
	t                      *testing.T
	state, vault, sessions string
	rows                   map[string]any
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{t: t, state: filepath.Join(root, "state"), vault: filepath.Join(root, "vault"), rows: map[string]any{}}
	f.sessions = filepath.Join(f.state, "agents", "main", "sessions")
	f.write(filepath.Join(f.vault, ".clawvault.json"), `{"name":"vault","version":"1.0.0","categories":[]}`)
	f.write(filepath.Join(f.sessions, "sessions.json"), "{}")
	return f
}

func (f *fixture) write(path, data string) {
	f.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// session adds a transcript and its sessions.json row (newest last).
func (f *fixture) session(key, id, content string) string {
	f.t.Helper()
	path := filepath.Join(f.sessions, id+".jsonl")
	f.write(path, content)
	f.rows[key] = map[string]any{"sessionId": id, "updatedAt": len(f.rows) + 1}
	data, _ := json.Marshal(f.rows)
	f.write(filepath.Join(f.sessions, "sessions.json"), string(data))
	return path
}

func msgLine(id, role, text string) string {
	b, _ := json.Marshal(map[string]any{"type": "message", "id": id, "parentId": nil, "timestamp": "2026-11-21T10:00:00.000Z",
		"message": map[string]any{"role": role, "content": []any{map[string]any{"type": "text", "text": text}}}})
	return string(b)
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func (f *fixture) workspace() *store.Workspace {
	f.t.Helper()
	ws, err := store.Locate(store.Env{Getenv: func(string) string { return "" }, Home: f.t.TempDir(), Cwd: "/"},
		store.LocateOptions{StateDir: f.state, Vault: f.vault})
	if err != nil {
		f.t.Fatal(err)
	}
	return ws
}

// sweep runs a sweep with the fixed clock and --min-new 1.
func (f *fixture) sweep(ctx context.Context, opt SweepOptions) (*SweepReport, error) {
	opt.Workspace = f.workspace()
	if opt.Now == nil {
		opt.Now = func() time.Time { return testNow }
	}
	if opt.MinNewBytes == 0 {
		opt.MinNewBytes = 1
	}
	return Sweep(ctx, opt)
}

func (f *fixture) mustSweep(opt SweepOptions) *SweepReport {
	f.t.Helper()
	r, err := f.sweep(context.Background(), opt)
	if err != nil {
		f.t.Fatalf("sweep: %v", err)
	}
	return r
}

func (f *fixture) read(rel string) string {
	data, err := os.ReadFile(filepath.Join(f.vault, rel))
	if err != nil {
		return ""
	}
	return string(data)
}

// files returns every file of the vault but .clawvault.json, by relative
// path; dropping our own lock/journal names, which must never remain.
func (f *fixture) files() map[string]string {
	f.t.Helper()
	out := map[string]string{}
	filepath.WalkDir(f.vault, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(f.vault, p)
		if rel == ".clawvault.json" {
			return nil
		}
		data, _ := os.ReadFile(p)
		out[rel] = string(data)
		return nil
	})
	return out
}

func (f *fixture) checkClean() {
	f.t.Helper()
	for rel := range f.files() {
		if isTempName(rel) || strings.Contains(rel, "clawvault-tui-sweep") {
			f.t.Errorf("left behind: %s", rel)
		}
	}
}

// isTempName: a temp file name of ours.
func isTempName(p string) bool {
	_, ok := store.TempOwner(filepath.Base(p))
	return ok
}

func testdataSession(t *testing.T) string {
	data, err := os.ReadFile(filepath.Join("testdata", "sweep", "s1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// One session, swept in ClawVault-compat mode, gives exactly the files
// ClawVault 3.5.2 wrote for it (testdata/sweep/clawvault; facts.jsonl aside,
// see docs/SWEEPS.md).
func TestSweepWritesWhatClawVaultWrites(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.session("agent:main:main", "s1", testdataSession(t))
	r := f.mustSweep(SweepOptions{Fixes: &Fixes{}})
	want := map[string]string{}
	root := filepath.Join("testdata", "sweep", "clawvault")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			data, _ := os.ReadFile(p)
			want[rel] = string(data)
		}
		return err
	})
	got := f.files()
	for rel, w := range want {
		if got[rel] != w {
			t.Errorf("%s:\n%s\nClawVault wrote:\n%s", rel, got[rel], w)
		}
	}
	for rel := range got {
		if _, ok := want[rel]; !ok {
			t.Errorf("ClawVault does not write %s", rel)
		}
	}
	if len(r.Observed) != 1 || r.Observed[0].MalformedLines != 1 || !r.Observed[0].PartialTail || r.Observed[0].Messages != 6 ||
		r.Observations != 5 || r.Observed[0].Cursor == nil || r.Observed[0].Cursor.LastObservedOffset != 1285 {
		t.Errorf("report = %+v", r.Observed)
	}
	if !r.ClawVaultCompat || r.Compressor != "rules" || r.Commits != 1 {
		t.Errorf("report = %+v", r)
	}
	f.checkClean()
}

// The default fixes change what their descriptions say, and nothing else.
func TestSweepFixes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.session("agent:main:main", "s1", testdataSession(t))
	f.write(filepath.Join(f.vault, "ledger", "observations", "2026", "11", "21.md"),
		"## 2026-11-21\n\n- [fact|c=0.70|i=0.20] 08:00 earlier\nA note written by hand.\n")
	f.mustSweep(SweepOptions{})
	day := f.read("ledger/observations/2026/11/21.md")
	if !strings.Contains(day, "A note written by hand.") {
		t.Errorf("the note was lost:\n%s", day)
	}
	if strings.Contains(day, "user: ok") {
		t.Errorf("an acknowledgement became an observation:\n%s", day)
	}
	if f.read("backlog/noted-todo-send-the-soc2-questionnaire-to-elena-by-friday.md") == "" {
		t.Errorf("no backlog item without the role: %v", keys(f.files()))
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Swept once, nothing is left; swept again, nothing is observed twice.
func TestSweepTwiceObservesNothingTwice(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.session("agent:main:main", "s1", testdataSession(t))
	f.mustSweep(SweepOptions{})
	before := f.files()
	// The torn tail keeps the session a candidate (--min-new 1), as in
	// ClawVault; it yields nothing until it is complete.
	r := f.mustSweep(SweepOptions{})
	if len(r.Observed) != 1 || r.Observed[0].Messages != 0 || r.Observations != 0 {
		t.Errorf("second sweep: %+v", r.Observed)
	}
	if after := f.files(); !mapsEqual(before, after) {
		t.Error("the second sweep changed files")
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestSweepBusy(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.session("agent:main:main", "s1", testdataSession(t))
	unlock, err := store.LockVault(f.vault, store.CurrentOwner("another sweep", testNow))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	_, err = f.sweep(context.Background(), SweepOptions{})
	var busy *store.BusyError
	if !errors.As(err, &busy) || !strings.Contains(err.Error(), "another sweep") {
		t.Fatalf("err = %v", err)
	}
	if f.read(".clawvault/observe-cursors.json") != "" {
		t.Error("a busy sweep wrote")
	}
}

// twoSessions is a fixture whose clean sweep is the reference for the
// fault tests: whatever goes wrong, a re-run must end with these files.
func twoSessions(t *testing.T) *fixture {
	f := newFixture(t)
	f.session("agent:main:main", "s1", testdataSession(t))
	var ls []string
	for i := range 40 {
		ls = append(ls, msgLine(fmt.Sprintf("b%d", i), "user", fmt.Sprintf("Lesson learned: check the webhook number %d before every release.", i)))
	}
	f.session("agent:main:telegram:dm:42", "s2", lines(ls...))
	return f
}

// rerunEndsClean sweeps again and checks that the vault is then what one
// clean sweep leaves (want), with nothing of ours left behind.
func (f *fixture) rerunEndsClean(want map[string]string) {
	f.t.Helper()
	f.mustSweep(SweepOptions{})
	diffFiles(f.t, f.files(), want)
	f.checkClean()
}

func cleanRun(t *testing.T) map[string]string {
	f := twoSessions(t)
	f.mustSweep(SweepOptions{})
	return f.files()
}

func diffFiles(t *testing.T, got, want map[string]string) {
	t.Helper()
	for rel, w := range want {
		if got[rel] != w {
			t.Errorf("%s differs from a clean sweep:\n%s\nwant\n%s", rel, got[rel], w)
		}
	}
	for rel := range got {
		if _, ok := want[rel]; !ok {
			t.Errorf("%s is not in a clean sweep", rel)
		}
	}
}

// Cancel at every stage: the cursors match what was written, and a re-run
// ends exactly where one clean sweep ends: nothing lost, nothing twice.
func TestSweepCancelAtEveryStage(t *testing.T) {
	t.Parallel()
	want := cleanRun(t)
	for _, stage := range []string{"discover", "read", "compress", "route", "flush"} {
		for _, nth := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("%s#%d", stage, nth), func(t *testing.T) {
				f := twoSessions(t)
				ctx, cancel := context.WithCancel(context.Background())
				seen := 0
				r, err := f.sweep(ctx, SweepOptions{Progress: func(p Progress) {
					if p.Stage == stage {
						if seen++; seen == nth {
							cancel()
						}
					}
				}})
				if seen >= nth && stage != "flush" && !errors.Is(err, context.Canceled) {
					t.Fatalf("err = %v", err)
				}
				if r != nil && r.Cancelled && len(r.Observed)+len(r.Skipped) != len(r.Candidates) {
					t.Errorf("observed %d + skipped %d != %d candidates", len(r.Observed), len(r.Skipped), len(r.Candidates))
				}
				f.checkCursorsMatchLedger()
				f.rerunEndsClean(want)
			})
		}
	}
}

// checkCursorsMatchLedger: every session with a cursor has its raw ledger
// lines, and no session has lines without its cursor.
func (f *fixture) checkCursorsMatchLedger() {
	f.t.Helper()
	st := store.LoadCursors(store.OS, f.vault)
	raw := f.read("ledger/raw/openclaw/2026/11/21.jsonl")
	for _, id := range []string{"s1", "s2"} {
		_, hasCursor := st.Store.Get(id)
		hasLines := strings.Contains(raw, `"transcriptId":"`+id+`"`)
		if hasCursor != hasLines {
			f.t.Errorf("%s: cursor %v but ledger lines %v", id, hasCursor, hasLines)
		}
	}
}

// faultWriter fails writes or renames on demand; temp files stay *os.File
// underneath so appends can still roll back.
type faultWriter struct {
	store.WriteFS
	failRename func(newpath string) error
	mu         sync.Mutex // files are staged several at a time
	budget     int64      // bytes left before the disk is full; < 0: unlimited
}

type faultTemp struct {
	*os.File
	w *faultWriter
}

// renameFails is a writer whose renames onto the matching paths fail.
func renameFails(match func(path string) bool) *faultWriter {
	return &faultWriter{WriteFS: store.OSWriter, budget: -1, failRename: func(p string) error {
		if match(p) {
			return &fs.PathError{Op: "rename", Path: p, Err: syscall.EIO}
		}
		return nil
	}}
}

func (w *faultWriter) CreateTemp(dir, pattern string) (store.TempFile, error) {
	t, err := w.WriteFS.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &faultTemp{File: t.(*os.File), w: w}, nil
}

func (w *faultWriter) Rename(oldpath, newpath string) error {
	if w.failRename != nil {
		if err := w.failRename(newpath); err != nil {
			return err
		}
	}
	return w.WriteFS.Rename(oldpath, newpath)
}

func (t *faultTemp) Write(p []byte) (int, error) {
	t.w.mu.Lock()
	defer t.w.mu.Unlock()
	if t.w.budget >= 0 && int64(len(p)) > t.w.budget {
		n, _ := t.File.Write(p[:t.w.budget])
		t.w.budget = 0
		return n, &fs.PathError{Op: "write", Path: t.Name(), Err: syscall.ENOSPC}
	}
	if t.w.budget >= 0 {
		t.w.budget -= int64(len(p))
	}
	return t.File.Write(p)
}

// ReadFrom keeps copies going through Write (and its budget).
func (t *faultTemp) ReadFrom(r io.Reader) (int64, error) {
	return io.Copy(struct{ io.Writer }{t}, r)
}

// The disk fills up at every point of the commit in turn.
func TestSweepDiskFull(t *testing.T) {
	t.Parallel()
	want := cleanRun(t)
	total := int64(0)
	for _, v := range want {
		total += int64(len(v))
	}
	for _, budget := range []int64{0, 100, 1000, 3000, total / 2, total - 100} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			f := twoSessions(t)
			_, err := f.sweep(context.Background(), SweepOptions{WriteFS: &faultWriter{WriteFS: store.OSWriter, budget: budget}})
			if err == nil || !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("err = %v", err)
			}
			f.checkCursorsMatchLedger()
			for rel, data := range f.files() {
				if strings.HasSuffix(rel, ".md") && !strings.HasSuffix(data, "\n") {
					t.Errorf("%s is torn", rel)
				}
			}
			f.rerunEndsClean(want)
		})
	}
}

// A crash between the ledger and the cursors (simulated: the cursor file
// cannot be renamed) leaves a journal; the next sweep applies it and does
// not write the ledger lines again.
func TestSweepJournalRecovery(t *testing.T) {
	t.Parallel()
	want := cleanRun(t)
	f := twoSessions(t)
	w := renameFails(func(p string) bool { return filepath.Base(p) == "observe-cursors.json" })
	if _, err := f.sweep(context.Background(), SweepOptions{WriteFS: w}); err == nil {
		t.Fatal("the failure went unnoticed")
	}
	if f.read(".clawvault/clawvault-tui-sweep.journal.json") == "" {
		t.Fatal("no journal was left to finish the commit")
	}
	r := f.mustSweep(SweepOptions{})
	if r.Recovered == nil || r.Recovered.CursorsApplied != 2 || r.Observations != 0 {
		t.Errorf("recovery: %+v, observations %d", r.Recovered, r.Observations)
	}
	diffFiles(t, f.files(), want)
	f.checkClean()
}

// The raw ledger cannot be renamed: the journal's cursors are not applied,
// the sessions are observed again, once.
func TestSweepLedgerRenameFails(t *testing.T) {
	t.Parallel()
	want := cleanRun(t)
	f := twoSessions(t)
	w := renameFails(func(p string) bool { return strings.HasSuffix(p, ".jsonl") })
	if _, err := f.sweep(context.Background(), SweepOptions{WriteFS: w}); err == nil {
		t.Fatal("the failure went unnoticed")
	}
	f.checkCursorsMatchLedger()
	f.rerunEndsClean(want)
}

// ClawVault writes the cursor file while we sweep: its entries survive the
// merge, and a cursor it moved further is not moved back.
func TestSweepCursorFileChangedDuringSweep(t *testing.T) {
	t.Parallel()
	f := twoSessions(t)
	other := model.NewCursorStore()
	other.Set("zz-other", model.Cursor{LastObservedOffset: 5, LastObservedAt: "2026-11-20T00:00:00.000Z", SessionKey: "agent:main:x", LastFileSize: 5})
	other.Set("s2", model.Cursor{LastObservedOffset: 1e9, LastObservedAt: "2026-11-21T11:59:00.000Z", SessionKey: "agent:main:telegram:dm:42", LastFileSize: 1e9})
	done := false
	f.mustSweep(SweepOptions{Progress: func(p Progress) {
		if p.Stage == "flush" && !done {
			done = true
			if err := store.SaveCursors(store.OSWriter, f.vault, other); err != nil {
				t.Fatal(err)
			}
		}
	}})
	st := store.LoadCursors(store.OS, f.vault)
	if c, ok := st.Store.Get("zz-other"); !ok || c.Offset() != 5 {
		t.Error("the other writer's cursor was lost")
	}
	if c, _ := st.Store.Get("s2"); c.Offset() != 1e9 {
		t.Errorf("a cursor moved backwards: %v", c.Offset())
	}
	if c, ok := st.Store.Get("s1"); !ok || c.Offset() != 1285 {
		t.Errorf("our cursor: %+v %v", c, ok)
	}
}

// mutatingFS changes a transcript after the sweep opened it and took its
// size, just before the first read.
type mutatingFS struct {
	store.FS
	path   string
	mu     sync.Mutex
	mutate func()
}

type mutatingFile struct {
	store.File
	mutate func()
}

func (m *mutatingFS) Open(name string) (store.File, error) {
	f, err := m.FS.Open(name)
	m.mu.Lock()
	defer m.mu.Unlock()
	if err == nil && name == m.path && m.mutate != nil {
		mutate := m.mutate
		m.mutate = nil
		return &mutatingFile{File: f, mutate: mutate}, nil
	}
	return f, err
}

func (f *mutatingFile) ReadAt(p []byte, off int64) (int, error) {
	if f.mutate != nil {
		f.mutate()
		f.mutate = nil
	}
	return f.File.ReadAt(p, off)
}

func TestSweepTranscriptTruncatedDuringRead(t *testing.T) {
	t.Parallel()
	f := twoSessions(t)
	path := filepath.Join(f.sessions, "s1.jsonl")
	r, err := f.sweep(context.Background(), SweepOptions{FS: &mutatingFS{FS: store.OS, path: path, mutate: func() {
		if err := os.Truncate(path, 300); err != nil {
			t.Fatal(err)
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Failed) != 1 || r.Failed[0].SessionID != "s1" || !strings.Contains(r.Failed[0].Error, "changed while it was read") {
		t.Fatalf("failed = %+v", r.Failed)
	}
	if len(r.Observed) != 1 || r.Observed[0].SessionID != "s2" {
		t.Errorf("the other session: %+v", r.Observed)
	}
	f.checkCursorsMatchLedger()
	if _, ok := store.LoadCursors(store.OS, f.vault).Store.Get("s1"); ok {
		t.Error("the truncated session got a cursor")
	}
}

func TestSweepTranscriptAppendedDuringRead(t *testing.T) {
	t.Parallel()
	f := twoSessions(t)
	path := filepath.Join(f.sessions, "s2.jsonl")
	extra := msgLine("late", "user", "We decided to add the late line to the release.") + "\n"
	size := fileSize(t, path)
	r, err := f.sweep(context.Background(), SweepOptions{FS: &mutatingFS{FS: store.OS, path: path, mutate: func() {
		fh, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		fh.WriteString(extra)
		fh.Close()
	}}})
	if err != nil {
		t.Fatal(err)
	}
	var s2 SessionResult
	for _, o := range r.Observed {
		if o.SessionID == "s2" {
			s2 = o
		}
	}
	// The read stops where the file ended when it was opened.
	if s2.Cursor == nil || s2.Cursor.LastObservedOffset != size {
		t.Fatalf("s2 = %+v", s2)
	}
	r = f.mustSweep(SweepOptions{})
	messages := 0
	for _, o := range r.Observed {
		messages += o.Messages
	}
	if messages != 1 {
		t.Fatalf("the appended line: %+v", r.Observed)
	}
	if n := strings.Count(f.read("ledger/raw/openclaw/2026/11/21.jsonl"), "the late line"); n != 1 {
		t.Errorf("the appended line is in the ledger %d times", n)
	}
}

func fileSize(t testing.TB, path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// Someone writes today's day file during the sweep: the sweep's
// observations are merged into their version, nothing of theirs is lost.
func TestSweepDayFileChangedDuringSweep(t *testing.T) {
	t.Parallel()
	f := twoSessions(t)
	day := filepath.Join(f.vault, "ledger", "observations", "2026", "11", "21.md")
	done := false
	r := f.mustSweep(SweepOptions{Progress: func(p Progress) {
		if p.Stage == "flush" && !done {
			done = true
			f.write(day, "## 2026-11-21\n\n- [decision|c=0.90|i=0.90] 11:00 written by ClawVault meanwhile\n")
		}
	}})
	got := f.read("ledger/observations/2026/11/21.md")
	if !strings.Contains(got, "written by ClawVault meanwhile") || !strings.Contains(got, "We decided to use PostgreSQL") {
		t.Errorf("day file:\n%s", got)
	}
	if !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "changed on disk") }) {
		t.Errorf("notes = %q", r.Notes)
	}
}

func TestSweepMaxSessions(t *testing.T) {
	t.Parallel()
	f := twoSessions(t)
	f.session("agent:main:cron:x", "s3", lines(msgLine("c", "user", "tiny")))
	r := f.mustSweep(SweepOptions{MaxSessions: 2})
	if len(r.Observed) != 2 || r.Observed[0].SessionID != "s2" || r.Observed[1].SessionID != "s1" {
		t.Fatalf("the largest first: %+v", r.Observed)
	}
	if len(r.Skipped) != 1 || r.Skipped[0].SessionID != "s3" {
		t.Errorf("skipped = %+v", r.Skipped)
	}
}

// Only observes the confirmed sessions, even when another has crossed its
// threshold since; that one waits for the next sweep.
func TestSweepOnlyConfirmed(t *testing.T) {
	t.Parallel()
	f := twoSessions(t)
	r := f.mustSweep(SweepOptions{Only: []string{"s1"}})
	if len(r.Observed) != 1 || r.Observed[0].SessionID != "s1" {
		t.Fatalf("observed %+v", r.Observed)
	}
	if len(r.Skipped) != 1 || r.Skipped[0].SessionID != "s2" {
		t.Errorf("skipped = %+v", r.Skipped)
	}
	again := f.mustSweep(SweepOptions{})
	if !slices.ContainsFunc(again.Observed, func(r SessionResult) bool { return r.SessionID == "s2" && r.Observations > 0 }) {
		t.Errorf("the next sweep did not observe s2: %+v", again.Observed)
	}
}

// A /new archive: its unobserved tail is observed under a cursor keyed by
// the archive's name, which ClawVault keeps and never confuses.
func TestSweepIncludeResets(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	archived := lines(msgLine("a1", "user", "We decided to keep invoices immutable."), msgLine("a2", "user", "TODO: export the audit log for the auditors."))
	name := "old1.jsonl.reset.2026-11-20T10-00-00.000Z"
	f.write(filepath.Join(f.sessions, name), archived)
	// ClawVault observed the first line while the file was old1.jsonl.
	first := int64(strings.Index(archived, "\n") + 1)
	cs := model.NewCursorStore()
	cs.Set("old1", model.Cursor{LastObservedOffset: float64(first), LastObservedAt: "2026-11-20T09:00:00.000Z", SessionKey: "agent:main:main", LastFileSize: float64(first)})
	if err := store.SaveCursors(store.OSWriter, f.vault, cs); err != nil {
		t.Fatal(err)
	}
	if r := f.mustSweep(SweepOptions{}); len(r.Candidates) != 0 {
		t.Fatalf("without the flag, archives are left alone: %+v", r.Candidates)
	}
	r := f.mustSweep(SweepOptions{IncludeResets: true})
	if len(r.Observed) != 1 || r.Observed[0].CursorID != name || r.Observed[0].StartOffset != first || r.Observed[0].SessionKey != "agent:main:main" {
		t.Fatalf("observed = %+v", r.Observed)
	}
	raw := f.read("ledger/raw/openclaw/2026/11/21.jsonl")
	if strings.Contains(raw, "immutable") || !strings.Contains(raw, "audit log") {
		t.Errorf("only the unobserved tail is read:\n%s", raw)
	}
	st := store.LoadCursors(store.OS, f.vault)
	if len(st.Problems) != 0 || !model.ValidSessionID(name) {
		t.Errorf("ClawVault would drop the cursor: %v", st.Problems)
	}
	if c, ok := st.Store.Get(name); !ok || c.Offset() != int64(len(archived)) {
		t.Errorf("cursor = %+v %v", c, ok)
	}
	if r := f.mustSweep(SweepOptions{IncludeResets: true}); len(r.Candidates) != 0 {
		t.Errorf("observed twice: %+v", r.Candidates)
	}
}

func TestWatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	path := f.session("agent:main:main", "w1", lines(msgLine("1", "user", "We decided to watch.")))
	tick := make(chan time.Time)
	looked := make(chan int)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		done <- Watch(ctx, WatchOptions{Sweep: SweepOptions{Workspace: f.workspace(), MinNewBytes: 1, Now: func() time.Time { return testNow }},
			Tick: tick, OnLook: func(n int, r *SweepReport, err error) {
				if err != nil {
					t.Error(err)
				}
				looked <- n
			}})
	}()
	want := []int{1, 0, 1}
	for i, w := range want {
		if i == 2 {
			fh, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			fh.WriteString(msgLine("2", "user", "Lesson learned: the heartbeat catches live sessions.") + "\n")
			fh.Close()
		}
		if i > 0 {
			tick <- testNow
		}
		if n := <-looked; n != w {
			t.Errorf("look %d saw %d candidates, want %d", i, n, w)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(f.read("ledger/raw/openclaw/2026/11/21.jsonl"), "\n"); n != 2 {
		t.Errorf("the ledger has %d lines, want 2", n)
	}
}

// A cancel while the sweep commits, when the commit can end in time (the
// clock stands still here), comes too late to stop anything: the sweep
// reports the cancel, and says that every session was recorded.
func TestSweepCancelWhileCommitting(t *testing.T) {
	f := twoSessions(t)
	r, err := sweepCancelledAtCommit(f, 0)
	if !errors.Is(err, context.Canceled) || r == nil || !r.Cancelled || len(r.Skipped) != 0 || len(r.Observed) != 2 {
		t.Fatalf("err %v, report %+v", err, r)
	}
	if !r.CancelledWhileCommitting() {
		t.Error("not reported as a cancel while committing")
	}
	var text []string
	for _, l := range r.TextLines() {
		text = append(text, l.Text)
	}
	if want := "The cancel came while the sweep was committing: all 2 sessions were recorded."; !slices.Contains(text, want) {
		t.Errorf("the report does not say %q:\n%s", want, strings.Join(text, "\n"))
	}
	if got := r.LateCancelSummary(); got != "the cancel came while the sweep was committing: all 2 sessions were recorded" {
		t.Errorf("summary %q", got)
	}
	f.checkCursorsMatchLedger()
}
