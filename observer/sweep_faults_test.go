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
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"clawvault-tui/store"
	"clawvault-tui/store/demo"
	"clawvault-tui/store/demo/demotest"
	"clawvault-tui/store/fileid"
)

// faultSpec is the demo the fault cases sweep (generated once per test
// binary; the state dir is only read, the vault copied per case).
var faultSpec = demotest.Spec{Options: demo.ScaleOptions(1, 1, testNow)}

// demoVault is the demo's vault as the fault cases copy and compare it:
// each file by its relative path, with its inode. A case's vault is the
// demo's files hard-linked (a sweep replaces files by rename, never writes
// into one, so a link keeps the demo's bytes and the sweep's versions are
// files of their own), reset between cases by relinking what a sweep
// replaced; a file still linked is known to hold the demo's bytes unread.
type demoVault struct {
	root   string
	inodes map[string]uint64 // rel → inode
	dirs   map[string]bool
}

func newDemoVault(t testing.TB, root string) *demoVault {
	t.Helper()
	d := &demoVault{root: root, inodes: map[string]uint64{}, dirs: map[string]bool{}}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if e.IsDir() {
			d.dirs[rel] = true
			return nil
		}
		fi, err := e.Info()
		if err == nil {
			d.inodes[rel] = fileid.Of(fi).Inode
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// reset makes dst the demo vault again: what a sweep added is removed,
// what it replaced is linked back.
func (d *demoVault) reset(dst string) error {
	var extraDirs []string
	seen := map[string]bool{}
	err := filepath.WalkDir(dst, func(p string, e fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == dst {
			return fs.SkipAll
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dst, p)
		if e.IsDir() {
			if !d.dirs[rel] {
				extraDirs = append(extraDirs, p)
			}
			return nil
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		ino, ok := d.inodes[rel]
		if ok && fileid.Of(fi).Inode == ino {
			seen[rel] = true
			return nil
		}
		return os.Remove(p)
	})
	if err != nil {
		return err
	}
	slices.Reverse(extraDirs) // deepest first
	for _, p := range extraDirs {
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	for rel := range d.dirs {
		if err := os.MkdirAll(filepath.Join(dst, rel), 0o755); err != nil {
			return err
		}
	}
	for rel := range d.inodes {
		if !seen[rel] {
			if err := os.Link(filepath.Join(d.root, rel), filepath.Join(dst, rel)); err != nil {
				return err
			}
		}
	}
	return nil
}

// tree is a vault's files by relative path: "" for a file still linked to
// the demo's (its bytes are the demo's), else its content.
func (d *demoVault) tree(root string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := e.Info()
		if err != nil {
			return err
		}
		if ino, ok := d.inodes[rel]; ok && fileid.Of(fi).Inode == ino {
			out[rel] = ""
			return nil
		}
		data, err := os.ReadFile(p)
		out[rel] = "\x00" + string(data) // never "", even for an empty file
		return err
	})
	return out, err
}

// faultyWriter counts every write operation (creating, writing, syncing,
// closing a temp file, renames, removals, folder syncs) and fails one:
// op failAt fails, and with crash every later one too, as if the process
// had died there (nothing it does afterwards reaches the disk). Temp files
// are named as a dead process's, as a killed sweep's are. Syncs are
// counted but not made: what is tested is which writes happened (fsync
// made the cases I/O-bound, a second per sweep on a busy disk).
type faultyWriter struct {
	store.WriteFS
	mu     sync.Mutex // files are staged several at a time
	ops    int
	failAt int // 1-based; 0 never fails
	crash  bool
	trace  func(op, path string)
}

type faultyTemp struct {
	*os.File
	w *faultyWriter
}

func (w *faultyWriter) step(op, path string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ops++
	if w.trace != nil {
		w.trace(op, path)
	}
	if w.failAt > 0 && (w.ops == w.failAt || w.crash && w.ops > w.failAt) {
		errno := syscall.ENOSPC
		if w.crash {
			errno = syscall.EIO
		}
		return &fs.PathError{Op: op, Path: path, Err: errno}
	}
	return nil
}

func (w *faultyWriter) CreateTemp(dir, pattern string) (store.TempFile, error) {
	if err := w.step("create", dir); err != nil {
		return nil, err
	}
	pattern = strings.Replace(pattern, "-"+strconv.Itoa(os.Getpid())+"-", "-"+strconv.Itoa(deadPID)+"-", 1)
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &faultyTemp{File: f, w: w}, nil
}

func (w *faultyWriter) Rename(oldpath, newpath string) error {
	if err := w.step("rename", newpath); err != nil {
		return err
	}
	return w.WriteFS.Rename(oldpath, newpath)
}

func (w *faultyWriter) Remove(name string) error {
	if err := w.step("remove", name); err != nil {
		return err
	}
	return w.WriteFS.Remove(name)
}

func (w *faultyWriter) MkdirAll(path string, perm fs.FileMode) error {
	if err := w.step("mkdir", path); err != nil {
		return err
	}
	return w.WriteFS.MkdirAll(path, perm)
}

func (w *faultyWriter) SyncDir(dir string) error {
	return w.step("sync", dir)
}

func (t *faultyTemp) Write(p []byte) (int, error) {
	if err := t.w.step("write", t.Name()); err != nil {
		return 0, err
	}
	return t.File.Write(p)
}

// ReadFrom keeps copies going through Write.
func (t *faultyTemp) ReadFrom(r io.Reader) (int64, error) {
	return io.Copy(struct{ io.Writer }{t}, r)
}

func (t *faultyTemp) Chmod(mode fs.FileMode) error {
	if err := t.w.step("chmod", t.Name()); err != nil {
		return err
	}
	return t.File.Chmod(mode)
}

func (t *faultyTemp) Sync() error {
	return t.w.step("sync", t.Name())
}

func (t *faultyTemp) Close() error {
	err := t.w.step("close", t.Name())
	if cerr := t.File.Close(); err == nil {
		err = cerr
	}
	return err
}

// faultSweep is a sweep of a few of the demo's sessions into a copy of its
// vault: the main agent's three smallest candidates, which write every kind
// of file (day file, category files, backlog items, the raw ledger,
// cursors, the journal) in a sweep short enough to repeat for every write.
type faultSweep struct {
	man  *demo.Manifest
	work string // the cases' vaults go here, beside the demo vault's copy
	demo *demoVault
	only []string
	// agents and minNew are the sweep's (the default agent, its
	// thresholds, when not set); seq: it moves seq cursors.
	agents []string
	minNew int64
	seq    bool
	// snap is the state dir's scan, taken once: it is only read.
	snap *store.Snapshot
}

func newFaultSweep(t *testing.T) *faultSweep {
	fs := newFaultVaults(t)
	cands := Select(fs.snap, "main", 0).Candidates
	slices.SortFunc(cands, func(a, b Candidate) int { return int(a.NewBytes - b.NewBytes) })
	for _, c := range cands[:min(3, len(cands))] {
		fs.only = append(fs.only, c.CursorID)
	}
	if len(fs.only) < 3 {
		t.Fatalf("the demo has %d candidates", len(fs.only))
	}
	return fs
}

// newFaultVaults copies the demo's vault for the cases and scans its state
// dir once.
func newFaultVaults(t *testing.T) *faultSweep {
	man := demotest.Shared(t, faultSpec)
	// The cases create and rename thousands of files: in memory (tmpfs)
	// where there is one, as the disk is shared with other builds.
	parent := ""
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		parent = "/dev/shm"
	}
	work, err := os.MkdirTemp(parent, "cvtui-faults-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(work) })
	src := filepath.Join(work, "demo-vault")
	if err := os.CopyFS(src, os.DirFS(man.VaultDir)); err != nil {
		t.Fatal(err)
	}
	fs := &faultSweep{man: man, work: work, demo: newDemoVault(t, src)}
	ws := fs.workspace(t, man.VaultDir)
	snap, err := store.Scan(context.Background(), store.OS, ws, store.ScanOptions{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	fs.snap = snap
	return fs
}

func (fs *faultSweep) workspace(t testing.TB, vault string) *store.Workspace {
	ws, err := store.Locate(store.Env{Getenv: func(string) string { return "" }, Home: "/nonexistent", Cwd: "/"},
		store.LocateOptions{StateDir: fs.man.StateDir, Vault: vault})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func (fs *faultSweep) run(t testing.TB, vault string, w store.WriteFS) (*SweepReport, error) {
	return Sweep(context.Background(), SweepOptions{Workspace: fs.workspace(t, vault), Snapshot: fs.snap, Only: fs.only, WriteFS: w,
		Agents: fs.agents, MinNewBytes: fs.minNew, Now: func() time.Time { return testNow }})
}

// A sweep that fails at any of its writes, by a full disk (that write
// fails) or a crash (that write and all later ones), then a sweep that
// runs to the end: the vault holds exactly the bytes of one sweep that
// never failed, every file of it. Before the journal carried the Markdown
// files, a failure after some of them were renamed made the rerun route
// differently (backlog items missing, extra or changed).
func TestSweepFaultAtEveryWrite(t *testing.T) {
	t.Parallel()
	faultAtEveryWrite(t, newFaultSweep(t))
}

// TestSweepFaultAtEveryWriteSQLite is the same over two sessions of the
// demo's SQLite-era agent ops, at --min-new 1: the current generation
// (events in event_json and event_zstd) and the one moved to a cold
// archive. Their seq cursors are moved by the same journaled commit, so a
// failure at any write, then a rerun, leaves the seq cursor file and the
// vault byte for byte as one clean sweep does.
func TestSweepFaultAtEveryWriteSQLite(t *testing.T) {
	t.Parallel()
	fs := newFaultVaults(t)
	fs.agents, fs.minNew, fs.seq = []string{"ops"}, 1, true
	cands, _ := SelectSQLite(fs.snap, "ops", 1)
	var warm, cold string
	for _, c := range cands {
		switch {
		case c.Seq.Cold:
			cold = c.CursorID
		case c.SessionKey == "agent:ops:main" && c.NewBytes > warmBytes(cands, warm):
			warm = c.CursorID
		}
	}
	if warm == "" || cold == "" {
		t.Fatalf("the demo's agent ops lacks a warm or a cold candidate: %+v", cands)
	}
	fs.only = []string{warm, cold}
	faultAtEveryWrite(t, fs)
}

func warmBytes(cands []Candidate, id string) int64 {
	for _, c := range cands {
		if c.CursorID == id {
			return c.NewBytes
		}
	}
	return 0
}

// faultPoint is a write operation of a clean sweep where a fault is
// injected: its index (1-based), and whether it is one of the commit's.
type faultPoint struct {
	at     int
	commit bool
}

// reference runs the clean sweep into a reference vault and returns what
// it wrote, and its fault points: the first operation of each distinct
// call stack. A fault at a later operation of the same stack (the next
// staged file's write, the next rename) goes through the same code: it is
// not run again.
func (fs *faultSweep) reference(t *testing.T) (map[string]string, []faultPoint) {
	refVault := filepath.Join(fs.work, "reference")
	if err := fs.demo.reset(refVault); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var points []faultPoint
	counter := &faultyWriter{WriteFS: store.OSWriter}
	counter.trace = func(string, string) {
		sig, commit := callStack()
		if !seen[sig] {
			seen[sig] = true
			points = append(points, faultPoint{at: counter.ops, commit: commit})
		}
	}
	if _, err := fs.run(t, refVault, counter); err != nil {
		t.Fatal(err)
	}
	want, err := fs.demo.tree(refVault)
	if err != nil {
		t.Fatal(err)
	}
	if fs.seq && want[filepath.Join(".clawvault", "clawvault-tui-seq-cursors.json")] == "" {
		t.Fatal("the clean sweep wrote no seq cursor file")
	}
	t.Logf("a clean sweep of %d sessions makes %d write operations from %d call stacks; %d files in the vault",
		len(fs.only), counter.ops, len(points), len(want))
	return want, points
}

// callStack names the code path of a write operation (the program
// counters of its callers), and says whether the sweep's commit made it.
func callStack() (sig string, commit bool) {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	var b strings.Builder
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		fmt.Fprintf(&b, "%x ", f.PC)
		// Files are staged on the commit's workers (stageAll).
		commit = commit || strings.HasSuffix(f.Function, ".(*sweeper).commit") || strings.Contains(f.Function, ".(*sweeper).stageAll.")
		if !more {
			return b.String(), commit
		}
	}
}

// runCases runs each case on one of two vaults (the cases are I/O-bound).
func (fs *faultSweep) runCases(n int, run func(i int, vault string)) {
	cases := make(chan int)
	var wg sync.WaitGroup
	for w := range 2 {
		vault := filepath.Join(fs.work, fmt.Sprint("case", w))
		wg.Go(func() {
			for i := range cases {
				run(i, vault)
			}
		})
	}
	for i := range n {
		cases <- i
	}
	close(cases)
	wg.Wait()
}

func faultAtEveryWrite(t *testing.T, fs *faultSweep) {
	want, points := fs.reference(t)
	type fault struct {
		at    int
		crash bool
	}
	var faults []fault
	for _, crash := range []bool{false, true} {
		for _, p := range points {
			faults = append(faults, fault{p.at, crash})
		}
	}
	fs.runCases(len(faults), func(i int, vault string) {
		c := faults[i]
		name := "a full disk"
		if c.crash {
			name = "a crash"
		}
		if err := fs.demo.reset(vault); err != nil {
			t.Error(err)
			return
		}
		r, err := fs.run(t, vault, &faultyWriter{WriteFS: store.OSWriter, failAt: c.at, crash: c.crash})
		// What the sweep says was left behind was (a crashed sweep says
		// nothing).
		if msg := reportText(r, err); !c.crash && (strings.Contains(msg, "rolled back") ||
			strings.Contains(msg, "temp file of the raw ledger could not be removed") != leftTemps(vault) ||
			strings.Contains(msg, "journal could not be removed") != fileExists(store.JournalFile(vault))) {
			t.Errorf("%s at write %d: the report says what was left behind wrongly:\n%s", name, c.at, msg)
		}
		if _, rerr := fs.run(t, vault, &faultyWriter{WriteFS: store.OSWriter}); rerr != nil {
			t.Errorf("%s at write %d (%v), then the rerun: %v", name, c.at, err, rerr)
			return
		}
		got, terr := fs.demo.tree(vault)
		if terr != nil {
			t.Error(terr)
			return
		}
		if diffs := diffStates(want, got); len(diffs) > 0 {
			t.Errorf("%s at write %d (%v), then a rerun: %d difference(s) from a clean sweep: %s",
				name, c.at, err, len(diffs), strings.Join(diffs[:min(len(diffs), 8)], "; "))
		}
	})
}

// A sweep crashes at a step of its commit; another observer appends a
// line to the day file; the next sweep recovers the commit. The day file
// then holds every line of the sweep and the other observer's line, every
// other file every line a clean sweep writes, and the cursors are a clean
// sweep's. Before, the recovery dropped the staged day file (2,029
// observation lines in the report) when it had changed since, and moved
// the cursors all the same.
func TestSweepRecoveryKeepsAnotherWritersLine(t *testing.T) {
	t.Parallel()
	fs := newFaultSweep(t)
	want, points := fs.reference(t)
	day := filepath.Join("ledger", "observations", testNow.Format("2006"), testNow.Format("01"), testNow.Format("02")+".md")
	if want[day] == "" {
		t.Fatalf("the clean sweep wrote no day file %s", day)
	}
	const foreign = "- [fact|c=0.90|i=0.40] 23:59 Written by another observer while the sweep was down"
	var steps []int
	for _, p := range points {
		if p.commit {
			steps = append(steps, p.at)
		}
	}
	fs.runCases(len(steps), func(i int, vault string) {
		at := steps[i]
		if err := fs.demo.reset(vault); err != nil {
			t.Error(err)
			return
		}
		_, err := fs.run(t, vault, &faultyWriter{WriteFS: store.OSWriter, failAt: at, crash: true})
		if err := appendUnlinked(filepath.Join(vault, day), foreign+"\n"); err != nil {
			t.Error(err)
			return
		}
		if _, rerr := fs.run(t, vault, &faultyWriter{WriteFS: store.OSWriter}); rerr != nil {
			t.Errorf("a crash at write %d (%v), then the rerun: %v", at, err, rerr)
			return
		}
		got, terr := fs.demo.tree(vault)
		if terr != nil {
			t.Error(terr)
			return
		}
		if lost := lostLines(want, got, day, foreign); len(lost) > 0 {
			t.Errorf("a crash at write %d (%v), a line appended to the day file, then a rerun: %d line(s) lost: %s",
				at, err, len(lost), strings.Join(lost[:min(len(lost), 6)], "; "))
		}
	})
}

// A journal written before the commit recorded its operations (version 3)
// cannot merge: the recovery drops the changed file's staged version and
// moves no cursor, so the next sweep observes the sessions again and
// merges them live. Nothing is lost either way.
func TestSweepRecoveryOfAnOlderJournal(t *testing.T) {
	t.Parallel()
	fs := newFaultSweep(t)
	want, points := fs.reference(t)
	day := filepath.Join("ledger", "observations", testNow.Format("2006"), testNow.Format("01"), testNow.Format("02")+".md")
	const foreign = "- [fact|c=0.90|i=0.40] 23:59 Written by another observer while the sweep was down"
	vault := filepath.Join(fs.work, "older")
	if err := fs.demo.reset(vault); err != nil {
		t.Fatal(err)
	}
	// The first crash of the commit that leaves a journal (at the day
	// file's rename).
	crashed := false
	for _, p := range points {
		if !p.commit || crashed {
			continue
		}
		if err := fs.demo.reset(vault); err != nil {
			t.Fatal(err)
		}
		fs.run(t, vault, &faultyWriter{WriteFS: store.OSWriter, failAt: p.at, crash: true})
		crashed = fileExists(store.JournalFile(vault))
	}
	if !crashed {
		t.Fatal("no crash left a journal")
	}
	data, err := os.ReadFile(store.JournalFile(vault))
	if err != nil {
		t.Fatal(err)
	}
	var j map[string]any
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	j["version"] = 3
	for _, f := range j["files"].([]any) {
		delete(f.(map[string]any), "ops")
	}
	if data, err = json.Marshal(j); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(store.JournalFile(vault), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := appendUnlinked(filepath.Join(vault, day), foreign+"\n"); err != nil {
		t.Fatal(err)
	}
	r, err := fs.run(t, vault, &faultyWriter{WriteFS: store.OSWriter})
	if err != nil {
		t.Fatal(err)
	}
	if r.Recovered == nil || len(r.Recovered.Redo) == 0 || len(r.Observed) == 0 {
		t.Errorf("the older journal's sessions were not observed again: %+v", r.Recovered)
	}
	got, err := fs.demo.tree(vault)
	if err != nil {
		t.Fatal(err)
	}
	if lost := lostLines(want, got, day, foreign); len(lost) > 0 {
		t.Errorf("%d line(s) lost: %s", len(lost), strings.Join(lost[:min(len(lost), 6)], "; "))
	}
}

// appendUnlinked appends to a file of a case's vault as another writer
// would, without writing into the demo's file it may be a link to.
func appendUnlinked(path, s string) error {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.WriteFile(path, append(data, s...), 0o644)
}

// lostLines lists what a recovered vault (got) lost of a clean sweep's
// (want) and of the foreign line in day: a line of a file of want not in
// got's file, the foreign line missing, cursor files that differ, or a
// journal or temp file left.
func lostLines(want, got map[string]string, day, foreign string) []string {
	var lost []string
	for rel, w := range want {
		g, ok := got[rel]
		switch {
		case !ok:
			lost = append(lost, rel+" is gone")
		case strings.HasSuffix(rel, "cursors.json") && g != w:
			lost = append(lost, rel+" differs")
		case w != "" && g == "":
			lost = append(lost, rel+": the sweep's version is not in place")
		case w != "":
			have := map[string]bool{}
			for _, l := range strings.Split(strings.TrimPrefix(g, "\x00"), "\n") {
				have[l] = true
			}
			for _, l := range strings.Split(strings.TrimPrefix(w, "\x00"), "\n") {
				if !have[l] {
					lost = append(lost, fmt.Sprintf("%s: %q", rel, l))
				}
			}
		}
	}
	if !strings.Contains(got[day], foreign+"\n") {
		lost = append(lost, "the other observer's line in "+day)
	}
	for rel := range got {
		if _, ok := want[rel]; !ok && (isTempName(rel) || strings.Contains(rel, "journal")) {
			lost = append(lost, rel+" was left behind")
		}
	}
	return lost
}

// reportText is everything a sweep said.
func reportText(r *SweepReport, err error) string {
	var b strings.Builder
	if err != nil {
		b.WriteString(err.Error() + "\n")
	}
	if r != nil {
		for _, l := range r.TextLines() {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// leftTemps says whether temp files of ours are in the vault that no
// journal names (those are the next sweep's to finish, not leftovers).
func leftTemps(vault string) bool {
	named := ""
	if data, err := os.ReadFile(store.JournalFile(vault)); err == nil {
		named = string(data)
	}
	left := false
	filepath.WalkDir(vault, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && isTempName(p) && !strings.Contains(named, filepath.Base(p)) {
			left = true
		}
		return nil
	})
	return left
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
