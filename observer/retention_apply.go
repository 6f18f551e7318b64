package observer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"time"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/fileid"
)

// ApplyOptions steer applying a retention plan.
type ApplyOptions struct {
	// Mover does the file work (store.OSMover when nil).
	Mover store.MoveFS
	// ArchiveRoot receives a dated folder per apply ("" means
	// <state dir>/clawvault-tui-retention).
	ArchiveRoot string
	// Now names the dated folder (time.Now when zero).
	Now      time.Time
	Progress ProgressFunc
	// IncludeUnobserved moves transcripts that still hold bytes no sweep
	// has observed; by default they stay, with their rows, until a sweep
	// has observed them (a moved transcript is out of every sweep's reach).
	IncludeUnobserved bool
	// Wait is how long to wait for a sweep that holds the vault (0: not
	// at all, the *store.BusyError at once); OnWait hears once that the
	// apply waits, and for whom.
	Wait   time.Duration
	OnWait func(store.LockOwner)
	// Command names the apply in the vault's lock file.
	Command string
	// Workspace is the one the plan was made for, or the undo runs in: a
	// bare --sessions-dir folder is a place files may move from, and the
	// state dir an undo's manifest may name (besides the one it sits in).
	Workspace *store.Workspace
	// CacheDir lets the SQLite era's part of the plan be checked again
	// under the lock (without it and Workspace it is not applied).
	CacheDir string
}

// lockVault takes the vault's sweep lock for an apply or an undo: a sweep
// reads the transcripts they move and writes the ledger they archive.
// Without a vault there is no sweep to keep out.
func (opt ApplyOptions) lockVault(ctx context.Context, vault, command string) (func() error, error) {
	if vault == "" {
		return func() error { return nil }, nil
	}
	if opt.Command != "" {
		command = opt.Command
	}
	return store.LockVaultWait(ctx, vault, store.CurrentOwner(command, time.Now()), opt.Wait, opt.OnWait)
}

// DefaultArchiveRoot is where applies keep what they move, unless the
// config or a flag says otherwise: beside the agents, in the state dir
// (the same file system, so moves are renames), or beside a bare
// --sessions-dir folder.
func DefaultArchiveRoot(ws *store.Workspace) string {
	if ws.StateDirExists && !ws.SessionsDirFlag {
		return filepath.Join(ws.StateDir, "clawvault-tui-retention")
	}
	if len(ws.Agents) > 0 {
		return filepath.Join(filepath.Dir(ws.Agents[0].SessionsDir), "clawvault-tui-retention")
	}
	return filepath.Join(ws.StateDir, "clawvault-tui-retention")
}

// ApplyRetention carries out the maintenance and ledger plans: each
// sessions.json loses its removed rows (under OpenClaw's store lock; the
// old file is kept in the archive folder), every file a maintenance plan
// removes moves into a dated archive folder, and every ledger day file
// moves where `clawvault archive` puts it. Nothing is deleted. The
// transcript plan is not applied: rewriting a transcript OpenClaw writes
// to, under ClawVault's byte cursors, is not safe to do from outside.
//
// All checks run before the first change: a file that changed since the
// plan, a transcript a run is writing, a store another process holds or
// rewrote, a destination that exists, each stop the apply with nothing
// done. The manifest is written before the first change and after the
// last; an apply that fails midway leaves a "partial" manifest that undo
// reads like any other.
func ApplyRetention(ctx context.Context, plan *model.RetentionPlan, opt ApplyOptions) (*model.RetentionManifest, string, error) {
	opt = opt.withDefaults()
	unlock, err := opt.lockVault(ctx, plan.Vault, "clawvault-tui retention --apply")
	if err != nil {
		return nil, "", err
	}
	defer unlock()
	if err := remarkUnobserved(plan, opt); err != nil {
		return nil, "", err
	}
	a := newApplyRun(plan, opt)
	a.man.Moves = append(a.man.Moves, sqliteMoves(ctx, plan, opt, a.man.ArchiveDir, a.want)...)
	if len(a.man.Stores) == 0 && len(a.man.Moves) == 0 {
		if n, b := a.man.KeptBytes(); n > 0 {
			return nil, "", fmt.Errorf("%w: the %s it would move hold %s no sweep has observed, and stay until one has (sweep first, or pass --include-unobserved)", errNothingToApply, model.Plural(n, "transcript", "transcripts"), model.Bytes(b))
		}
		return nil, "", errNothingToApply
	}
	places, err := store.ApplyPlaces(plan.StateDir, plan.Vault, opt.Workspace, a.man.ArchiveDir)
	if err == nil {
		err = places.Check(a.man)
	}
	if err != nil {
		return nil, "", err
	}
	if err := a.checkMoves(); err != nil {
		return nil, "", err
	}
	stores, release, err := a.spliceStores()
	defer release()
	if err != nil {
		return nil, "", err
	}
	return a.apply(ctx, stores, release)
}

