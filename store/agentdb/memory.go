package agentdb

import (
	"context"
	"database/sql"
	"fmt"

	"clawvault-tui/model/recall"
)

// IndexedSource is one memory_index_sources row: a file as the memory
// search index last saw it.
type IndexedSource struct {
	Path   string // relative to the agent's workspace, with /
	Source string // memory, sessions, …
	Hash   string // sha256 of the content, hex
	// MTimeMs is the file's mtime in milliseconds, as Node's stat reports it.
	MTimeMs float64
	Size    int64
}

// MemoryIndex is what the memory search index holds, without its text or
// embeddings.
type MemoryIndex struct {
	Present bool // the store has the tables
	Sources []IndexedSource
	// Chunks counts chunks per source kind; Models counts them per
	// embedding model.
	Chunks map[string]int
	Models map[string]int
	// Meta is memory_index_meta (provider, model, dims, …).
	Meta map[string]string
}

// MemoryIndex reads the memory search index's sources and chunk counts.
func (db *DB) MemoryIndex(ctx context.Context) (MemoryIndex, error) {
	mi := MemoryIndex{Chunks: map[string]int{}, Models: map[string]int{}, Meta: map[string]string{}}
	if !db.Layout.MemoryIndex {
		return mi, nil
	}
	mi.Present = true
	rows, err := db.db.QueryContext(ctx, `SELECT path, source, hash, mtime, size FROM memory_index_sources ORDER BY source, path`)
	if err != nil {
		return mi, db.explain(err)
	}
	for rows.Next() {
		var s IndexedSource
		if err := rows.Scan(&s.Path, &s.Source, &s.Hash, &s.MTimeMs, &s.Size); err != nil {
			rows.Close()
			return mi, db.explain(err)
		}
		mi.Sources = append(mi.Sources, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return mi, db.explain(err)
	}
	// The model and source columns come before the text and the embedding:
	// counting them reads no chunk text.
	rows, err = db.db.QueryContext(ctx, `SELECT source, model, count(*) FROM memory_index_chunks GROUP BY source, model`)
	if err != nil {
		return mi, db.explain(err)
	}
	for rows.Next() {
		var source, model string
		var n int
		if err := rows.Scan(&source, &model, &n); err != nil {
			rows.Close()
			return mi, db.explain(err)
		}
		mi.Chunks[source] += n
		mi.Models[model] += n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return mi, db.explain(err)
	}
	rows, err = db.db.QueryContext(ctx, `SELECT key, value FROM memory_index_meta`)
	if err != nil {
		return mi, nil // an older layout without it: the counts stand
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var v sql.NullString
		if rows.Scan(&k, &v) == nil {
			mi.Meta[k] = v.String
		}
	}
	// OpenClaw 2026.9 keeps the index identity as one JSON row.
	if m := recall.ParseIndexMeta(mi.Meta["memory_index_meta_v1"]); m != nil {
		mi.Meta["provider"], mi.Meta["model"] = m.Provider, m.Model
		if m.VectorDims != nil {
			mi.Meta["dims"] = fmt.Sprint(*m.VectorDims)
		}
	}
	return mi, db.explain(rows.Err())
}
