package store

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"

	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
)

// readSQLiteStore reads an agent's SQLite-era store as status needs it:
// session keys, generations, and per-session sizes and pending bytes after
// each seq cursor, by aggregate queries only (no event body), plus the
// archives and the memory index's health. A store that cannot be read is a
// Problem sentence on the result, never an error of the scan.
func readSQLiteStore(ctx context.Context, fsys FS, a Agent, seq model.SeqCursorState, cacheDir string) *model.SQLiteStore {
	st := &model.SQLiteStore{Path: a.SQLitePath}
	if fi, err := fsys.Stat(a.SQLitePath); err == nil {
		st.Size, st.ModTime = fi.Size(), fi.ModTime()
	}
	if fi, err := fsys.Stat(a.SQLitePath + "-wal"); err == nil {
		st.Size += fi.Size()
		if fi.ModTime().After(st.ModTime) {
			st.ModTime = fi.ModTime()
		}
	}
	db, err := agentdb.Open(ctx, a.SQLitePath)
	if err != nil {
		st.Problem = err.Error()
		return st
	}
	defer db.Close()
	st.SchemaVersion, st.AppVersion, st.UnknownVersion = db.Meta.SchemaVersion, db.Meta.AppVersion, db.Meta.Unknown
	// The session rows and the cached counts are read at the same time, on
	// two of the pool's connections: each is a few hundred milliseconds of
	// SQLite at 10,000 sessions.
	type sessionRows struct {
		nodes   []agentdb.Node
		windows []agentdb.Window
		err     error
	}
	sessions := make(chan sessionRows, 1)
	go func() {
		var r sessionRows
		r.nodes, r.windows, r.err = db.Sessions(ctx)
		sessions <- r
	}()
	after := make(map[string]int64, len(seq.Cursors))
	for id, c := range seq.Cursors {
		after[id] = c.LastSeq
	}
	cache := ""
	if cacheDir != "" {
		cache = agentdb.StatsCacheFile(cacheDir, a.SQLitePath)
	}
	stats, _, statsErr := db.CachedStats(ctx, cache, after)
	rows := <-sessions
	nodes, windows := rows.nodes, rows.windows
	if err := cmp.Or(rows.err, statsErr); err != nil {
		st.Problem = err.Error()
		return st
	}
	// A node holds a whole session entry: size the slices once rather than
	// copy 10,000 of them through every growth.
	st.Nodes = make([]model.SQLiteNode, 0, len(nodes))
	st.Windows = make([]model.SQLiteWindow, 0, len(windows))
	for _, n := range nodes {
		var entry model.SessionEntry
		// A field of an unexpected type is skipped and named, as in
		// sessions.json.
		if problem := decodeSessionEntry(n.EntryJSON, true, &entry, nil); problem != "" {
			if st.NodeProblems == nil {
				st.NodeProblems = map[string]string{}
			}
			st.NodeProblems[n.Key] = problem
		}
		st.Nodes = append(st.Nodes, model.SQLiteNode{Key: n.Key, CurrentSessionID: n.CurrentSessionID, Entry: entry,
			EntryValid: n.EntryValid, Status: n.Status, CreatedVia: n.CreatedVia})
	}
	st.Stats = make(map[string]model.EventStats, len(stats))
	for id, s := range stats {
		st.Stats[id] = model.EventStats{Events: s.Events, Bytes: s.Bytes, LastSeq: s.LastSeq, PendingEvents: s.PendingEvents, PendingBytes: s.PendingBytes}
	}
	archives, err := db.Archives(ctx)
	if err != nil {
		st.Problem = err.Error()
		return st
	}
	cold := map[string]agentdb.Archive{}
	for _, ar := range archives {
		file := ar.File
		if ar.Kind == agentdb.ArchiveReclaimed && filepath.Base(ar.Name) == ar.Name {
			file = filepath.Join(a.SessionsDir, ar.Name)
		}
		st.Archives = append(st.Archives, model.SQLiteArchive{Kind: string(ar.Kind), SessionID: ar.SessionID, Key: ar.Key, Reason: ar.Reason,
			Name: ar.Name, Bytes: ar.StoredBytes, RawBytes: ar.RawBytes, CreatedAt: ar.CreatedAt, File: file, Generation: ar.Generation})
		if ar.Kind == agentdb.ArchiveCold {
			cold[ar.SessionID] = ar
		}
	}
	for _, w := range windows {
		mw := model.SQLiteWindow{SessionID: w.SessionID, Key: w.Key, Previous: w.PreviousSessionID, Reason: w.Reason,
			CreatedAt: w.CreatedAt, UpdatedAt: w.TranscriptUpdatedAt, EndedAt: w.EndedAt, Channel: w.Channel, ChatType: w.ChatType,
			Provider: w.ModelProvider, Model: w.Model}
		if mw.UpdatedAt.IsZero() {
			mw.UpdatedAt = w.UpdatedAt
		}
		if c, ok := cold[w.SessionID]; ok && st.Stats[w.SessionID].Events == 0 {
			mw.Cold, mw.ColdBytes, mw.ColdEvents, mw.ColdLastSeq, mw.ColdArchive = true, c.RawBytes, c.Events, c.LastSeq, c.Name
		}
		st.Windows = append(st.Windows, mw)
	}
	if mi, err := db.MemoryIndex(ctx); err == nil && mi.Present {
		h := memoryIndexHealth(fsys, a.Workspace, mi)
		st.Memory = &h
	}
	return st
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
		if data, err := fsys.ReadFile(filepath.Join(workspace, filepath.FromSlash(rel))); err == nil {
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