// withDefaults fills in the real mover and the clock.
func (opt ApplyOptions) withDefaults() ApplyOptions {
	if opt.Mover == nil {
		opt.Mover = store.OSMover
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	return opt
}

// remarkUnobserved marks the plan's files again with the cursors as they
// are now: under the lock, what is observed is settled.
func remarkUnobserved(plan *model.RetentionPlan, opt ApplyOptions) error {
	if plan.Vault == "" {
		return nil
	}
	cs := store.LoadCursors(store.OS, plan.Vault)
	if cs.ReadError != nil && !opt.IncludeUnobserved {
		return fmt.Errorf("%v; without the cursors it is unknown which transcripts were observed, so nothing was applied (--include-unobserved moves them all the same)", cs.ReadError)
	}
	for _, mp := range plan.Maintenance {
		mp.MarkUnobserved(cs.Store)
	}
	return nil
}

// applyRun is one apply: its manifest, and what the plan saw of each file
// it moves.
type applyRun struct {
	m    store.MoveFS
	opt  ApplyOptions
	man  *model.RetentionManifest
	want map[string]fileid.ID // by a move's From
	path string               // the manifest's, once written
}

// newApplyRun lists in a manifest what the plans remove: the stores'
// rewrites and the moves of the maintenance plans, then the ledger's.
func newApplyRun(plan *model.RetentionPlan, opt ApplyOptions) *applyRun {
	dir := filepath.Join(opt.ArchiveRoot, model.ArchiveStamp(opt.Now))
	a := &applyRun{m: opt.Mover, opt: opt, want: map[string]fileid.ID{}, man: &model.RetentionManifest{
		Version: model.ManifestVersion, Tool: "clawvault-tui", CreatedAt: jscompat.FormatISOTime(opt.Now),
		PlannedAt: jscompat.FormatISOTime(plan.Now), Status: model.ManifestApplying,
		StateDir: plan.StateDir, Vault: plan.Vault, ArchiveDir: dir,
		Stores: []model.ManifestStore{}, Moves: []model.ManifestMove{}, CreatedDirs: []string{},
	}}
	for _, mp := range plan.Maintenance {
		a.addMaintenance(mp)
	}
	if plan.Ledger != nil {
		a.addLedger(plan.Vault, plan.Ledger)
	}
	return a
}

// addMaintenance adds a maintenance plan's store rewrite and moves. A
// transcript a sweep has not observed stays, and so does its row (and the
// row's other files): the session keeps its name until a sweep has
// observed it.
func (a *applyRun) addMaintenance(mp *model.MaintenancePlan) {
	man, dir := a.man, a.man.ArchiveDir
	heldKeys := map[string]bool{}
	for _, f := range mp.Files {
		if f.Held() {
			if a.opt.IncludeUnobserved {
				man.UnobservedMoved += f.Unobserved
			} else if f.Key != "" {
				heldKeys[f.Key] = true
			}
		}
	}
	var removed []string
	for _, k := range removedKeys(mp) {
		if !heldKeys[k] {
			removed = append(removed, k)
		}
	}
	kept := func(f model.FilePlan) bool {
		return !a.opt.IncludeUnobserved && (f.Held() || heldKeys[f.Key] && f.Key != "")
	}
	for _, f := range mp.Files {
		if kept(f) {
			man.Kept = append(man.Kept, model.ManifestKept{Agent: mp.Agent, Key: f.Key, Path: f.Path, Unobserved: f.Unobserved})
		}
	}
	if len(removed) > 0 {
		man.Stores = append(man.Stores, model.ManifestStore{
			Agent: mp.Agent, Path: mp.StorePath, Original: filepath.Join(dir, mp.Agent, filepath.Base(mp.StorePath)),
			OriginalSHA256: mp.StoreSHA256, RemovedKeys: removed,
		})
	}
	for _, f := range mp.Files {
		if kept(f) {
			continue
		}
		man.Moves = append(man.Moves, model.ManifestMove{
			Plan: "maintenance", Step: string(f.Step), Agent: mp.Agent, Key: f.Key, From: f.Path,
			To: filepath.Join(dir, mp.Agent, f.Name), Size: f.Size, ModTime: f.ModTime.UTC().Format(time.RFC3339Nano), Inode: f.Inode,
		})
		a.want[f.Path] = fileid.ID{Size: f.Size, ModTime: f.ModTime, Inode: f.Inode}
	}
}

// addLedger adds the ledger plan's moves (not those with a conflict).
func (a *applyRun) addLedger(vault string, lp *model.LedgerPlan) {
	for _, mv := range lp.Moves {
		if mv.Conflict {
			continue
		}
		from := filepath.Join(vault, filepath.FromSlash(mv.Rel))
		a.man.Moves = append(a.man.Moves, model.ManifestMove{
			Plan: "ledger", Step: "archive", From: from, To: filepath.Join(vault, filepath.FromSlash(mv.TargetRel)),
			Size: mv.Size, ModTime: mv.ModTime.UTC().Format(time.RFC3339Nano), Inode: mv.Inode,
		})
		a.want[from] = fileid.ID{Size: mv.Size, ModTime: mv.ModTime, Inode: mv.Inode}
	}
}

// checkMoves refuses, changing nothing, an apply whose archive folder
// exists, or one of whose moves would not do what the plan says: a file
// that changed since the plan, a transcript a run is writing, a
// destination that exists.
func (a *applyRun) checkMoves() error {
	if _, err := a.m.Lstat(a.man.ArchiveDir); err == nil {
		return fmt.Errorf("the archive folder %s already exists; wait a moment or pass another --archive-dir", a.man.ArchiveDir)
	}
	var problems []error
	for _, mv := range a.man.Moves {
		if err := store.CheckUnchanged(a.m, mv.From, a.want[mv.From]); err != nil {
			problems = append(problems, err)
			continue
		}
		if mv.Plan == "maintenance" {
			if err := store.InUse(a.m, mv.From); err != nil {
				problems = append(problems, err)
			}
		}
		if mv.Plan == "sqlite" && mv.Step == model.StepImportVerified {
			if err := store.InUse(a.m, mv.From); err != nil {
				problems = append(problems, err)
			}
		}
		if _, err := a.m.Lstat(mv.To); err == nil {
			problems = append(problems, fmt.Errorf("%s already exists, so %s cannot move there", mv.To, mv.From))
		}
	}
	if len(problems) > 0 {
		return applyRefused(problems)
	}
	return nil
}

// spliceStores takes OpenClaw's lock on each store the apply rewrites and
// makes its new version without the removed rows; a store another process
// holds or rewrote since the plan refuses the apply. release frees the
// locks.
func (a *applyRun) spliceStores() (stores [][]byte, release func(), err error) {
	current, release, problems := lockStores(a.m, a.man.Stores)
	stores = make([][]byte, len(a.man.Stores))
	for i, s := range a.man.Stores {
		data := current[i]
		if data == nil {
			continue
		}
		if store.SHA256Hex(data) != s.OriginalSHA256 {
			problems = append(problems, fmt.Errorf("%s changed since the plan was made (OpenClaw wrote it)", s.Path))
			continue
		}
		out, _, err := store.SpliceOutRows(data, toSet(s.RemovedKeys))
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %v", s.Path, err))
			continue
		}
		stores[i] = out
		a.man.Stores[i].WrittenSHA256 = store.SHA256Hex(out)
	}
	if len(problems) > 0 {
		return nil, release, applyRefused(problems)
	}
	return stores, release, nil
}

