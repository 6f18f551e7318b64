package agentdb

import (
	"context"
	"database/sql"
	"time"
)

// Node is one session_nodes row: a session key, the generation that is
// current, and entry_json, which is the old sessions.json entry (decoded by
// the caller with the same decoder).
type Node struct {
	Key              string
	CurrentSessionID string
	EntryJSON        []byte
	// EntryValid is OpenClaw's verdict on entry_json: 1 valid, 0 not yet
	// checked, -1 invalid.
	EntryValid     int
	UpdatedAt      time.Time
	Status         string // running, done, failed, killed, timeout
	CreatedVia     string // operator, spawn, channel, cron, …
	ParentKey      string
	SpawnedBy      string
	Label          string
	DisplayName    string
	ArchivedAt     time.Time
	LastActivityAt time.Time
}

// Window is one session_windows row: one generation (transcript) of a
// session key, what .reset.<ts> files used to be.
type Window struct {
	SessionID         string
	Key               string
	PreviousSessionID string
	// Reason is initial, reset, rollover, fork, rewind, switch, recovery or
	// compaction; "" after an import from JSONL.
	Reason              string
	CreatedAt           time.Time
	UpdatedAt           time.Time
	TranscriptUpdatedAt time.Time
	StartedAt, EndedAt  time.Time
	Status              string
	ChatType            string
	Channel             string
	ModelProvider       string
	Model               string
	DisplayName         string
}

// Sessions reads every session key and every generation, keys in key
// order and generations oldest first.
func (db *DB) Sessions(ctx context.Context) ([]Node, []Window, error) {
	nc := db.Layout.nodeColumns
	rows, err := db.db.QueryContext(ctx, `SELECT session_key, current_session_id, entry_json, `+
		columnList(nc, "entry_valid", "updated_at", "status", "created_via", "parent_session_key", "spawned_by",
			"label", "display_name", "archived_at", "last_activity_at")+
		` FROM session_nodes ORDER BY session_key`)
	if err != nil {
		return nil, nil, db.explain(err)
	}
	// Sized once: a store holds thousands of keys.
	nodes := make([]Node, 0, 1024)
	for rows.Next() {
		var n Node
		var valid, updated, archived, activity sql.NullInt64
		var status, via, parent, spawned, label, display sql.NullString
		if err := rows.Scan(&n.Key, &n.CurrentSessionID, &n.EntryJSON, &valid, &updated, &status, &via, &parent,
			&spawned, &label, &display, &archived, &activity); err != nil {
			rows.Close()
			return nil, nil, db.explain(err)
		}
		n.EntryValid = int(valid.Int64)
		n.UpdatedAt, n.ArchivedAt, n.LastActivityAt = millis(updated), millis(archived), millis(activity)
		n.Status, n.CreatedVia, n.ParentKey, n.SpawnedBy = status.String, via.String, parent.String, spawned.String
		n.Label, n.DisplayName = label.String, display.String
		nodes = append(nodes, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, db.explain(err)
	}

	wc := db.Layout.windowColumns
	rows, err = db.db.QueryContext(ctx, `SELECT session_id, session_key, `+
		columnList(wc, "previous_session_id", "reason", "created_at", "updated_at", "transcript_updated_at", "started_at",
			"ended_at", "status", "chat_type", "channel", "model_provider", "model", "display_name")+
		` FROM session_windows ORDER BY session_key, `+optional(wc, "created_at")+`, rowid`)
	if err != nil {
		return nil, nil, db.explain(err)
	}
	defer rows.Close()
	windows := make([]Window, 0, max(len(nodes), 1024))
	for rows.Next() {
		var w Window
		var prev, reason, status, chat, channel, provider, model, display sql.NullString
		var created, updated, tupdated, started, ended sql.NullInt64
		if err := rows.Scan(&w.SessionID, &w.Key, &prev, &reason, &created, &updated, &tupdated, &started, &ended,
			&status, &chat, &channel, &provider, &model, &display); err != nil {
			return nil, nil, db.explain(err)
		}
		w.PreviousSessionID, w.Reason, w.Status, w.ChatType = prev.String, reason.String, status.String, chat.String
		w.Channel, w.ModelProvider, w.Model, w.DisplayName = channel.String, provider.String, model.String, display.String
		w.CreatedAt, w.UpdatedAt, w.TranscriptUpdatedAt = millis(created), millis(updated), millis(tupdated)
		w.StartedAt, w.EndedAt = millis(started), millis(ended)
		windows = append(windows, w)
	}
	return nodes, windows, db.explain(rows.Err())
}

// millis reads OpenClaw's timestamps: milliseconds since the epoch.
func millis(v sql.NullInt64) time.Time {
	if !v.Valid || v.Int64 <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(v.Int64)
}
