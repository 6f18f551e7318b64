package agentdb

import (
	"context"
	"encoding/json"
)

// Stats are one session's transcript events as sizes: counts and UTF-8
// bytes, computed by SQLite from the stored byte counts, never from the
// bodies. Bytes count each event as the JSONL line it was or would be (its
// UTF-8 bytes and a newline), so thresholds and diagnoses meant for
// transcript files keep their meaning.
type Stats struct {
	Events int64
	Bytes  int64
	FirstSeq,
	LastSeq int64
	// PendingEvents and PendingBytes are the events after the seq given
	// for the session (all of them without one).
	PendingEvents int64
	PendingBytes  int64
}

// eventBytes is an event's JSONL-equivalent size: event_utf8_bytes (set
// for every row of a UTF-8 store since schema 23, and the decoded size of a
// compressed one), else the identity text's bytes, plus the newline.
func (db *DB) eventBytes(alias string) string {
	return "(" + db.utf8Bytes(alias) + " + 1)"
}

// utf8Bytes is an event's UTF-8 size.
func (db *DB) utf8Bytes(alias string) string {
	if db.Layout.UTF8Bytes {
		return "coalesce(" + alias + ".event_utf8_bytes, octet_length(" + alias + ".event_json))"
	}
	return "octet_length(" + alias + ".event_json)"
}

// Stats aggregates every session's events in one pass; after maps a session
// id to its last observed seq.
func (db *DB) Stats(ctx context.Context, after map[string]int64) (map[string]Stats, error) {
	if after == nil {
		after = map[string]int64{}
	}
	cursors, err := json.Marshal(after)
	if err != nil {
		return nil, err
	}
	b := db.eventBytes("e")
	rows, err := db.db.QueryContext(ctx, `WITH c(session_id, seq) AS (SELECT key, value FROM json_each(?))
SELECT e.session_id, count(*), sum(`+b+`), min(e.seq), max(e.seq),
       sum(e.seq > coalesce(c.seq, -1)), sum(CASE WHEN e.seq > coalesce(c.seq, -1) THEN `+b+` ELSE 0 END)
FROM transcript_events e LEFT JOIN c ON c.session_id = e.session_id
GROUP BY e.session_id`, string(cursors))
	if err != nil {
		return nil, db.explain(err)
	}
	defer rows.Close()
	out := map[string]Stats{}
	for rows.Next() {
		var id string
		var s Stats
		if err := rows.Scan(&id, &s.Events, &s.Bytes, &s.FirstSeq, &s.LastSeq, &s.PendingEvents, &s.PendingBytes); err != nil {
			return nil, db.explain(err)
		}
		out[id] = s
	}
	return out, db.explain(rows.Err())
}

// SessionStats aggregates one session's events (after is its last observed
// seq, or -1).
func (db *DB) SessionStats(ctx context.Context, sessionID string, after int64) (Stats, error) {
	b := db.eventBytes("e")
	var s Stats
	var first, last, n, bytes, pn, pb *int64
	err := db.db.QueryRowContext(ctx, `SELECT count(*), sum(`+b+`), min(e.seq), max(e.seq), sum(e.seq > ?2),
       sum(CASE WHEN e.seq > ?2 THEN `+b+` ELSE 0 END)
FROM transcript_events e WHERE e.session_id = ?1`, sessionID, after).Scan(&n, &bytes, &first, &last, &pn, &pb)
	if err != nil {
		return s, db.explain(err)
	}
	for _, p := range []struct {
		src *int64
		dst *int64
	}{{n, &s.Events}, {bytes, &s.Bytes}, {first, &s.FirstSeq}, {last, &s.LastSeq}, {pn, &s.PendingEvents}, {pb, &s.PendingBytes}} {
		if p.src != nil {
			*p.dst = *p.src
		}
	}
	return s, nil
}