// apply makes the changes: the manifest first, then the stores (so that no
// row is ever left naming a transcript that moved), then the files, then
// the manifest again.
func (a *applyRun) apply(ctx context.Context, stores [][]byte, release func()) (*model.RetentionManifest, string, error) {
	man := a.man
	if err := mkdirAllRecorded(a.m, man.ArchiveDir, man); err != nil {
		return nil, "", err
	}
	a.path = filepath.Join(man.ArchiveDir, "manifest.json")
	if err := store.WriteManifest(a.m, a.path, man); err != nil {
		return nil, "", fmt.Errorf("cannot write the manifest %s: %v", a.path, err)
	}
	total := int64(len(man.Stores) + len(man.Moves))
	if err := a.writeStores(stores, total); err != nil {
		return a.fail(err)
	}
	release()
	if err := a.moveFiles(ctx, total); err != nil {
		return a.fail(err)
	}
	man.Status = model.ManifestApplied
	if err := store.WriteManifest(a.m, a.path, man); err != nil {
		return man, a.path, fmt.Errorf("everything was applied, but the manifest %s could not be updated: %v", a.path, err)
	}
	a.opt.Progress.Report(Progress{Stage: "apply", Done: total, Total: total, Unit: "files"})
	return man, a.path, nil
}

// fail records in the manifest how far the apply got (status partial).
func (a *applyRun) fail(err error) (*model.RetentionManifest, string, error) {
	a.man.Status, a.man.Error = model.ManifestPartial, err.Error()
	if werr := store.WriteManifest(a.m, a.path, a.man); werr != nil {
		err = errors.Join(err, fmt.Errorf("and the manifest could not be updated: %v", werr))
	}
	return a.man, a.path, fmt.Errorf("%w; what was done is in %s: `clawvault-tui retention --undo %s` puts it back", err, a.path, a.path)
}

