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
			var md recall.Meta
			if importance.Valid {
				v := importance.Float64
				md.Importance = &v
			}
			md.Triggers, md.ProjectKey = jsTrimmed(triggers), jsTrimmed(project)
			if originClasses[origin.String] && sessionKinds[kind.String] && observed.Valid {
				md.Provenance = &recall.Provenance{OriginClass: origin.String, SessionKind: kind.String,
					ObservedAt: int64(observed.Float64), SupersedesKey: jsTrimmed(supersedes)}
				if md.Provenance.SupersedesKey != "" {
					md.Provenance.SupersedesKey = supersedes.String
				}
			}
			out[id] = md
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
