package agentdb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"clawvault-tui/jscompat"
	"clawvault-tui/model/recall"
)

// MemIndex is one read of an agent's memory search index, inside one read
// transaction: every query of a replayed search sees the same state of
// the file even while the gateway writes it (WAL mode keeps the
// snapshot). It writes nothing and holds no lock the writer waits for.
type MemIndex struct {
	db     *DB
	tx     *sql.Tx
	Layout MemLayout
	first  map[string]recall.PathRow
}

// MemLayout is what the index's tables look like in this file.
type MemLayout struct {
	// ChunkRowid: memory_index_chunks has chunk_rowid (schema 23; 21 has
	// id as its primary key and SQLite's rowid).
	ChunkRowid bool
	// TextEmbeddings: embeddings are JSON text (schema 21), not Float64
	// blobs (23).
	TextEmbeddings bool
	// ChunkFTS and PathFTS: the full-text tables exist.
	ChunkFTS, PathFTS bool
	// Tokenizer is the chunk FTS table's tokenizer (unicode61, trigram).
	Tokenizer string
	// VecTable: sqlite-vec's memory_index_chunks_vec exists.
	VecTable   bool
	RecallMeta bool
	Provenance bool
	Meta       bool
	State      bool
}

var tokenizeRE = jscompat.LazyRegexp(`(?i)tokenize\s*=\s*['"]([a-z0-9_]+)`)

// OpenMemIndex starts a read of the memory index. The caller closes it.
func (db *DB) OpenMemIndex(ctx context.Context) (*MemIndex, error) {
	if !db.Layout.MemoryIndex {
		return nil, fmt.Errorf("%s has no memory search index (no memory_index_chunks table): OpenClaw builds it with `openclaw memory index`", db.Path)
	}
	tx, err := db.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, db.explain(err)
	}
	m := &MemIndex{db: db, tx: tx}
	// A search reads the same FTS and chunk pages every time: 8 MiB of
	// page cache on the connection it runs on keeps them between the
	// searches of a session (Open's 256 KiB suits one-pass reads).
	if _, err := tx.ExecContext(ctx, `PRAGMA cache_size = -8192`); err != nil {
		tx.Rollback()
		return nil, db.explain(err)
	}
	if err := m.readLayout(ctx); err != nil {
		tx.Rollback()
		return nil, err
	}
	return m, nil
}

// Close ends the read.
func (m *MemIndex) Close() error { return m.tx.Rollback() }

func (m *MemIndex) readLayout(ctx context.Context) error {
	// Columns are read by name only for memory_index_chunks: asking
	// SQLite for a virtual table's columns (sqlite-vec's, whose module is
	// not loaded here) fails.
	rows, err := m.tx.QueryContext(ctx, `SELECT name, coalesce(sql, '') FROM sqlite_master WHERE type = 'table' AND name LIKE 'memory\_%' ESCAPE '\'`)
	if err != nil {
		return m.db.explain(err)
	}
	defer rows.Close()
	l := &m.Layout
	for rows.Next() {
		var name, ddl string
		if err := rows.Scan(&name, &ddl); err != nil {
			return m.db.explain(err)
		}
		l.note(name, ddl)
	}
	if err := rows.Err(); err != nil {
		return m.db.explain(err)
	}
	cols, err := m.tx.QueryContext(ctx, `SELECT name, type FROM pragma_table_info('memory_index_chunks')`)
	if err != nil {
		return m.db.explain(err)
	}
	defer cols.Close()
	for cols.Next() {
		var col, typ string
		if err := cols.Scan(&col, &typ); err != nil {
			return m.db.explain(err)
		}
		l.ChunkRowid = l.ChunkRowid || col == "chunk_rowid"
		l.TextEmbeddings = l.TextEmbeddings || (col == "embedding" && strings.EqualFold(typ, "TEXT"))
	}
	return m.db.explain(cols.Err())
}