// writeStores keeps each old sessions.json in the archive folder and
// writes its new version.
func (a *applyRun) writeStores(stores [][]byte, total int64) error {
	for i := range a.man.Stores {
		s := &a.man.Stores[i]
		a.opt.Progress.Report(Progress{Stage: "apply", Done: int64(i), Total: total, Unit: "files", Item: s.Path})
		if err := mkdirAllRecorded(a.m, filepath.Dir(s.Original), a.man); err != nil {
			return err
		}
		if err := store.KeepCopy(a.m, s.Path, s.Original); err != nil {
			return fmt.Errorf("cannot keep the old %s: %v", s.Path, err)
		}
		if err := store.WriteFileAtomic(a.m, s.Path, stores[i], 0o600); err != nil {
			return fmt.Errorf("cannot write %s: %v", s.Path, err)
		}
		s.Done = true
	}
	return nil
}

// moveFiles makes the moves, then syncs every folder they changed once.
func (a *applyRun) moveFiles(ctx context.Context, total int64) error {
	var dirs []string
	for i := range a.man.Moves {
		mv := &a.man.Moves[i]
		err := ctx.Err()
		if err == nil {
			a.opt.Progress.Report(Progress{Stage: "apply", Done: int64(len(a.man.Stores) + i), Total: total, Unit: "files", Item: mv.From})
			err = mkdirAllRecorded(a.m, filepath.Dir(mv.To), a.man)
		}
		if err == nil {
			err = store.MoveFile(a.m, mv.From, mv.To)
		}
		if err != nil {
			_ = store.SyncDirs(a.m, dirs)
			return err
		}
		mv.Done = true
		dirs = append(dirs, filepath.Dir(mv.To), filepath.Dir(mv.From))
	}
	return store.SyncDirs(a.m, dirs)
}

// lockStores takes OpenClaw's lock on each sessions.json and reads it: the
// store's bytes, or nil with a problem when it cannot be locked or read.
// release frees every lock taken (and may be called again).
func lockStores(m store.MoveFS, stores []model.ManifestStore) (data [][]byte, release func(), problems []error) {
	var releases []func()
	release = func() {
		for _, r := range releases {
			r()
		}
		releases = nil
	}
	data = make([][]byte, len(stores))
	for i, s := range stores {
		unlock, err := store.LockSessionStore(m, s.Path)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		releases = append(releases, unlock)
		if data[i], err = m.ReadFile(s.Path); err != nil {
			problems = append(problems, fmt.Errorf("cannot read %s: %v", s.Path, err))
		}
	}
	return data, release, problems
}

var errNothingToApply = errors.New("the plan removes nothing: there is nothing to apply")

