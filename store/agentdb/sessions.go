package agentdb

import (
	"cmp"
	"context"
	"database/sql"
	"math"
	"slices"
	"strings"
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
	// change is what OpenClaw moves on every write to the transcript.
	change changeKey
}

// Sessions reads every session key and every generation, keys in key
// order and generations oldest first.
func (db *DB) Sessions(ctx context.Context) ([]Node, []Window, error) {
	nodes, err := db.Nodes(ctx)
	if err != nil {
		return nil, nil, err
	}
	windows, err := db.Windows(ctx)
	if err != nil {
		return nil, nil, err
	}
	return nodes, windows, nil
}

// Nodes reads every session key, in key order.
func (db *DB) Nodes(ctx context.Context) ([]Node, error) {
	nodes := make([]Node, 0, db.NodeCount(ctx))
	err := db.eachNode(ctx, true, func(n *Node) {
		n.EntryJSON = slices.Clone(n.EntryJSON)
		nodes = append(nodes, *n)
	})
	if err != nil {
		return nil, err
	}
	// session_key is the primary key: no two are equal.
	slices.SortFunc(nodes, func(a, b Node) int { return strings.Compare(a.Key, b.Key) })
	return nodes, nil
}

// EachNode hands fn every session key in the table's order with what a
// status reads of it: Key, CurrentSessionID, EntryJSON, EntryValid, Status
// and CreatedVia. n and n.EntryJSON are only valid during the call: the
// entries are a status's biggest read (a whole session entry per key), so
// they are decoded from SQLite's own buffer rather than copied first.
func (db *DB) EachNode(ctx context.Context, fn func(n *Node)) error {
	return db.eachNode(ctx, false, fn)
}

// NodeCount is the number of session keys, to size what holds them (0 if
// they cannot be counted).
func (db *DB) NodeCount(ctx context.Context) int { return db.rowCount(ctx, "session_nodes") }

// eachNode reads session_nodes in the table's order (SQLite would walk the
// key index for any other and look each row up from it, out of the
// table's order), every column Node has when all is set.
func (db *DB) eachNode(ctx context.Context, all bool, fn func(n *Node)) error {
	nc := db.Layout.nodeColumns
	q := `SELECT session_key, current_session_id, entry_json, ` + columnList(nc, "entry_valid", "status", "created_via")
	if all {
		q += `, ` + columnList(nc, "updated_at", "parent_session_key", "spawned_by", "label", "display_name", "archived_at", "last_activity_at")
	}
	rows, err := db.db.QueryContext(ctx, q+` FROM session_nodes`)
	if err != nil {
		return db.explain(err)
	}
	defer rows.Close()
	var n Node
	var entry sql.RawBytes
	var valid, updated, archived, activity sql.NullInt64
	var status, via, parent, spawned, label, display sql.NullString
	dest := []any{&n.Key, &n.CurrentSessionID, &entry, &valid, &status, &via}
	if all {
		dest = append(dest, &updated, &parent, &spawned, &label, &display, &archived, &activity)
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return db.explain(err)
		}
		n.EntryJSON, n.EntryValid, n.Status, n.CreatedVia = entry, int(valid.Int64), status.String, via.String
		if all {
			n.UpdatedAt, n.ArchivedAt, n.LastActivityAt = millis(updated), millis(archived), millis(activity)
			n.ParentKey, n.SpawnedBy, n.Label, n.DisplayName = parent.String, spawned.String, label.String, display.String
		}
		fn(&n)
	}
	return db.explain(rows.Err())
}

// Windows reads every generation, grouped by session key and oldest first
// (created_at, then the order the rows were written in), each with what
// changes on every write to its transcript (see CachedStatsOf). Read in the
// table's order and sorted here, for the reason Nodes gives.
func (db *DB) Windows(ctx context.Context) ([]Window, error) {
	wc := db.Layout.windowColumns
	q := `SELECT w.rowid, w.session_id, w.session_key`
	for _, c := range []string{"previous_session_id", "reason", "created_at", "updated_at", "transcript_updated_at", "started_at",
		"ended_at", "status", "chat_type", "channel", "model_provider", "model", "display_name"} {
		if wc[c] {
			q += ", w." + c
		} else {
			q += ", NULL"
		}
	}
	if db.Layout.RewriteWatermarks {
		q += `, r.generation FROM session_windows w LEFT JOIN transcript_rewrite_watermarks r ON r.session_id = w.session_id`
	} else {
		q += `, NULL FROM session_windows w`
	}
	rows, err := db.db.QueryContext(ctx, q)
	if err != nil {
		return nil, db.explain(err)
	}
	defer rows.Close()
	n := db.rowCount(ctx, "session_windows")
	windows := make([]Window, 0, n)
	// The order, kept beside the rows and sorted as small keys: a Window
	// is a few hundred bytes to move.
	type place struct {
		key            string
		created, rowid int64
		i              int
	}
	order := make([]place, 0, n)
	var rowid int64
	var prev, reason, status, chat, channel, provider, model, display, gen sql.NullString
	var created, updated, tupdated, started, ended sql.NullInt64
	var w Window
	dest := []any{&rowid, &w.SessionID, &w.Key, &prev, &reason, &created, &updated, &tupdated, &started, &ended,
		&status, &chat, &channel, &provider, &model, &display, &gen}
	for rows.Next() {
		w = Window{}
		if err := rows.Scan(dest...); err != nil {
			return nil, db.explain(err)
		}
		w.PreviousSessionID, w.Reason, w.Status, w.ChatType = prev.String, reason.String, status.String, chat.String
		w.Channel, w.ModelProvider, w.Model, w.DisplayName = channel.String, provider.String, model.String, display.String
		w.CreatedAt, w.UpdatedAt, w.TranscriptUpdatedAt = millis(created), millis(updated), millis(tupdated)
		w.StartedAt, w.EndedAt = millis(started), millis(ended)
		w.change = changeKey{transcriptUpdatedAt: tupdated.Int64, updatedAt: updated.Int64, generation: cacheToken(gen.String)}
		// SQLite sorts a NULL created_at first.
		p := place{key: w.Key, created: math.MinInt64, rowid: rowid, i: len(windows)}
		if created.Valid {
			p.created = created.Int64
		}
		order = append(order, p)
		windows = append(windows, w)
	}
	if err := rows.Err(); err != nil {
		return nil, db.explain(err)
	}
	slices.SortFunc(order, func(a, b place) int {
		return cmp.Or(strings.Compare(a.key, b.key), cmp.Compare(a.created, b.created), cmp.Compare(a.rowid, b.rowid))
	})
	sorted := make([]Window, len(windows))
	for i, p := range order {
		sorted[i] = windows[p.i]
	}
	return sorted, nil
}

// rowCount is the number of rows of table, to size what holds them (0 if
// it cannot be counted: the caller's slice then grows as it goes). SQLite
// counts them over the table's smallest index.
func (db *DB) rowCount(ctx context.Context, table string) int {
	var n int
	if db.db.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&n) != nil {
		return 0
	}
	return n
}

// millis reads OpenClaw's timestamps: milliseconds since the epoch.
func millis(v sql.NullInt64) time.Time {
	if !v.Valid || v.Int64 <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(v.Int64)
}
