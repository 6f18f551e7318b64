package agentdb

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"os"
	"slices"
	"strings"
)

// Space is where a store's bytes go: its file, write-ahead log and free
// pages; every table and index by the bytes of its pages, as SQLite's
// dbstat counts them; the transcripts' bytes by kind of entry and by
// session; the memory index.
type Space struct {
	Path                       string
	FileBytes, WALBytes        int64
	PageSize, Pages, FreePages int64
	// Objects are the tables and indexes, largest first.
	Objects []SpaceObject
	// Events and EventBytes are every transcript event and its UTF-8
	// bytes; ByKind splits the bytes by kind of event (eventKind), the
	// base64 data of image blocks under KindImage.
	Events, EventBytes int64
	ByKind             map[string]int64
	// Sessions are the sessions by bytes, largest first (up to the number
	// asked for).
	Sessions []SessionSpace
	Memory   MemorySpace
}

// SpaceObject is one table or index.
type SpaceObject struct {
	Name  string
	Type  string // table or index
	Table string // the table an index is of
	Bytes int64
}

// SessionSpace is one session's share.
type SessionSpace struct {
	SessionID, Key string
	Events, Bytes  int64
}

// MemorySpace is the memory search index's share: its chunks and their
// text, its full-text index, its embedding cache (bytes of every table and
// index of each, from Objects).
type MemorySpace struct {
	Chunks, ChunkTextBytes          int64
	ChunkBytes, FTSBytes, VecBytes  int64
	EmbeddingCacheRows, CacheBytes  int64
	SourceRows                      int64
	SourceBytes, OtherMemoryIndexes int64
}

// Space measures the store. Every page is read once by SQLite's dbstat,
// and every event's body once by the events' pass (largest sessions: the
// largest up to that many).
func (db *DB) Space(ctx context.Context, largest int) (*Space, error) {
	s := &Space{Path: db.Path, ByKind: map[string]int64{}}
	if fi, err := os.Stat(db.Path); err == nil {
		s.FileBytes = fi.Size()
	}
	if fi, err := os.Stat(db.Path + "-wal"); err == nil {
		s.WALBytes = fi.Size()
	}
	tx, err := db.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, db.explain(err)
	}
	defer tx.Rollback()
	for _, p := range []struct {
		pragma string
		into   *int64
	}{{"page_size", &s.PageSize}, {"page_count", &s.Pages}, {"freelist_count", &s.FreePages}} {
		if err := tx.QueryRowContext(ctx, "PRAGMA "+p.pragma).Scan(p.into); err != nil {
			return nil, db.explain(err)
		}
	}
	sessions, err := db.spacePasses(ctx, tx, s)
	if err != nil {
		return nil, err
	}
	s.Sessions = largestSessions(sessions, largest)
	if err := db.sessionKeys(ctx, tx, s.Sessions); err != nil {
		return nil, err
	}
	s.Memory, err = db.memorySpace(ctx, tx, s.Objects)
	return s, err
}

// spacePasses counts the tables' and indexes' pages and tallies the
// events, from the file itself when it can be read so, else through SQL
// (dbstat and a scan of the events).
func (db *DB) spacePasses(ctx context.Context, tx *sql.Tx, s *Space) (map[string]*SessionSpace, error) {
	raw := db.openRaw(ctx, tx)
	defer raw.Close()
	var sessions map[string]*SessionSpace
	overflow, ok := int64(-1), false
	if raw != nil {
		if sessions, overflow, ok = db.rawEventKinds(ctx, tx, raw, s); !ok {
			s.Events, s.EventBytes, s.ByKind, overflow = 0, 0, map[string]int64{}, -1
		}
	}
	var err error
	if !ok {
		if sessions, err = db.eventKinds(ctx, tx, s); err != nil {
			return nil, err
		}
	}
	if raw != nil {
		if s.Objects, err = db.rawObjectBytes(ctx, tx, raw.file, overflow); err != nil {
			s.Objects = nil
		}
	}
	if s.Objects == nil {
		if s.Objects, err = db.objectBytes(ctx, tx); err != nil {
			return nil, err
		}
	}
	return sessions, nil
}

// objectBytes is every table's and index's bytes, as dbstat sums its
// pages (aggregate=TRUE: one row a b-tree), with its type from the
// schema; largest first.
func (db *DB) objectBytes(ctx context.Context, tx *sql.Tx) ([]SpaceObject, error) {
	rows, err := tx.QueryContext(ctx, `SELECT d.name, coalesce(m.type, 'table'), coalesce(m.tbl_name, d.name), d.pgsize
FROM dbstat AS d LEFT JOIN sqlite_schema AS m ON m.name = d.name
WHERE d.aggregate = TRUE`)
	if err != nil {
		return nil, db.explain(err)
	}
	defer rows.Close()
	var out []SpaceObject
	for rows.Next() {
		var o SpaceObject
		if err := rows.Scan(&o.Name, &o.Type, &o.Table, &o.Bytes); err != nil {
			return nil, db.explain(err)
		}
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b SpaceObject) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), strings.Compare(a.Name, b.Name))
	})
	return out, db.explain(rows.Err())
}

