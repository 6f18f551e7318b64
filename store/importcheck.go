package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/transcript"
)

// leftoverFile is a JSONL transcript of an agent that has a SQLite store:
// in its sessions folder, or in the importer's archive folder.
type leftoverFile struct {
	Path      string
	SessionID string
	// Base is the name the file had in the sessions folder (the importer
	// archives <sessions>/<base> as <key>.<base>.imported-<ms>).
	Base     string
	Archived bool
	File     model.DirFile
}

// leftoverFiles lists the agent's JSONL transcripts to compare with its
// store: the live transcript names of its sessions folder, and the
// transcripts in the importer's archive folder. ids are the store's
// session ids (an archive name is split where the session id is one).
func leftoverFiles(ctx context.Context, fsys FS, a Agent, files []model.DirFile, ids map[string]bool) ([]leftoverFile, error) {
	var out []leftoverFile
	for _, f := range files {
		name := model.ClassifyFileName(f.Name)
		if !f.IsFile || f.Outside != "" || !importable(name) {
			continue
		}
		out = append(out, leftoverFile{Path: filepath.Join(a.SessionsDir, f.Name), SessionID: name.SessionID, Base: f.Name, File: f})
	}
	if a.Dir == "" {
		return out, nil
	}
	archived, err := listDir(ctx, fsys, model.ImportArchiveDir(a.Dir), false)
	if err != nil {
		return out, err
	}
	for _, f := range archived {
		base, name, ok := archivedBase(f.Name, ids)
		// archive-tier.<name> is the importer's unreferenced history
		// (backups, copies, checkpoint copies no session names): never a
		// session it imported, and protected by it; not compared.
		if !f.IsFile || !ok || strings.HasPrefix(f.Name, "archive-tier.") {
			continue
		}
		out = append(out, leftoverFile{Path: filepath.Join(model.ImportArchiveDir(a.Dir), f.Name), SessionID: name.SessionID, Base: base, Archived: true, File: f})
	}
	return out, nil
}

// importable: a live transcript name, as the importer imports them.
func importable(n model.FileName) bool {
	return !n.Compressed && n.SessionID != "" && (n.Kind == model.FilePrimary || n.Kind == model.FileTopic || n.Kind == model.FileFork)
}

// archivedBase finds the transcript name inside an archived name
// (<key>.<base>.imported-<ms>[.<n>], the key's slug may hold dots): the
// split whose session id the store has, else the shortest transcript name.
func archivedBase(name string, ids map[string]bool) (string, model.FileName, bool) {
	stem, ok := model.ImportArchiveName(name)
	if !ok {
		return "", model.FileName{}, false
	}
	var found string
	var fn model.FileName
	for i := len(stem) - 1; i > 0; i-- {
		if stem[i-1] != '.' {
			continue
		}
		base := stem[i:] + ".jsonl"
		n := model.ClassifyFileName(base)
		if !importable(n) {
			continue
		}
		if found == "" || ids[n.SessionID] && !ids[fn.SessionID] {
			found, fn = base, n
		}
	}
	return found, fn, found != ""
}

// importChecker compares an agent's leftover JSONL with its store, through
// the cache of verdicts.
type importChecker struct {
	fsys    FS
	a       Agent
	windows map[string]model.SQLiteWindow // by session id
	maxLine int64
	db      *agentdb.DB
	dbErr   error
}

// checkLeftovers compares every leftover JSONL transcript of an agent with
// its store (st, as readSQLiteStore read it). A file unchanged since its
// last check (same identity, its session unwritten since, the same byte
// cursor) is not read again: its verdict comes from the cache in
// cacheDir. cursors carries ClawVault's byte cursor of a session that has
// no seq cursor over to the store's seqs.
func checkLeftovers(ctx context.Context, fsys FS, a Agent, st *model.SQLiteStore, files []model.DirFile, cursors model.CursorState, cacheDir string, maxLine int64) ([]model.ImportCheck, error) {
	if st == nil || st.Problem != "" {
		return nil, nil
	}
	c := &importChecker{fsys: fsys, a: a, windows: map[string]model.SQLiteWindow{}, maxLine: maxLine}
	ids := map[string]bool{}
	for _, w := range st.Windows {
		if _, dup := c.windows[w.SessionID]; !dup {
			c.windows[w.SessionID] = w
		}
		ids[w.SessionID] = true
	}
	leftovers, err := leftoverFiles(ctx, fsys, a, files, ids)
	if err != nil || len(leftovers) == 0 {
		return nil, err
	}
	defer func() {
		if c.db != nil {
			c.db.Close()
		}
	}()
	cache := loadImportCache(importCacheFile(cacheDir, a.SQLitePath))
	out := make([]model.ImportCheck, 0, len(leftovers))
	for _, lf := range leftovers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cursor := int64(-1)
		if cursors.Store == nil {
			// No cursor file: nothing to carry over.
		} else if cur, ok := cursors.Store.Get(lf.SessionID); ok && !hasSeq(cursors.Seq, lf.SessionID) && ids[lf.SessionID] {
			cursor = cur.Offset()
		}
		key := importCacheKey{Path: lf.Path, File: fileIdentity(lf.File), Change: c.windows[lf.SessionID].Change, Cursor: cursor}
		ch, ok := cache.get(key)
		if !ok {
			ch = c.check(ctx, lf, cursor)
			if ch.Err == "" {
				cache.put(key, ch)
			}
		}
		out = append(out, ch)
	}
	cache.save()
	return out, nil
}

