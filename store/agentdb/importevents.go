package agentdb

import (
	"context"
	"database/sql"

	"clawvault-tui/model"
	"clawvault-tui/store/jsonscan"
)

// ImportEvents reads a session's events for the check of a leftover JSONL
// file against it (model.ImportComparer): every event's digest and size,
// and the ids the store holds (from transcript_event_identities, else from
// the bodies). An event over maxBytes (<= 0: no cap) is sized, not read.
// key is the session key the store gives the session ("" for none: the
// store has no such session).
func (db *DB) ImportEvents(ctx context.Context, sessionID, key string, maxBytes int64) (*model.ImportEvents, error) {
	tx, err := db.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, db.explain(err)
	}
	defer tx.Rollback()
	exists := key != ""
	if !exists {
		var n int
		err := tx.QueryRowContext(ctx, `SELECT count(*) FROM transcript_events WHERE session_id = ?`, sessionID).Scan(&n)
		if err != nil {
			return nil, db.explain(err)
		}
		exists = n > 0
	}
	out := model.NewImportEvents(sessionID, exists, key)
	if !exists {
		return out, nil
	}
	err = db.eventsIn(ctx, tx, sessionID, -1, maxBytes, func(ev Event) bool {
		out.Add(ev.Seq, ev.Bytes, ev.Text)
		if ev.Text != nil && !db.Layout.Identities {
			if id, ok := eventID(ev.Text); ok {
				out.AddID(ev.Seq, id)
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	if db.Layout.Identities {
		rows, err := tx.QueryContext(ctx, `SELECT event_id, seq FROM transcript_event_identities WHERE session_id = ?`, sessionID)
		if err != nil {
			return nil, db.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id sql.NullString
			var seq int64
			if err := rows.Scan(&id, &seq); err != nil {
				return nil, db.explain(err)
			}
			out.AddID(seq, id.String)
		}
		if err := rows.Err(); err != nil {
			return nil, db.explain(err)
		}
	}
	return out, nil
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