// IsNothingToApply reports the error of an apply with nothing to do.
func IsNothingToApply(err error) bool { return errors.Is(err, errNothingToApply) }

func applyRefused(problems []error) error {
	return fmt.Errorf("nothing was applied: %w", errors.Join(problems...))
}

func removedKeys(mp *model.MaintenancePlan) []string {
	var keys []string
	for _, r := range mp.Rows {
		if r.Action != model.ActionKeep {
			keys = append(keys, r.Key)
		}
	}
	slices.Sort(keys)
	return keys
}

func toSet(keys []string) map[string]bool {
	set := make(map[string]bool, len(keys))
	for _, k := range keys {
		set[k] = true
	}
	return set
}

// mkdirAllRecorded creates dir and its missing parents, recording each
// one it created so that undo can remove them when empty.
func mkdirAllRecorded(m store.MoveFS, dir string, man *model.RetentionManifest) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := m.Lstat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if len(missing) == 0 {
		return nil
	}
	if err := m.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := len(missing) - 1; i >= 0; i-- {
		man.CreatedDirs = append(man.CreatedDirs, missing[i])
	}
	return nil
}

// UndoRetention puts back what an apply did, from its manifest: moved
// files return, each sessions.json gets its old file back. It reads where
// each file is now rather than trusting the manifest's flags, so it also
// finishes an apply that stopped halfway or crashed before its manifest
// was updated. It refuses, changing nothing, when something is in the way:
// a file back at its old place, an archived file that changed or vanished,
// a sessions.json rewritten since the apply (OpenClaw saved it: the old
// file is in the archive folder, to merge by hand).
func UndoRetention(ctx context.Context, manifestPath string, opt ApplyOptions) (*model.RetentionManifest, error) {
	opt = opt.withDefaults()
	man, manifestPath, err := store.ReadManifest(opt.Mover, manifestPath)
	if err != nil {
		return nil, err
	}
	// Before anything is done (the lock is taken in the manifest's vault):
	// a manifest can be planted, and moves only what lies in its places.
	places, err := store.UndoPlaces(man, manifestPath, opt.Workspace)
	if err == nil {
		err = places.Check(man)
	}
	if err != nil {
		return man, err
	}
	unlock, err := opt.lockVault(ctx, man.Vault, "clawvault-tui retention --undo")
	if err != nil {
		return man, err
	}
	defer unlock()
	if man.Status == model.ManifestUndone {
		return man, fmt.Errorf("%s was already undone", manifestPath)
	}
	u := &undoRun{m: opt.Mover, opt: opt, man: man, path: manifestPath}
	back, problems := u.movesBack()
	current, release, lockProblems := lockStores(u.m, man.Stores)
	defer release()
	problems = append(problems, lockProblems...)
	restore, storeProblems := u.storesBack(current)
	problems = append(problems, storeProblems...)
	if len(problems) > 0 {
		return man, fmt.Errorf("nothing was undone: %w", errors.Join(problems...))
	}
	total := int64(len(restore) + len(back))
	if err := u.restoreStores(restore, total); err != nil {
		return man, err
	}
	release()
	if err := u.moveBack(ctx, back, total); err != nil {
		return man, err
	}
	for i := len(man.CreatedDirs) - 1; i >= 0; i-- {
		// Only empty folders go; the archive folder keeps the manifest.
		_ = u.m.RemoveDir(man.CreatedDirs[i])
	}
	man.Status = model.ManifestUndone
	man.Error = ""
	if err := store.WriteManifest(u.m, manifestPath, man); err != nil {
		return man, fmt.Errorf("everything was put back, but the manifest %s could not be updated: %v", manifestPath, err)
	}
	return man, nil
}

// undoRun is one undo of the apply a manifest describes.
type undoRun struct {
	m    store.MoveFS
	opt  ApplyOptions
	man  *model.RetentionManifest
	path string // the manifest's
}

