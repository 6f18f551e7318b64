package agentdb

import (
	"context"
	"database/sql"

	"clawvault-tui/model/recall"
)

var originClasses = map[string]bool{"owner": true, "agent": true, "untrusted": true, "system": true}
var sessionKinds = map[string]bool{"interactive": true, "cron": true, "heartbeat": true, "subagent": true, "unknown": true}

// RecallMeta reads the recall metadata and provenance of chunks by id;
// a chunk missing from the result no longer exists (OpenClaw drops it).
func (m *MemIndex) RecallMeta(ctx context.Context, ids []string) (map[string]recall.Meta, error) {
	meta, prov := "NULL, NULL, NULL", "NULL, NULL, NULL, NULL"
	join := ""
	if m.Layout.RecallMeta {
		meta = "md.importance, md.triggers, md.project_key"
		join += " LEFT JOIN memory_index_chunk_recall_metadata md ON md.chunk_id = c.id"
	}
	if m.Layout.Provenance {
		prov = "p.origin_class, p.session_kind, p.observed_at, p.supersedes_key"
		join += " LEFT JOIN memory_index_chunk_provenance p ON p.chunk_id = c.id"
	}
	out := make(map[string]recall.Meta, len(ids))
	err := inChunks(uniqueTerms(ids), func(part []string, ph string) error {
		rs, err := m.tx.QueryContext(ctx, `SELECT c.id, `+meta+`, `+prov+` FROM memory_index_chunks c`+join+` WHERE c.id IN (`+ph+`)`, anys(part)...)
		if err != nil {
			return m.db.explain(err)
		}
		defer rs.Close()
		for rs.Next() {
			var id string
			var importance, observed sql.NullFloat64
			var triggers, project, origin, kind, supersedes sql.NullString
			if err := rs.Scan(&id, &importance, &triggers, &project, &origin, &kind, &observed, &supersedes); err != nil {
				return m.db.explain(err)
			}
			out[id] = recall.Meta{Importance: importanceOf(importance), Triggers: jsTrimmed(triggers),
				ProjectKey: jsTrimmed(project), Provenance: provenanceOf(origin, kind, observed, supersedes)}
		}
		return m.db.explain(rs.Err())
	})
	return out, err
}

func jsTrimmed(s sql.NullString) string {
	if !s.Valid {
		return ""
	}
	return recall.TrimJS(s.String)
}

// AllRecallMeta reads the recall metadata of every chunk: the chunks' ids
// and the two small tables beside them.
func (m *MemIndex) AllRecallMeta(ctx context.Context) (map[string]recall.Meta, error) {
	out := map[string]recall.Meta{}
	// SQLite reads the ids from their unique index, not the table.
	if err := m.eachRow(ctx, `SELECT id FROM memory_index_chunks`, func(rs *sql.Rows) error {
		var id string
		err := rs.Scan(&id)
		out[id] = recall.Meta{}
		return err
	}); err != nil {
		return nil, err
	}
	if m.Layout.RecallMeta {
		if err := m.eachRow(ctx, `SELECT chunk_id, importance, triggers, project_key FROM memory_index_chunk_recall_metadata`, func(rs *sql.Rows) error {
			var id string
			var importance sql.NullFloat64
			var triggers, project sql.NullString
			if err := rs.Scan(&id, &importance, &triggers, &project); err != nil {
				return err
			}
			if md, ok := out[id]; ok {
				md.Importance, md.Triggers, md.ProjectKey = importanceOf(importance), jsTrimmed(triggers), jsTrimmed(project)
				out[id] = md
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	if m.Layout.Provenance {
		if err := m.eachRow(ctx, `SELECT chunk_id, origin_class, session_kind, observed_at, supersedes_key FROM memory_index_chunk_provenance`, func(rs *sql.Rows) error {
			var id string
			var observed sql.NullFloat64
			var origin, kind, supersedes sql.NullString
			if err := rs.Scan(&id, &origin, &kind, &observed, &supersedes); err != nil {
				return err
			}
			if md, ok := out[id]; ok {
				md.Provenance = provenanceOf(origin, kind, observed, supersedes)
				out[id] = md
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// eachRow runs a query and hands every row to fn.
func (m *MemIndex) eachRow(ctx context.Context, q string, fn func(*sql.Rows) error) error {
	rs, err := m.tx.QueryContext(ctx, q)
	if err != nil {
		return m.db.explain(err)
	}
	defer rs.Close()
	for rs.Next() {
		if err := fn(rs); err != nil {
			return m.db.explain(err)
		}
	}
	return m.db.explain(rs.Err())
}

func importanceOf(v sql.NullFloat64) *float64 {
	if !v.Valid {
		return nil
	}
	x := v.Float64
	return &x
}

// provenanceOf is OpenClaw's decodeChunkProvenance: nil unless the
// class, kind and time are all valid.
func provenanceOf(origin, kind sql.NullString, observed sql.NullFloat64, supersedes sql.NullString) *recall.Provenance {
	if !originClasses[origin.String] || !sessionKinds[kind.String] || !observed.Valid {
		return nil
	}
	p := &recall.Provenance{OriginClass: origin.String, SessionKind: kind.String, ObservedAt: int64(observed.Float64)}
	if jsTrimmed(supersedes) != "" {
		p.SupersedesKey = supersedes.String
	}
	return p
}

// SourceMtimes reads memory_index_sources' mtime (ms) of the given paths
// of one source.
func (m *MemIndex) SourceMtimes(ctx context.Context, source string, paths []string) (map[string]float64, error) {
	out := map[string]float64{}
	err := inChunks(uniqueTerms(paths), func(part []string, ph string) error {
		rs, err := m.tx.QueryContext(ctx, `SELECT path, mtime FROM memory_index_sources WHERE source = ? AND path IN (`+ph+`)`, append([]any{source}, anys(part)...)...)
		if err != nil {
			return m.db.explain(err)
		}
		defer rs.Close()
		for rs.Next() {
			var p string
			var mt sql.NullFloat64
			if err := rs.Scan(&p, &mt); err != nil {
				return m.db.explain(err)
			}
			if mt.Valid {
				out[p] = mt.Float64
			}
		}
		return m.db.explain(rs.Err())
	})
	return out, err
}
