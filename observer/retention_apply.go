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
	m := opt.Mover
	if m == nil {
		m = store.OSMover
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	unlock, err := opt.lockVault(ctx, plan.Vault, "clawvault-tui retention --apply")
	if err != nil {
		return nil, "", err
	}
	defer unlock()
	// Under the lock, what is observed is settled: the plan's files are
	// marked again with the cursors as they are now.
	if plan.Vault != "" {
		cs := store.LoadCursors(store.OS, plan.Vault)
		if cs.ReadError != nil && !opt.IncludeUnobserved {
			return nil, "", fmt.Errorf("%v; without the cursors it is unknown which transcripts were observed, so nothing was applied (--include-unobserved moves them all the same)", cs.ReadError)
		}
		for _, mp := range plan.Maintenance {
			mp.MarkUnobserved(cs.Store)
		}
	}
	dir := filepath.Join(opt.ArchiveRoot, model.ArchiveStamp(opt.Now))
	man := &model.RetentionManifest{
		Version: model.ManifestVersion, Tool: "clawvault-tui", CreatedAt: jscompat.FormatISOTime(opt.Now),
		PlannedAt: jscompat.FormatISOTime(plan.Now), Status: model.ManifestApplying,
		StateDir: plan.StateDir, Vault: plan.Vault, ArchiveDir: dir,
		Stores: []model.ManifestStore{}, Moves: []model.ManifestMove{}, CreatedDirs: []string{},
	}
	want := map[string]fileid.ID{}
	for _, mp := range plan.Maintenance {
		// A transcript a sweep has not observed stays, and so does its
		// row (and the row's other files): the session keeps its name
		// until a sweep has observed it.
		heldKeys := map[string]bool{}
		for _, f := range mp.Files {
			if f.Held() {
				if opt.IncludeUnobserved {
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
		for _, f := range mp.Files {
			if !opt.IncludeUnobserved && (f.Held() || heldKeys[f.Key] && f.Key != "") {
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
			if !opt.IncludeUnobserved && (f.Held() || heldKeys[f.Key] && f.Key != "") {
				continue
			}
			man.Moves = append(man.Moves, model.ManifestMove{
				Plan: "maintenance", Step: string(f.Step), Agent: mp.Agent, Key: f.Key, From: f.Path,
				To: filepath.Join(dir, mp.Agent, f.Name), Size: f.Size, ModTime: f.ModTime.UTC().Format(time.RFC3339Nano), Inode: f.Inode,
			})
			want[f.Path] = fileid.ID{Size: f.Size, ModTime: f.ModTime, Inode: f.Inode}
		}
	}
	if plan.Ledger != nil {
		for _, mv := range plan.Ledger.Moves {
			if mv.Conflict {
				continue
			}
			from := filepath.Join(plan.Vault, filepath.FromSlash(mv.Rel))
			man.Moves = append(man.Moves, model.ManifestMove{
				Plan: "ledger", Step: "archive", From: from, To: filepath.Join(plan.Vault, filepath.FromSlash(mv.TargetRel)),
				Size: mv.Size, ModTime: mv.ModTime.UTC().Format(time.RFC3339Nano), Inode: mv.Inode,
			})
			want[from] = fileid.ID{Size: mv.Size, ModTime: mv.ModTime, Inode: mv.Inode}
		}
	}
	if len(man.Stores) == 0 && len(man.Moves) == 0 {
		if n, b := man.KeptBytes(); n > 0 {
			return nil, "", fmt.Errorf("%w: the %d transcript(s) it would move hold %s no sweep has observed, and stay until one has (sweep first, or pass --include-unobserved)", errNothingToApply, n, model.Bytes(b))
		}
		return nil, "", errNothingToApply
	}

	// Checks, before anything changes.
	if _, err := m.Lstat(dir); err == nil {
		return nil, "", fmt.Errorf("the archive folder %s already exists; wait a moment or pass another --archive-dir", dir)
	}
	var problems []error
	for _, mv := range man.Moves {
		if err := store.CheckUnchanged(m, mv.From, want[mv.From]); err != nil {
			problems = append(problems, err)
			continue
		}
		if mv.Plan == "maintenance" {
			if err := store.InUse(m, mv.From); err != nil {
				problems = append(problems, err)
			}
		}
		if _, err := m.Lstat(mv.To); err == nil {
			problems = append(problems, fmt.Errorf("%s already exists, so %s cannot move there", mv.To, mv.From))
		}
	}
	if len(problems) > 0 {
		return nil, "", applyRefused(problems)
	}
	current, release, lockProblems := lockStores(m, man.Stores)
	defer release()
	problems = append(problems, lockProblems...)
	stores := make([][]byte, len(man.Stores))
	for i, s := range man.Stores {
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
		man.Stores[i].WrittenSHA256 = store.SHA256Hex(out)
	}
	if len(problems) > 0 {
		return nil, "", applyRefused(problems)
	}

	// The changes: the manifest first, then the stores (so that no row is
	// ever left naming a transcript that moved), then the files.
	if err := mkdirAllRecorded(m, dir, man); err != nil {
		return nil, "", err
	}
	manifestPath := filepath.Join(dir, "manifest.json")
	if err := store.WriteManifest(m, manifestPath, man); err != nil {
		return nil, "", fmt.Errorf("cannot write the manifest %s: %v", manifestPath, err)
	}
	fail := func(err error) (*model.RetentionManifest, string, error) {
		man.Status, man.Error = model.ManifestPartial, err.Error()
		if werr := store.WriteManifest(m, manifestPath, man); werr != nil {
			err = errors.Join(err, fmt.Errorf("and the manifest could not be updated: %v", werr))
		}
		return man, manifestPath, fmt.Errorf("%w; what was done is in %s: `clawvault-tui retention --undo %s` puts it back", err, manifestPath, manifestPath)
	}
	total := int64(len(man.Stores) + len(man.Moves))
	for i := range man.Stores {
		s := &man.Stores[i]
		opt.Progress.Report(Progress{Stage: "apply", Done: int64(i), Total: total, Unit: "files", Item: s.Path})
		if err := mkdirAllRecorded(m, filepath.Dir(s.Original), man); err != nil {
			return fail(err)
		}
		if err := store.KeepCopy(m, s.Path, s.Original); err != nil {
			return fail(fmt.Errorf("cannot keep the old %s: %v", s.Path, err))
		}
		if err := store.WriteFileAtomic(m, s.Path, stores[i], 0o600); err != nil {
			return fail(fmt.Errorf("cannot write %s: %v", s.Path, err))
		}
		s.Done = true
	}
	release()
	var dirs []string
	for i := range man.Moves {
		mv := &man.Moves[i]
		err := ctx.Err()
		if err == nil {
			opt.Progress.Report(Progress{Stage: "apply", Done: int64(len(man.Stores) + i), Total: total, Unit: "files", Item: mv.From})
			err = mkdirAllRecorded(m, filepath.Dir(mv.To), man)
		}
		if err == nil {
			err = store.MoveFile(m, mv.From, mv.To)
		}
		if err != nil {
			_ = store.SyncDirs(m, dirs)
			return fail(err)
		}
		mv.Done = true
		dirs = append(dirs, filepath.Dir(mv.To), filepath.Dir(mv.From))
	}
	if err := store.SyncDirs(m, dirs); err != nil {
		return fail(err)
	}
	man.Status = model.ManifestApplied
	if err := store.WriteManifest(m, manifestPath, man); err != nil {
		return man, manifestPath, fmt.Errorf("everything was applied, but the manifest %s could not be updated: %v", manifestPath, err)
	}
	opt.Progress.Report(Progress{Stage: "apply", Done: total, Total: total, Unit: "files"})
	return man, manifestPath, nil
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
	m := opt.Mover
	if m == nil {
		m = store.OSMover
	}
	man, manifestPath, err := store.ReadManifest(m, manifestPath)
	if err != nil {
		return nil, err
	}
	unlock, err := opt.lockVault(ctx, man.Vault, "clawvault-tui retention --undo")
	if err != nil {
		return man, err
	}
	defer unlock()
	if man.Status == model.ManifestUndone {
		return man, fmt.Errorf("%s was already undone", manifestPath)
	}

	var problems []error
	var back []int // moves to put back
	for i, mv := range man.Moves {
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
	current, release, lockProblems := lockStores(m, man.Stores)
	defer release()
	problems = append(problems, lockProblems...)
	var restore []int // stores to restore
	for i, s := range man.Stores {
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
		if orig, err := m.ReadFile(s.Original); err != nil || store.SHA256Hex(orig) != s.OriginalSHA256 {
			problems = append(problems, fmt.Errorf("the kept copy %s is missing or changed", s.Original))
			continue
		}
		restore = append(restore, i)
	}
	if len(problems) > 0 {
		return man, fmt.Errorf("nothing was undone: %w", errors.Join(problems...))
	}

	total := int64(len(restore) + len(back))
	for n, i := range restore {
		s := &man.Stores[i]
		opt.Progress.Report(Progress{Stage: "undo", Done: int64(n), Total: total, Unit: "files", Item: s.Path})
		// The kept copy is the old file itself (a hard link): renaming it
		// back restores its bytes, mode and mtime at once.
		if err := m.Rename(s.Original, s.Path); err != nil {
			return man, undoFailed(m, manifestPath, man, err)
		}
		if err := m.SyncDir(filepath.Dir(s.Path)); err != nil {
			return man, undoFailed(m, manifestPath, man, err)
		}
		s.Done = false
	}
	release()
	var dirs []string
	for n := len(back) - 1; n >= 0; n-- {
		mv := &man.Moves[back[n]]
		err := ctx.Err()
		if err == nil {
			opt.Progress.Report(Progress{Stage: "undo", Done: int64(len(restore) + len(back) - n), Total: total, Unit: "files", Item: mv.From})
			if store.SameFile(m, mv.From, mv.To) {
				err = m.Remove(mv.To)
			} else {
				err = store.MoveFile(m, mv.To, mv.From)
			}
		}
		if err != nil {
			_ = store.SyncDirs(m, dirs)
			return man, undoFailed(m, manifestPath, man, err)
		}
		mv.Done = false
		dirs = append(dirs, filepath.Dir(mv.From), filepath.Dir(mv.To))
	}
	if err := store.SyncDirs(m, dirs); err != nil {
		return man, undoFailed(m, manifestPath, man, err)
	}
	for i := len(man.CreatedDirs) - 1; i >= 0; i-- {
		// Only empty folders go; the archive folder keeps the manifest.
		_ = m.RemoveDir(man.CreatedDirs[i])
	}
	man.Status = model.ManifestUndone
	man.Error = ""
	if err := store.WriteManifest(m, manifestPath, man); err != nil {
		return man, fmt.Errorf("everything was put back, but the manifest %s could not be updated: %v", manifestPath, err)
	}
	return man, nil
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
