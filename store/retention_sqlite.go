package store

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/fileid"
)

// SQLiteRetentionFiles lists what lies beside an agent's SQLite-era store
// that retention may archive (model.SQLitePlan): the transcripts of its
// sessions folder whose every entry is in the store (compared as status
// compares them, through the same cache of verdicts) and the memory
// reindex's temp databases OpenClaw would remove itself at now. What
// cannot be told is a problem sentence; nothing is planned of it. The
// vault's cursors ("" for none) key the cached verdicts as status's do.
func SQLiteRetentionFiles(ctx context.Context, fsys FS, a Agent, vault, cacheDir string, maxLine int64, now time.Time) (files []model.SQLiteFile, problems []string) {
	if a.SQLitePath == "" {
		return nil, nil
	}
	var cursors model.CursorState
	if vault != "" {
		cursors = LoadCursors(fsys, vault)
		cursors.Seq = LoadSeqCursors(fsys, vault)
	}
	verified, err := verifiedLeftovers(ctx, fsys, a, cursors, cacheDir, maxLine)
	if err != nil {
		problems = append(problems, fmt.Sprintf("agent %s: its leftover JSONL was not compared with %s: %v", a.ID, a.SQLitePath, err))
	}
	files = append(files, verified...)
	r := reindexState(ctx, fsys, a.SQLitePath)
	if r != nil && r.LockErr != "" {
		problems = append(problems, fmt.Sprintf("agent %s: whether a reindex holds %s cannot be told (%s): its temp databases stay", a.ID, r.Lock, r.LockErr))
	}
	for _, s := range r.Orphans(now) {
		for _, p := range s.Files {
			fi, err := fsys.Lstat(p)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			id := fileid.Of(fi)
			files = append(files, model.SQLiteFile{Agent: a.ID, Step: model.StepReindexOrphan, Path: p, Size: id.Size, ModTime: id.ModTime, Inode: id.Inode,
				Why: fmt.Sprintf("a temp database of a memory reindex no OpenClaw process runs (no one holds %s), last written %s ago", filepath.Base(r.Lock), model.Ago(now.Sub(s.ModTime)))})
		}
	}
	return files, problems
}

// verifiedLeftovers are the transcripts of the agent's sessions folder
// whose every entry is in its store.
func verifiedLeftovers(ctx context.Context, fsys FS, a Agent, cursors model.CursorState, cacheDir string, maxLine int64) ([]model.SQLiteFile, error) {
	listing, err := ListSessionsDir(ctx, fsys, a.SessionsDir)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(listing, func(f model.DirFile) bool { return importable(model.ClassifyFileName(f.Name)) }) {
		return nil, nil // nothing to compare: the store is not opened
	}
	db, err := agentdb.Open(ctx, a.SQLitePath)
	if err != nil {
		return nil, err
	}
	windows, err := db.Windows(ctx)
	db.Close()
	if err != nil {
		return nil, err
	}
	st := &model.SQLiteStore{Path: a.SQLitePath}
	for _, w := range windows {
		st.Windows = append(st.Windows, model.SQLiteWindow{SessionID: w.SessionID, Key: w.Key, Change: w.ChangeToken()})
	}
	checks, err := checkLeftovers(ctx, fsys, a, st, listing, cursors, cacheDir, maxLine)
	if err != nil {
		return nil, err
	}
	byName := map[string]model.DirFile{}
	for _, f := range listing {
		byName[f.Name] = f
	}
	var out []model.SQLiteFile
	for _, ch := range checks {
		f, ok := byName[filepath.Base(ch.File)]
		if ch.Archived || ch.Verdict != model.CodeImportVerified || ch.Err != "" || !ok {
			continue
		}
		out = append(out, model.SQLiteFile{Agent: a.ID, Step: model.StepImportVerified, Path: ch.File, Key: ch.Key, Size: f.Size, ModTime: f.ModTime, Inode: f.Inode,
			Why: fmt.Sprintf("all %d entries are in the store as session %s", ch.Entries, ch.Key)})
	}
	return out, nil
}
