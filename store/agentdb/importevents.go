package agentdb

import (
	"context"
	"database/sql"

	"clawvault-tui/model"
	"clawvault-tui/store/jsonscan"
)

// ImportEvents reads a session's events for the check of a leftover JSONL
// file against it (model.ImportComparer): every event's digest and size.
// An event over maxBytes (<= 0: no cap) is sized, not read. key is the
// session key the store gives the session ("" for none: the store has no
// such session unless it holds events of it).
func (db *DB) ImportEvents(ctx context.Context, sessionID, key string, maxBytes int64) (*model.ImportEvents, error) {
	tx, err := db.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, db.explain(err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM transcript_events WHERE session_id = ?`, sessionID).Scan(&n); err != nil {
		return nil, db.explain(err)
	}
	out := model.NewImportEvents(sessionID, key != "" || n > 0, key, n)
	if n == 0 {
		return out, nil
	}
	if maxBytes <= 0 {
		maxBytes = 1 << 62
	}
	// The bodies are scanned as raw bytes, valid until the next row: each
	// is digested where SQLite holds it, never copied.
	rows, err := tx.QueryContext(ctx, `SELECT `+db.cappedEventColumns()+` FROM transcript_events WHERE session_id = ? ORDER BY seq`, maxBytes, sessionID)
	if err != nil {
		return nil, db.explain(err)
	}
	defer rows.Close()
	for rows.Next() {
		var seq, size int64
		var text, zstd sql.RawBytes
		var utf8Bytes sql.NullInt64
		var navigation sql.RawBytes
		if err := rows.Scan(&seq, &text, &zstd, &utf8Bytes, &navigation, &size); err != nil {
			return nil, db.explain(err)
		}
		var body []byte
		if size <= maxBytes {
			if body, err = DecodeEvent(seq, text, text != nil, zstd, utf8Bytes); err != nil {
				return nil, err
			}
		}
		out.Add(seq, size, body)
	}
	return out, db.explain(rows.Err())
}

// LoadImportIDs gives events the ids the store holds for its session:
// from transcript_event_identities, else from the bodies.
func (db *DB) LoadImportIDs(ctx context.Context, events *model.ImportEvents) error {
	defer func() { events.IDsLoaded = true }()
	if !db.Layout.Identities {
		return db.Events(ctx, events.SessionID, -1, 0, func(ev Event) bool {
			if id, ok := eventID(ev.Text); ok {
				events.AddID(ev.Seq, id)
			}
			return true
		})
	}
	rows, err := db.db.QueryContext(ctx, `SELECT event_id, seq FROM transcript_event_identities WHERE session_id = ?`, events.SessionID)
	if err != nil {
		return db.explain(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id sql.NullString
		var seq int64
		if err := rows.Scan(&id, &seq); err != nil {
			return db.explain(err)
		}
		events.AddID(seq, id.String)
	}
	return db.explain(rows.Err())
}

// eventID is an event's "id" when it is a string (the last of repeated
// keys, as JSON.parse keeps it).
func eventID(text []byte) (id string, ok bool) {
	jsonscan.Object(text, jsonscan.SkipWS(text, 0), func(key, value []byte) bool {
		if jsonscan.KeyIs(key, "id") {
			id, ok = "", false
			if len(value) > 0 && value[0] == '"' {
				id, ok = jsonscan.Unquote(value), true
			}
		}
		return true
	})
	return id, ok
}