// eventKinds reads every event once, in the table's order, adding its
// bytes to its kind (and its image data to KindImage) and to its session.
func (db *DB) eventKinds(ctx context.Context, tx *sql.Tx, s *Space) (map[string]*SessionSpace, error) {
	cols := "session_id, event_json, NULL, NULL"
	if db.Layout.Compressed {
		cols = "session_id, event_json, event_zstd, event_utf8_bytes"
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+cols+` FROM transcript_events`)
	if err != nil {
		return nil, db.explain(err)
	}
	defer rows.Close()
	sessions := map[string]*SessionSpace{}
	customs := 0
	for n := 0; rows.Next(); n++ {
		var id string
		var text, zstd sql.RawBytes
		var size sql.NullInt64
		if err := rows.Scan(&id, &text, &zstd, &size); err != nil {
			return nil, db.explain(err)
		}
		body, err := DecodeEvent(0, text, text != nil, zstd, size)
		if err != nil {
			return nil, err
		}
		kind := eventKind(body)
		if _, known := s.ByKind[kind]; !known && strings.HasPrefix(kind, "custom") {
			if customs++; customs > maxCustomKinds {
				kind = "custom:(others)"
			}
		}
		images := imageBytes(body)
		s.ByKind[kind] += int64(len(body)) - images
		if images > 0 {
			s.ByKind[KindImage] += images
		}
		s.Events++
		s.EventBytes += int64(len(body))
		ss := sessions[id]
		if ss == nil {
			ss = &SessionSpace{SessionID: id}
			sessions[id] = ss
		}
		ss.Events++
		ss.Bytes += int64(len(body))
		if n%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return sessions, db.explain(rows.Err())
}

// largestSessions are the n largest sessions, largest first.
func largestSessions(sessions map[string]*SessionSpace, n int) []SessionSpace {
	out := make([]SessionSpace, 0, len(sessions))
	for _, s := range sessions {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b SessionSpace) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), strings.Compare(a.SessionID, b.SessionID))
	})
	return out[:min(n, len(out))]
}

// sessionKeys names the sessions' keys.
func (db *DB) sessionKeys(ctx context.Context, tx *sql.Tx, sessions []SessionSpace) error {
	for i := range sessions {
		var key sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT session_key FROM session_windows WHERE session_id = ?`, sessions[i].SessionID).Scan(&key)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return db.explain(err)
		}
		sessions[i].Key = key.String
	}
	return nil
}

// memorySpace counts the memory index's rows and splits its bytes: the
// chunks' table and indexes, the full-text index's tables (FTS5 keeps
// shadow tables named after it), the vector table's, the embedding cache.
func (db *DB) memorySpace(ctx context.Context, tx *sql.Tx, objects []SpaceObject) (MemorySpace, error) {
	var m MemorySpace
	for _, o := range objects {
		switch t := o.Table; {
		case strings.HasPrefix(t, "memory_index_chunks_fts"):
			m.FTSBytes += o.Bytes
		case strings.HasPrefix(t, "memory_index_chunks_vec"):
			m.VecBytes += o.Bytes
		case t == "memory_index_chunks":
			m.ChunkBytes += o.Bytes
		case t == "memory_embedding_cache":
			m.CacheBytes += o.Bytes
		case t == "memory_index_sources":
			m.SourceBytes += o.Bytes
		case strings.HasPrefix(t, "memory_index"):
			m.OtherMemoryIndexes += o.Bytes
		}
	}
	if !db.Layout.MemoryIndex {
		return m, nil
	}
	err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(length(CAST(text AS BLOB))), 0) FROM memory_index_chunks`).Scan(&m.Chunks, &m.ChunkTextBytes)
	if err == nil {
		err = tx.QueryRowContext(ctx, `SELECT count(*) FROM memory_index_sources`).Scan(&m.SourceRows)
	}
	if err != nil {
		return m, db.explain(err)
	}
	var exists int
	if tx.QueryRowContext(ctx, `SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'memory_embedding_cache'`).Scan(&exists) == nil {
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM memory_embedding_cache`).Scan(&m.EmbeddingCacheRows); err != nil {
			return m, db.explain(err)
		}
	}
	return m, nil
}
