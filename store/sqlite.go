package store

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
)

// maxMemoryHash is the largest memory file hashed to compare with the
// memory index (the editor reads up to 64 MiB too).
const maxMemoryHash = 64 << 20

// readSQLiteStore reads an agent's SQLite-era store as status needs it:
// session keys, generations, and per-session sizes and pending bytes after
// each seq cursor, by aggregate queries only (no event body), plus the
// archives and the memory index's health. A store that cannot be read is a
// Problem sentence on the result, never an error of the scan.
func readSQLiteStore(ctx context.Context, fsys FS, a Agent, seq model.SeqCursorState, cacheDir string) *model.SQLiteStore {
	st := &model.SQLiteStore{Path: a.SQLitePath}
	st.Size, st.ModTime = storeFilesSize(fsys, a.SQLitePath)
	db, err := agentdb.Open(ctx, a.SQLitePath)
	if err != nil {
		st.Problem = err.Error()
		return st
	}
	defer db.Close()
	st.SchemaVersion, st.AppVersion, st.UnknownVersion = db.Meta.SchemaVersion, db.Meta.AppVersion, db.Meta.Unknown
	// The session keys (the big table: a whole session entry each) are
	// read and decoded on one of the pool's connections while everything
	// else is read on another.
	type decodedNodes struct {
		nodes    []model.SQLiteNode
		problems map[string]string
		err      error
	}
	nodesDone := make(chan decodedNodes, 1)
	go func() {
		var d decodedNodes
		d.nodes, d.problems, d.err = readSQLiteNodes(ctx, db)
		nodesDone <- d
	}()
	// unreadable is the store with only the sentence saying why it could
	// not be read.
	unreadable := func(err error) *model.SQLiteStore {
		st.Problem = err.Error()
		st.Stats, st.Archives, st.Windows, st.Memory = nil, nil, nil, nil
		return st
	}
	if err := readStoreSessions(ctx, db, a, seq, cacheDir, st); err != nil {
		// The store stays open until the nodes are read.
		return unreadable(cmp.Or((<-nodesDone).err, err))
	}
	st.Reindex = reindexState(ctx, fsys, a.SQLitePath)
	if mi, err := db.MemoryIndex(ctx); err == nil && mi.Present {
		h := memoryIndexHealth(fsys, a.Workspace, mi)
		st.Memory = &h
	}
	nodes := <-nodesDone
	if nodes.err != nil {
		return unreadable(nodes.err)
	}
	st.Nodes, st.NodeProblems = nodes.nodes, nodes.problems
	return st
}

// storeFilesSize is the size of a store's database file and its
// write-ahead log, and the later of their modification times.
func storeFilesSize(fsys FS, path string) (int64, time.Time) {
	var size int64
	var mod time.Time
	if fi, err := fsys.Stat(path); err == nil {
		size, mod = fi.Size(), fi.ModTime()
	}
	if fi, err := fsys.Stat(path + "-wal"); err == nil {
		size += fi.Size()
		if fi.ModTime().After(mod) {
			mod = fi.ModTime()
		}
	}
	return size, mod
}

// readStoreSessions fills st's generations, their sizes and pending bytes
// (through the stats cache in cacheDir) and the archives.
func readStoreSessions(ctx context.Context, db *agentdb.DB, a Agent, seq model.SeqCursorState, cacheDir string, st *model.SQLiteStore) error {
	after := make(map[string]int64, len(seq.Cursors))
	for id, c := range seq.Cursors {
		after[id] = c.LastSeq
	}
	windows, err := db.Windows(ctx)
	if err != nil {
		return err
	}
	stats, _, err := db.CachedStatsOf(ctx, agentdb.StatsCacheFile(cacheDir, a.SQLitePath), windows, after)
	if err != nil {
		return err
	}
	st.Stats = make(map[string]model.EventStats, len(stats))
	for id, s := range stats {
		st.Stats[id] = model.EventStats{Events: s.Events, Bytes: s.Bytes, LastSeq: s.LastSeq, PendingEvents: s.PendingEvents, PendingBytes: s.PendingBytes}
	}
	archives, err := db.Archives(ctx)
	if err != nil {
		return err
	}
	var cold map[string]agentdb.Archive
	st.Archives, cold = storeArchives(a, archives)
	st.Windows = storeWindows(windows, st.Stats, cold)
	return nil
}

// storeArchives turns the store's archives into the model's, and returns
// the cold ones by session id.
func storeArchives(a Agent, archives []agentdb.Archive) ([]model.SQLiteArchive, map[string]agentdb.Archive) {
	var out []model.SQLiteArchive
	cold := map[string]agentdb.Archive{}
	for _, ar := range archives {
		file := ar.File
		if ar.Kind == agentdb.ArchiveReclaimed && filepath.Base(ar.Name) == ar.Name {
			file = filepath.Join(a.SessionsDir, ar.Name)
		}
		out = append(out, model.SQLiteArchive{Kind: string(ar.Kind), SessionID: ar.SessionID, Key: ar.Key, Reason: ar.Reason,
			Name: ar.Name, Bytes: ar.StoredBytes, RawBytes: ar.RawBytes, CreatedAt: ar.CreatedAt, File: file, Generation: ar.Generation})
		if ar.Kind == agentdb.ArchiveCold {
			cold[ar.SessionID] = ar
		}
	}
	return out, cold
}