// movesBack lists the moves to put back, by where each file is now, and
// what stands in the way.
func (u *undoRun) movesBack() (back []int, problems []error) {
	m := u.m
	for i, mv := range u.man.Moves {
		mt, _ := time.Parse(time.RFC3339Nano, mv.ModTime)
		archived := store.CheckUnchanged(m, mv.To, fileid.ID{Size: mv.Size, ModTime: mt})
		_, fromErr := m.Lstat(mv.From)
		switch {
		case archived == nil && errors.Is(fromErr, fs.ErrNotExist):
			back = append(back, i)
		case fromErr == nil && !mv.Done && store.CheckUnchanged(m, mv.From, fileid.ID{Size: mv.Size, ModTime: mt}) == nil:
			// Never moved (the apply stopped before it, or crashed between
			// the link and the unlink): nothing to put back.
			if archived == nil && store.SameFile(m, mv.From, mv.To) {
				back = append(back, i) // a second name to drop
			}
		case fromErr == nil:
			problems = append(problems, fmt.Errorf("%s exists again, so the archived copy cannot return there", mv.From))
		default:
			problems = append(problems, archived)
		}
	}
	return back, problems
}

// storesBack lists the stores to restore (those the apply rewrote), given
// their current bytes, and what stands in the way.
func (u *undoRun) storesBack(current [][]byte) (restore []int, problems []error) {
	for i, s := range u.man.Stores {
		data := current[i]
		if data == nil {
			continue
		}
		switch store.SHA256Hex(data) {
		case s.OriginalSHA256:
			continue // never rewritten
		case s.WrittenSHA256:
		default:
			problems = append(problems, fmt.Errorf("%s changed since the apply (OpenClaw saved it); its old version is %s: merge the removed rows (%d) back by hand",
				s.Path, s.Original, len(s.RemovedKeys)))
			continue
		}
		if orig, err := u.m.ReadFile(s.Original); err != nil || store.SHA256Hex(orig) != s.OriginalSHA256 {
			problems = append(problems, fmt.Errorf("the kept copy %s is missing or changed", s.Original))
			continue
		}
		restore = append(restore, i)
	}
	return restore, problems
}

// restoreStores renames each kept sessions.json back: the kept copy is the
// old file itself (a hard link), so its bytes, mode and mtime return at
// once.
func (u *undoRun) restoreStores(restore []int, total int64) error {
	for n, i := range restore {
		s := &u.man.Stores[i]
		u.opt.Progress.Report(Progress{Stage: "undo", Done: int64(n), Total: total, Unit: "files", Item: s.Path})
		if err := u.m.Rename(s.Original, s.Path); err != nil {
			return undoFailed(u.m, u.path, u.man, err)
		}
		if err := u.m.SyncDir(filepath.Dir(s.Path)); err != nil {
			return undoFailed(u.m, u.path, u.man, err)
		}
		s.Done = false
	}
	return nil
}

// moveBack returns the moved files, last moved first, then syncs every
// folder it changed once.
func (u *undoRun) moveBack(ctx context.Context, back []int, total int64) error {
	var dirs []string
	done := total - int64(len(back))
	for n := len(back) - 1; n >= 0; n-- {
		mv := &u.man.Moves[back[n]]
		err := ctx.Err()
		if err == nil {
			u.opt.Progress.Report(Progress{Stage: "undo", Done: done + int64(len(back)-n), Total: total, Unit: "files", Item: mv.From})
			if store.SameFile(u.m, mv.From, mv.To) {
				err = u.m.Remove(mv.To)
			} else {
				err = store.MoveFile(u.m, mv.To, mv.From)
			}
		}
		if err != nil {
			_ = store.SyncDirs(u.m, dirs)
			return undoFailed(u.m, u.path, u.man, err)
		}
		mv.Done = false
		dirs = append(dirs, filepath.Dir(mv.From), filepath.Dir(mv.To))
	}
	if err := store.SyncDirs(u.m, dirs); err != nil {
		return undoFailed(u.m, u.path, u.man, err)
	}
	return nil
}

// undoFailed records how far an undo got (Done now marks what is still to
// undo), so that running it again finishes the job.
func undoFailed(m store.MoveFS, path string, man *model.RetentionManifest, err error) error {
	man.Status, man.Error = model.ManifestPartial, err.Error()
	if werr := store.WriteManifest(m, path, man); werr != nil {
		return errors.Join(err, fmt.Errorf("and the manifest could not be updated: %v", werr))
	}
	return fmt.Errorf("%w; run the undo again to finish it", err)
}