func hasSeq(s model.SeqCursorState, id string) bool { _, ok := s.Cursors[id]; return ok }

func fileIdentity(f model.DirFile) string {
	return fmt.Sprintf("%d %d %d", f.Inode, f.Size, f.ModTime.UnixNano())
}

// check compares one file with its session's events.
func (c *importChecker) check(ctx context.Context, lf leftoverFile, cursor int64) model.ImportCheck {
	fail := func(err error) model.ImportCheck {
		return model.ImportCheck{File: lf.Path, SessionID: lf.SessionID, Archived: lf.Archived, Size: lf.File.Size, ModTime: lf.File.ModTime,
			Key: c.windows[lf.SessionID].Key, Err: err.Error()}
	}
	if c.db == nil && c.dbErr == nil {
		c.db, c.dbErr = agentdb.Open(ctx, c.a.SQLitePath)
	}
	if c.dbErr != nil {
		return fail(c.dbErr)
	}
	events, err := c.db.ImportEvents(ctx, lf.SessionID, c.windows[lf.SessionID].Key, c.maxLine)
	if err != nil {
		return fail(err)
	}
	loadIDs := func(e *model.ImportEvents) error { return c.db.LoadImportIDs(ctx, e) }
	ch, err := CompareImport(ctx, c.fsys, lf.Path, c.v1Path(lf), events, loadIDs, cursor, c.maxLine)
	if err != nil {
		return fail(err)
	}
	ch.File, ch.Archived, ch.Size, ch.ModTime = lf.Path, lf.Archived, lf.File.Size, lf.File.ModTime
	return ch
}

// v1Path is the path the importer read a file from: its sessions folder,
// links resolved (it names the ids of a version-1 file's entries).
func (c *importChecker) v1Path(lf leftoverFile) string {
	dir := c.a.SessionsDir
	if real, err := RealPath(dir); err == nil {
		dir = real
	}
	return filepath.Join(dir, lf.Base)
}

// CompareImport compares the JSONL file at path with a store session's
// events, entry by entry as OpenClaw's importer stores them; a ClawVault
// byte cursor (>= 0) is carried over to the store's seqs. v1Path is the
// path a version-1 file was imported from (it names its entries' ids);
// loadIDs gives events the store's ids, when they are needed (a file of
// version 1, an entry not among the events).
func CompareImport(ctx context.Context, fsys FS, path, v1Path string, events *model.ImportEvents, loadIDs func(*model.ImportEvents) error, cursor, maxLine int64) (model.ImportCheck, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return model.ImportCheck{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return model.ImportCheck{}, err
	}
	size := fi.Size()
	plan, err := planImport(f, size, maxLine)
	if err != nil {
		return model.ImportCheck{}, err
	}
	plan.SessionID = events.SessionID
	if plan.Version < 2 {
		if err := loadIDs(events); err != nil {
			return model.ImportCheck{}, err
		}
		plan.V1Prefix = events.V1Prefix()
		if plan.V1Prefix == "" {
			plan.V1Prefix = model.ImportV1Prefix(v1Path, plan.SessionID)
		}
	}
	cmp := model.NewImportComparer(events, plan, cursor)
	n := 0
	err = transcript.ForEachLine(f, 0, size, maxLine, func(l transcript.Line) bool {
		n++
		end := int64(-1)
		if l.Terminated {
			end = l.Offset + l.Len + 1
		}
		if l.TooLong {
			cmp.TooLong(n)
		} else {
			cmp.Line(n, l.Bytes, end)
		}
		return n%4096 != 0 || ctx.Err() == nil
	})
	if err == nil {
		err = ctx.Err()
	}
	if err == nil && cmp.NeedsIDs() {
		err = loadIDs(events)
	}
	if err != nil {
		return model.ImportCheck{}, err
	}
	return cmp.Finish(), nil
}

// planImport reads the file up to its header (the first record of type
// session), as the importer plans a file: to its end for a file of
// version 1, whose compactions name kept entries by index; or to the first
// line that does not parse, where the importer stops.
func planImport(f File, size, maxLine int64) (model.ImportPlan, error) {
	plan := model.ImportPlan{HeaderIndex: -1, Version: 1}
	record := 0
	err := transcript.ForEachLine(f, 0, size, maxLine, func(l transcript.Line) bool {
		text := model.TrimJSSpaceBytes(l.Bytes)
		if l.TooLong || len(text) == 0 {
			return !l.TooLong
		}
		if !utf8.Valid(text) {
			return false
		}
		v, err := jscompat.ParseJSON(text)
		if err != nil {
			return false
		}
		if !v.Truthy() {
			return true
		}
		done := plan.PlanRecord(record, v)
		record++
		return !done
	})
	return plan, err
}