// storeWindows turns the store's generations into the model's; one whose
// events moved to a cold archive is sized by the archive.
func storeWindows(windows []agentdb.Window, stats map[string]model.EventStats, cold map[string]agentdb.Archive) []model.SQLiteWindow {
	out := make([]model.SQLiteWindow, 0, len(windows))
	for _, w := range windows {
		mw := model.SQLiteWindow{SessionID: w.SessionID, Key: w.Key, Previous: w.PreviousSessionID, Reason: w.Reason,
			CreatedAt: w.CreatedAt, UpdatedAt: w.TranscriptUpdatedAt, EndedAt: w.EndedAt, Channel: w.Channel, ChatType: w.ChatType,
			Provider: w.ModelProvider, Model: w.Model, Change: w.ChangeToken()}
		if mw.UpdatedAt.IsZero() {
			mw.UpdatedAt = w.UpdatedAt
		}
		if c, ok := cold[w.SessionID]; ok && stats[w.SessionID].Events == 0 {
			mw.Cold, mw.ColdBytes, mw.ColdEvents, mw.ColdLastSeq, mw.ColdArchive = true, c.RawBytes, c.Events, c.LastSeq, c.Name
		}
		out = append(out, mw)
	}
	return out
}

// readSQLiteNodes reads every session key, each entry_json decoded as
// LoadSessionStore decodes a sessions.json row: the fields a scan reads,
// a field of an unexpected type skipped and named. Their order is the
// table's: the model finds them by key.
func readSQLiteNodes(ctx context.Context, db *agentdb.DB) ([]model.SQLiteNode, map[string]string, error) {
	var problems map[string]string
	var alloc entryAlloc
	out := make([]model.SQLiteNode, 0, db.NodeCount(ctx))
	err := db.EachNode(ctx, func(n *agentdb.Node) {
		out = append(out, model.SQLiteNode{Key: n.Key, CurrentSessionID: n.CurrentSessionID, EntryValid: n.EntryValid,
			Status: n.Status, CreatedVia: n.CreatedVia})
		if problem := decodeStatusEntry(n.EntryJSON, &out[len(out)-1].Entry, &alloc); problem != "" {
			if problems == nil {
				problems = map[string]string{}
			}
			problems[n.Key] = problem
		}
	})
	return out, problems, err
}

// memoryIndexHealth compares the memory search index with the workspace's
// memory files as OpenClaw 2026.9 lists them for it: MEMORY.md (or
// memory.md), USER.md and memory/**/*.md.
func memoryIndexHealth(fsys FS, workspace string, mi agentdb.MemoryIndex) model.MemoryIndexHealth {
	var indexed []model.IndexedFile
	for _, s := range mi.Sources {
		if s.Source == "memory" {
			indexed = append(indexed, model.IndexedFile{Rel: s.Path, Hash: s.Hash, MTimeMs: s.MTimeMs, Size: s.Size})
		}
	}
	var disk []model.DiskMemoryFile
	if files, err := WorkspaceMemory(fsys, workspace); err == nil {
		for _, f := range files {
			if f.Rel != "DREAMS.md" { // memory-core's, not the 2026.9 index's
				disk = append(disk, model.DiskMemoryFile{Rel: filepath.ToSlash(f.Rel), Size: f.Size, ModTime: f.ModTime})
			}
		}
	}
	if workspace != "" {
		if fi, err := fsys.Lstat(filepath.Join(workspace, "USER.md")); err == nil && fi.Mode().IsRegular() {
			disk = append(disk, model.DiskMemoryFile{Rel: "USER.md", Size: fi.Size(), ModTime: fi.ModTime()})
		}
	}
	hashes := map[string]string{}
	for _, rel := range model.MemoryFilesToHash(indexed, disk) {
		// A file too big to read is left unhashed: unknown, not stale.
		if data, err := readFileLimit(fsys, filepath.Join(workspace, filepath.FromSlash(rel)), maxMemoryHash); err == nil {
			// OpenClaw hashes the content read as UTF-8 text.
			sum := sha256.Sum256([]byte(strings.ToValidUTF8(string(data), "\uFFFD")))
			hashes[rel] = hex.EncodeToString(sum[:])
		}
	}
	h := model.CompareMemoryIndex(indexed, disk, hashes)
	h.Chunks = mi.Chunks["memory"]
	h.Models = mi.Models
	h.Provider, h.Model = mi.Meta["provider"], mi.Meta["model"]
	return h
}
