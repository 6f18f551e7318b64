package observer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/demo"
	"clawvault-tui/store/demo/demotest"
	"clawvault-tui/store/fileid"
)

var retentionNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func TestMain(m *testing.M) { os.Exit(demotest.Main(m)) }

// retentionDemo is a private copy of the demo workspace (apply tests
// change it).
func retentionDemo(t *testing.T) (*demo.Manifest, *store.Workspace) {
	t.Helper()
	m := demotest.Copy(t, retentionSpec)
	return m, planWorkspace(t, m)
}

var retentionSpec = demotest.Spec{Options: demo.ScaleOptions(1, 1, retentionNow)}

// sharedRetentionDemo is the demo workspace shared by the tests that only
// plan (TestPlanRetentionChangesNothing checks that planning writes nothing).
func sharedRetentionDemo(t *testing.T) (*demo.Manifest, *store.Workspace) {
	t.Helper()
	m := demotest.Shared(t, retentionSpec)
	return m, planWorkspace(t, m)
}

// planWorkspace locates a demo's workspace, with no environment.
func planWorkspace(t *testing.T, m *demo.Manifest) *store.Workspace {
	t.Helper()
	ws, err := store.Locate(store.Env{Getenv: func(string) string { return "" }, Home: t.TempDir(), Cwd: "/"},
		store.LocateOptions{StateDir: m.StateDir, Vault: m.VaultDir})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// statState records every file under root by its identity (inode, size,
// mtime, mode): what any write changes. A refused apply or undo must
// leave it as it was; reading every byte (treeState) proves no more there.
func statState(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		id := fileid.Of(fi)
		out[path] = fmt.Sprintf("%d %d %d %v", id.Inode, id.Size, id.ModTime.UnixNano(), fi.Mode())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// treeState records every file under root: its bytes (hashed), mode and
// mtime, skipping the folders in skip.
func treeState(t *testing.T, root string, skip ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && slices.Contains(skip, path) {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		out[path] = fmt.Sprintf("%s %v %d", hex.EncodeToString(sum[:]), fi.Mode(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffStates(a, b map[string]string) []string {
	var out []string
	for p, v := range a {
		if w, ok := b[p]; !ok {
			out = append(out, "gone: "+p)
		} else if w != v {
			out = append(out, "changed: "+p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, "new: "+p)
		}
	}
	slices.Sort(out)
	return out
}

// appliedDemo is a fresh demo on which a plan was applied, and what it
// looked like before.
type appliedDemo struct {
	m       *demo.Manifest
	root    string
	archive string
	before  map[string]string
	man     *model.RetentionManifest
	path    string
}

// applyOnDemo plans on a fresh demo (mod adjusts the options) and applies
// the whole plan (unobserved transcripts too) into the state dir's archive
// folder.
func applyOnDemo(t *testing.T, mod func(*RetentionOptions)) appliedDemo {
	t.Helper()
	m, ws := retentionDemo(t)
	a := appliedDemo{m: m, root: filepath.Dir(m.StateDir), archive: filepath.Join(m.StateDir, "clawvault-tui-retention")}
	a.before = treeState(t, a.root)
	p := planDemo(t, ws, mod)
	var err error
	if a.man, a.path, err = ApplyRetention(context.Background(), p, ApplyOptions{ArchiveRoot: a.archive, Now: retentionNow.Add(time.Hour), IncludeUnobserved: true}); err != nil {
		t.Fatal(err)
	}
	return a
}

// restored reports what differs from before the apply, the archive folder
// aside.
func (a appliedDemo) restored(t *testing.T) []string {
	return diffStates(a.before, treeState(t, a.root, a.archive))
}

func planDemo(t *testing.T, ws *store.Workspace, mod ...func(*RetentionOptions)) *model.RetentionPlan {
	t.Helper()
	opt := RetentionOptions{Workspace: ws, Config: store.DefaultRetentionConfig(), Now: retentionNow}
	for _, f := range mod {
		f(&opt)
	}
	p, err := PlanRetention(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func agentPlan(p *model.RetentionPlan, agent string) *model.MaintenancePlan {
	for _, m := range p.Maintenance {
		if m.Agent == agent {
			return m
		}
	}
	return nil
}

func rowAction(m *model.MaintenancePlan, key string) model.RowAction {
	for _, r := range m.Rows {
		if r.Key == key {
			return r.Action
		}
	}
	return ""
}

func TestPlanRetentionChangesNothing(t *testing.T) {
	t.Parallel()
	m, ws := sharedRetentionDemo(t)
	root := filepath.Dir(m.StateDir)
	before := treeState(t, root)
	var mu sync.Mutex
	stages := map[string]bool{}
	p := planDemo(t, ws, func(o *RetentionOptions) {
		o.FixMissing = true
		o.Transcripts.MaxAgeDays = ptr(7)
		o.Progress = func(pr Progress) {
			mu.Lock()
			defer mu.Unlock()
			stages[pr.Stage] = true
			if pr.Total > 0 && pr.Done > pr.Total {
				t.Errorf("progress past its total: %+v", pr)
			}
		}
	})
	if d := diffStates(before, treeState(t, root)); len(d) > 0 {
		t.Fatalf("a dry run changed the workspace: %v", d)
	}
	for _, s := range []string{"maintenance", "transcripts", "ledger"} {
		if !stages[s] {
			t.Errorf("no progress for %s (%v)", s, stages)
		}
	}

	// What the demo holds: stale rows, old archives, a missing transcript,
	// cron runs past their retention, a heartbeat-heavy transcript, old
	// ledger days.
	main := agentPlan(p, "main")
	if main == nil || main.Pruned < 5 || main.Missing != 1 || main.CronPruned == 0 {
		t.Fatalf("main: pruned %d, missing %d, cron %d", main.Pruned, main.Missing, main.CronPruned)
	}
	for _, c := range m.StaleRows {
		if got := rowAction(agentPlan(p, c.Agent), c.Key); got != model.ActionPruneStale {
			t.Errorf("stale row %s: %s", c.Key, got)
		}
	}
	if got := rowAction(main, m.MissingFile.Key); got != model.ActionPruneMissing {
		t.Errorf("missing-file row: %s", got)
	}
	steps := map[string]model.FileStep{}
	for _, f := range main.Files {
		steps[f.Path] = f.Step
	}
	if steps[m.OldReset.File] != model.StepExpireReset || steps[m.OldDeleted.File] != model.StepExpireDeleted {
		t.Errorf("old archives: %v / %v", steps[m.OldReset.File], steps[m.OldDeleted.File])
	}
	var hb *model.TranscriptPlan
	for _, tp := range p.Transcripts {
		if tp.File == m.Heartbeat.File {
			hb = tp
		}
	}
	if hb == nil || hb.DropBytes() < hb.Size*9/10 || hb.Drops[model.DropHeartbeat].Entries == 0 || hb.Cursor == nil || !hb.Cursor.Invalidated {
		t.Errorf("heartbeat transcript: %+v", hb)
	}
	if p.Ledger == nil || p.Ledger.Archived() == 0 || p.Reflect.Archived() != p.Ledger.Archived() {
		t.Errorf("ledger: %+v", p.Ledger)
	}
}

func ptr[T any](v T) *T { return &v }

func TestPlanRetentionBudgetAndActiveKey(t *testing.T) {
	t.Parallel()
	m, ws := sharedRetentionDemo(t)
	pressure := func(o *RetentionOptions) {
		o.Maintenance.MaxDiskBytes = model.Setting{Value: "16mb", Source: "test"}
		o.Maintenance.HighWaterBytes = model.Setting{Value: "14mb", Source: "test"}
	}
	// Without an active key the budget evicts the 14 MiB main session too,
	// though it is the newest: alone it is over the high-water mark.
	p := planDemo(t, ws, pressure)
	if got := rowAction(agentPlan(p, "main"), m.MainNeverObserved.Key); got != model.ActionEvictBudget {
		t.Errorf("main session without --active-key: %s", got)
	}
	// With it, never.
	p = planDemo(t, ws, pressure, func(o *RetentionOptions) { o.ActiveKey = m.MainNeverObserved.Key })
	main := agentPlan(p, "main")
	if got := rowAction(main, m.MainNeverObserved.Key); got != model.ActionKeep {
		t.Errorf("the active key under pressure: %s", got)
	}
	// Everything else went, and the folder is still over the mark: the
	// budget stops short rather than take the active session.
	if b := main.Budget; b == nil || !b.OverBudget || b.RemovedEntries != main.BeforeCount-main.Pruned-1 || b.TotalBytesAfter <= b.HighWaterBytes {
		t.Errorf("budget: %+v", b)
	}
	if !slices.ContainsFunc(main.Rows, func(r model.RowPlan) bool { return r.Key == m.MainNeverObserved.Key && r.Protected }) {
		t.Error("the active row is not marked protected")
	}
}

func TestPlanRetentionSettingsErrors(t *testing.T) {
	t.Parallel()
	// The shared demo, read through a config file of the test's own.
	_, shared := sharedRetentionDemo(t)
	ws := *shared
	cfg := filepath.Join(t.TempDir(), "openclaw.json")
	ws.ConfigPath = cfg
	for data, want := range map[string]string{
		`{"session": {"maintenance": {"highWaterBytes": "80%", "maxDiskBytes": "2gb"}}}`: `highWaterBytes "80%" is not a size`,
		`{"session": {"maintenance": {"maxEntries": "500"}}}`:                            "session.maintenance.maxEntries is",
		`{"session": {"maintenance": {"mode": "delete"}}}`:                               `"delete" must be warn or enforce`,
		`{"session": `: "does not parse",
	} {
		if err := os.WriteFile(cfg, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := PlanRetention(context.Background(), RetentionOptions{Workspace: &ws, Now: retentionNow})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), cfg) {
			t.Errorf("%s: err = %v, want %q naming the file", data, err, want)
		}
	}
	// A flag with a bad value names the flag.
	os.WriteFile(cfg, []byte(`{}`), 0o644)
	_, err := PlanRetention(context.Background(), RetentionOptions{Workspace: &ws, Now: retentionNow, SkipTranscripts: true,
		Maintenance: model.MaintenanceSettings{PruneAfter: model.Setting{Value: "soon", Source: "--prune-after"}}})
	if err == nil || !strings.Contains(err.Error(), "--prune-after") {
		t.Errorf("bad flag: %v", err)
	}
	// An unreadable config (a folder where the file should be) is one sentence.
	os.Remove(cfg)
	os.Mkdir(cfg, 0o755)
	if _, err := PlanRetention(context.Background(), RetentionOptions{Workspace: &ws, Now: retentionNow}); err == nil || !strings.Contains(err.Error(), "cannot read") {
		t.Errorf("unreadable config: %v", err)
	}
}

func TestApplyThenUndoRestoresEveryByte(t *testing.T) {
	t.Parallel()
	a := applyOnDemo(t, func(o *RetentionOptions) { o.FixMissing = true })
	man, path, before, root, archive := a.man, a.path, a.before, a.root, a.archive
	ws := planWorkspace(t, a.m)
	if man.Status != model.ManifestApplied || len(man.Stores) != 2 || len(man.Moves) == 0 {
		t.Fatalf("manifest: %+v", man)
	}
	for _, mv := range man.Moves {
		if _, err := os.Lstat(mv.From); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is still in place", mv.From)
		}
		if _, err := os.Lstat(mv.To); err != nil {
			t.Errorf("%s did not arrive: %v", mv.To, err)
		}
	}
	// Nothing was deleted: every byte is still somewhere.
	after := treeState(t, root)
	if len(after) != len(before)+1+len(man.Stores) { // + the manifest, + each kept store
		t.Errorf("%d files before, %d after", len(before), len(after))
	}
	// The maintenance the plan described is done: planning again finds
	// nothing more to remove.
	again := planDemo(t, ws, func(o *RetentionOptions) { o.FixMissing = true; o.SkipTranscripts = true })
	for _, mp := range again.Maintenance {
		if mp.WouldMutate() {
			t.Errorf("agent %s still has work after the apply: %+v", mp.Agent, mp.Files)
		}
	}
	if again.Ledger.Archived() != 0 {
		t.Errorf("ledger still has %d files to archive", again.Ledger.Archived())
	}

	if _, err := UndoRetention(context.Background(), path, ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := a.restored(t); len(d) > 0 {
		t.Fatalf("undo did not restore the workspace: %v", d)
	}
	left := treeState(t, archive)
	if len(left) != 1 || left[path] == "" {
		t.Errorf("the archive folder holds more than its manifest: %v", left)
	}
	if _, err := UndoRetention(context.Background(), path, ApplyOptions{}); err == nil || !strings.Contains(err.Error(), "already undone") {
		t.Errorf("undoing twice: %v", err)
	}
}

func TestApplyRefusesWhatChanged(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, m *demo.Manifest, p *model.RetentionPlan)
		want   string
	}{
		{"a file grew since the plan", func(t *testing.T, m *demo.Manifest, p *model.RetentionPlan) {
			appendTo(t, agentPlan(p, "main").Files[0].Path, "{}\n")
		}, "changed since the plan"},
		{"a file vanished", func(t *testing.T, m *demo.Manifest, p *model.RetentionPlan) {
			if err := os.Rename(m.OldReset.File, m.OldReset.File+".elsewhere"); err != nil {
				t.Fatal(err)
			}
		}, "is gone since the plan"},
		{"OpenClaw rewrote sessions.json", func(t *testing.T, m *demo.Manifest, p *model.RetentionPlan) {
			appendTo(t, agentPlan(p, "work").StorePath, "\n")
		}, "changed since the plan was made (OpenClaw wrote it)"},
		{"the store is locked by a live process", func(t *testing.T, m *demo.Manifest, p *model.RetentionPlan) {
			lockFile(t, agentPlan(p, "main").StorePath+".lock", os.Getpid())
		}, "is busy"},
		{"a run holds a transcript the plan moves", func(t *testing.T, m *demo.Manifest, p *model.RetentionPlan) {
			lockFile(t, agentPlan(p, "main").Files[0].Path+".lock", os.Getpid())
		}, "is in use"},
		{"a destination exists", func(t *testing.T, m *demo.Manifest, p *model.RetentionPlan) {
			mv := p.Ledger.Moves[0]
			dst := filepath.Join(m.VaultDir, mv.TargetRel)
			os.MkdirAll(filepath.Dir(dst), 0o755)
			os.WriteFile(dst, []byte("## someone else's archive\n"), 0o644)
		}, "already exists"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, ws := retentionDemo(t)
			root := filepath.Dir(m.StateDir)
			archive := filepath.Join(t.TempDir(), "archive")
			p := planDemo(t, ws, func(o *RetentionOptions) { o.SkipTranscripts = true })
			tc.change(t, m, p)
			before := statState(t, root)
			_, _, err := ApplyRetention(context.Background(), p, ApplyOptions{ArchiveRoot: archive, Now: retentionNow, IncludeUnobserved: true})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing was applied") {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if d := diffStates(before, statState(t, root)); len(d) > 0 {
				t.Errorf("a refused apply changed files: %v", d)
			}
			if _, err := os.Stat(archive); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a refused apply created %s", archive)
			}
		})
	}
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(s)
	f.Close()
}

func lockFile(t *testing.T, path string, pid int) {
	t.Helper()
	if err := os.WriteFile(path, fmt.Appendf(nil, `{"pid": %d, "createdAt": "%s"}`, pid, jscompat.FormatISOTime(time.Now())), 0o644); err != nil {
		t.Fatal(err)
	}
}

// failingMover fails every way of moving the nth file it is asked to move,
// as a full disk would.
type failingMover struct {
	store.MoveFS
	mu     sync.Mutex
	moves  int
	failAt int
	broken string
}

func (f *failingMover) fails(oldname string) bool {
	if strings.HasSuffix(oldname, "sessions.json") || isTempName(oldname) {
		return false // the store rewrite and the manifest go through
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.broken == "" {
		if f.moves++; f.moves == f.failAt {
			f.broken = oldname
		}
	}
	return oldname == f.broken
}

func (f *failingMover) Link(oldname, newname string) error {
	if f.fails(oldname) {
		return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: errors.New("no space left on device")}
	}
	return f.MoveFS.Link(oldname, newname)
}

func (f *failingMover) Rename(oldname, newname string) error {
	if oldname == f.broken {
		return errors.New("no space left on device")
	}
	return f.MoveFS.Rename(oldname, newname)
}

func TestApplyStoppedHalfwayIsUndone(t *testing.T) {
	t.Parallel()
	m, ws := retentionDemo(t)
	root := filepath.Dir(m.StateDir)
	archive := filepath.Join(m.StateDir, "clawvault-tui-retention")
	before := treeState(t, root)
	p := planDemo(t, ws, func(o *RetentionOptions) { o.SkipTranscripts = true })
	mover := &failingMover{MoveFS: store.OSMover, failAt: 4}
	man, path, err := ApplyRetention(context.Background(), p, ApplyOptions{Mover: mover, ArchiveRoot: archive, Now: retentionNow, IncludeUnobserved: true})
	if err == nil || !strings.Contains(err.Error(), "no space left") || !strings.Contains(err.Error(), "--undo") {
		t.Fatalf("err = %v", err)
	}
	if man == nil || man.Status != model.ManifestPartial {
		t.Fatalf("manifest: %+v", man)
	}
	done := 0
	for _, mv := range man.Moves {
		if mv.Done {
			done++
		}
	}
	if done != 3 {
		t.Errorf("%d moves done before the failure, want 3", done)
	}
	if _, err := UndoRetention(context.Background(), path, ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := diffStates(before, treeState(t, root, archive)); len(d) > 0 {
		t.Fatalf("undo of a partial apply: %v", d)
	}
}

func TestUndoRefusesWhatChanged(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, man *model.RetentionManifest)
		want   string
	}{
		{"a file is back at its old place", func(t *testing.T, man *model.RetentionManifest) {
			os.WriteFile(man.Moves[0].From, []byte("new\n"), 0o644)
		}, "exists again"},
		{"an archived file changed", func(t *testing.T, man *model.RetentionManifest) {
			appendTo(t, man.Moves[1].To, "x")
		}, "changed since the plan"},
		{"OpenClaw saved sessions.json since", func(t *testing.T, man *model.RetentionManifest) {
			appendTo(t, man.Stores[0].Path, "\n")
		}, "merge the removed rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := applyOnDemo(t, func(o *RetentionOptions) { o.SkipTranscripts = true })
			tc.change(t, a.man)
			before := statState(t, a.root)
			if _, err := UndoRetention(context.Background(), a.path, ApplyOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if d := diffStates(before, statState(t, a.root)); len(d) > 0 {
				t.Errorf("a refused undo changed files: %v", d)
			}
		})
	}
}

func TestApplyNothing(t *testing.T) {
	t.Parallel()
	_, ws := retentionDemo(t)
	p := planDemo(t, ws, func(o *RetentionOptions) {
		o.SkipTranscripts, o.SkipLedger = true, true
		o.Maintenance = model.MaintenanceSettings{PruneAfter: model.Setting{Value: "1000d", Source: "t"},
			ResetArchiveRetention: model.Setting{Value: "false", Source: "t"}, CronRetention: model.Setting{Value: "false", Source: "t"}}
	})
	if _, _, err := ApplyRetention(context.Background(), p, ApplyOptions{ArchiveRoot: t.TempDir()}); !IsNothingToApply(err) {
		t.Errorf("err = %v", err)
	}
}

func TestUndoAfterACrashBetweenLinkAndUnlink(t *testing.T) {
	t.Parallel()
	a := applyOnDemo(t, func(o *RetentionOptions) { o.SkipTranscripts = true })
	man, path := a.man, a.path
	// As if the process died after linking the last file into the archive,
	// before unlinking it and before updating the manifest.
	last := &man.Moves[len(man.Moves)-1]
	if err := os.Link(last.To, last.From); err != nil {
		t.Fatal(err)
	}
	last.Done, man.Status = false, model.ManifestApplying
	if err := store.WriteManifest(store.OSMover, path, man); err != nil {
		t.Fatal(err)
	}
	if _, err := UndoRetention(context.Background(), path, ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := a.restored(t); len(d) > 0 {
		t.Fatalf("undo after a crash: %v", d)
	}
}
