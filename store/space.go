package store

import (
	"context"
	"path/filepath"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
)

// largestSessions is how many sessions `space` names.
const largestSessions = 10

// MeasureSpace measures where the bytes of each agent store of the
// workspace go (agentdb.Space), and what retention could reclaim beside
// it: its leftover JSONL transcripts that are import-verified (as the last
// status found them: their verdicts are cached, never computed here) and
// the memory reindex's orphaned temp databases (a day old at now). An
// agent without a store
// is left out; a store that cannot be read is an AgentSpace with Err.
func MeasureSpace(ctx context.Context, fsys FS, ws *Workspace, cacheDir string, now time.Time) ([]model.AgentSpace, error) {
	var out []model.AgentSpace
	for _, a := range ws.Agents {
		if a.SQLitePath == "" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := model.AgentSpace{Agent: a.ID, File: a.SQLitePath, ByKind: map[string]int64{},
			VacuumCommand: "stop the gateway, then `openclaw doctor --session-sqlite compact --session-sqlite-agent " + a.ID + "`"}
		if err := measureStore(ctx, a, &s); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			s.Err = err.Error()
			out = append(out, s)
			continue
		}
		spaceBeside(ctx, fsys, a, cacheDir, now, &s)
		out = append(out, s)
	}
	return out, nil
}

// measureStore reads the store's Space into s.
func measureStore(ctx context.Context, a Agent, s *model.AgentSpace) error {
	db, err := agentdb.Open(ctx, a.SQLitePath)
	if err != nil {
		return err
	}
	defer db.Close()
	sp, err := db.Space(ctx, largestSessions)
	if err != nil {
		return err
	}
	s.FileBytes, s.WALBytes, s.PageSize, s.Pages = sp.FileBytes, sp.WALBytes, sp.PageSize, sp.Pages
	s.FreeBytes = sp.FreePages * sp.PageSize
	s.Events, s.EventBytes, s.ByKind = sp.Events, sp.EventBytes, sp.ByKind
	for _, o := range sp.Objects {
		s.Objects = append(s.Objects, model.SpaceObject{Name: o.Name, Type: o.Type, Table: o.Table, Bytes: o.Bytes})
	}
	for _, ss := range sp.Sessions {
		s.Sessions = append(s.Sessions, model.SpaceSession{SessionID: ss.SessionID, Key: ss.Key, Events: ss.Events, Bytes: ss.Bytes})
	}
	m := sp.Memory
	s.Memory = model.SpaceMemory{Chunks: m.Chunks, ChunkTextBytes: m.ChunkTextBytes, ChunkBytes: m.ChunkBytes, FTSBytes: m.FTSBytes,
		VectorBytes: m.VecBytes, EmbeddingCacheRows: m.EmbeddingCacheRows, EmbeddingCacheBytes: m.CacheBytes, SourceBytes: m.SourceBytes,
		OtherBytes: m.OtherMemoryIndexes}
	s.Reclaim.FreeBytes = s.FreeBytes
	return nil
}

// spaceBeside fills what lies beside the store: the leftover JSONL of its
// sessions folder (verified as the last status found them) and the
// reindex temp databases.
func spaceBeside(ctx context.Context, fsys FS, a Agent, cacheDir string, now time.Time, s *model.AgentSpace) {
	files, _ := ListSessionsDir(ctx, fsys, a.SessionsDir)
	cache := loadImportCache(importCacheFile(cacheDir, a.SQLitePath))
	for _, f := range files {
		name := model.ClassifyFileName(f.Name)
		if !f.IsFile || f.Outside != "" || !importable(name) {
			continue
		}
		s.Leftovers++
		s.LeftoverBytes += f.Size
		path := filepath.Join(a.SessionsDir, f.Name)
		e, ok := cache.entries[path]
		switch {
		case !ok || e.Key.File != fileIdentity(f):
			s.Unchecked++
		case e.Check.Verdict == model.CodeImportVerified && e.Check.Err == "":
			s.Verified++
			s.VerifiedBytes += f.Size
		}
	}
	s.Reclaim.VerifiedJSONLBytes = s.VerifiedBytes
	r := reindexState(ctx, fsys, a.SQLitePath)
	if r == nil {
		return
	}
	s.ReindexTemp, s.ReindexLockHeld, s.ReindexLockUndecided = len(r.Shadows), r.LockHeld, r.LockErr
	for _, sh := range r.Shadows {
		s.ReindexBytes += sh.Bytes
	}
	for _, o := range r.Orphans(now) {
		s.Orphans++
		s.OrphanBytes += o.Bytes
	}
	s.Reclaim.OrphanReindexBytes = s.OrphanBytes
}