func (l *MemLayout) note(name, ddl string) {
	switch name {
	case "memory_index_chunks_fts":
		l.ChunkFTS = true
		l.Tokenizer = "unicode61"
		if t := tokenizeRE().FindStringSubmatch(ddl); t != nil {
			l.Tokenizer = strings.ToLower(t[1])
		}
	case "memory_index_paths_fts":
		l.PathFTS = true
	case "memory_index_chunks_vec":
		l.VecTable = true
	case "memory_index_chunk_recall_metadata":
		l.RecallMeta = true
	case "memory_index_chunk_provenance":
		l.Provenance = true
	case "memory_index_meta":
		l.Meta = true
	case "memory_index_state":
		l.State = true
	}
}

// rowid is the chunks table's row key in this layout.
func (m *MemIndex) rowid() string {
	if m.Layout.ChunkRowid {
		return "chunk_rowid"
	}
	return "rowid"
}

// Meta reads memory_index_meta_v1 (nil when absent or not JSON, as
// OpenClaw reads it) and memory_vector_rebuild_v1.
func (m *MemIndex) Meta(ctx context.Context) (meta *recall.IndexMeta, vectorState string, err error) {
	if !m.Layout.Meta {
		return nil, "", nil
	}
	rows, err := m.tx.QueryContext(ctx, `SELECT key, value FROM memory_index_meta WHERE key IN ('memory_index_meta_v1', 'memory_vector_rebuild_v1')`)
	if err != nil {
		return nil, "", m.db.explain(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var v sql.NullString
		if err := rows.Scan(&k, &v); err != nil {
			return nil, "", m.db.explain(err)
		}
		switch k {
		case "memory_index_meta_v1":
			meta = recall.ParseIndexMeta(v.String)
		case "memory_vector_rebuild_v1":
			vectorState = v.String
		}
	}
	return meta, vectorState, m.db.explain(rows.Err())
}

// Revision is memory_index_state's counter: it moves on every change of
// sources or chunks (0 without the table).
func (m *MemIndex) Revision(ctx context.Context) (int64, error) {
	if !m.Layout.State {
		return 0, nil
	}
	var rev sql.NullInt64
	err := m.tx.QueryRowContext(ctx, `SELECT revision FROM memory_index_state WHERE id = 1`).Scan(&rev)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return rev.Int64, m.db.explain(err)
}

// Counts are the chunks and the semantic (non fts-only) chunks.
func (m *MemIndex) Counts(ctx context.Context) (chunks, semantic int, err error) {
	err = m.tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(model != 'fts-only'), 0) FROM memory_index_chunks`).Scan(&chunks, &semantic)
	return chunks, semantic, m.db.explain(err)
}

// sourceFilter is OpenClaw's " AND source IN (…)" for a table alias.
func sourceFilter(alias string, sources []string) (string, []any) {
	if len(sources) == 0 {
		return "", nil
	}
	col := "source"
	if alias != "" {
		col = alias + ".source"
	}
	return " AND " + col + " IN (" + placeholders(len(sources)) + ")", anys(sources)
}

// IndexedSources reads memory_index_sources (path, source, hash, mtime,
// size) of the given sources (all when empty).
func (m *MemIndex) IndexedSources(ctx context.Context, sources []string) ([]IndexedSource, error) {
	filter, args := sourceFilter("", sources)
	rows, err := m.tx.QueryContext(ctx, `SELECT path, source, hash, mtime, size FROM memory_index_sources WHERE 1=1`+filter+` ORDER BY source, path`, args...)
	if err != nil {
		return nil, m.db.explain(err)
	}
	defer rows.Close()
	var out []IndexedSource
	for rows.Next() {
		var s IndexedSource
		if err := rows.Scan(&s.Path, &s.Source, &s.Hash, &s.MTimeMs, &s.Size); err != nil {
			return nil, m.db.explain(err)
		}
		out = append(out, s)
	}
	return out, m.db.explain(rows.Err())
}

// decodeJSONNumbers reads a JSON array of numbers (schema 21's
// embeddings); nil when it is not one.
func decodeJSONNumbers(s string) []float64 {
	var v []float64
	if json.Unmarshal([]byte(s), &v) != nil {
		return nil
	}
	return v
}
