package agentdb

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"strings"
)

// Stats are one session's transcript events as sizes: counts and UTF-8
// bytes, computed by SQLite from the stored byte counts, never from the
// bodies. Bytes count each event as the JSONL line it was or would be (its
// UTF-8 bytes and a newline), so thresholds and diagnoses meant for
// transcript files keep their meaning.
type Stats struct {
	Events  int64
	Bytes   int64
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

// Stats aggregates every session's events in one pass (see bulkStats);
// after maps a session id to its last observed seq, whose pending events
// are then counted by a range of the primary key each.
func (db *DB) Stats(ctx context.Context, after map[string]int64) (map[string]Stats, error) {
	bulk, err := db.bulkStats(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Stats, len(bulk))
	for id, c := range bulk {
		out[id] = Stats{Events: c.events, Bytes: c.bytes, LastSeq: c.last}
	}
	return out, db.addPending(ctx, out, after)
}

// bulkStats aggregates every session's events in one pass over the events'
// primary key, (session_id, seq), each row's size read from the table: the
// one pass over the table that a status without cached counts cannot
// avoid (OpenClaw keeps no per-session sums). It is kept lean, since it
// runs for each of a million events: no cursor is joined (pending events
// are a range query each, afterwards), no min(seq) (a single max() lets
// SQLite keep the last event's created_at and size, the cache's mark of an
// append, from the same pass rather than a query per session).
//
// A large store is aggregated over two connections, each a half of the
// key range split at a sampled median key (splitKey), which may fall
// inside a session (one session often holds most events).
//
// Each half is read in its own read transaction, and the gateway may
// commit between the two. That does not matter for a session wholly in
// one half: its figures are those of one snapshot, as a status of a live
// store reads each session at its own moment anyway. The session the
// split falls in is read partly in each; its halves agree when both
// transactions see it with the same highest seq and rewrite generation
// (the gateway appends after the highest seq, in the upper half, and a
// rewrite moves the generation), and otherwise it is read again, whole,
// in the second one.
func (db *DB) bulkStats(ctx context.Context) (map[string]cachedStats, error) {
	first, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, db.explain(err)
	}
	defer first.Rollback()
	if stats, ok := db.rawBulkStats(ctx, first); ok {
		return stats, nil
	}
	split, ok := db.splitKey(ctx, first)
	if !ok {
		return db.aggregate(ctx, first, "")
	}
	testHookBetweenSnapshots()
	second, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, db.explain(err)
	}
	defer second.Rollback()
	var high map[string]cachedStats
	var highMark snapshotMark
	done := make(chan error, 1)
	go func() {
		var err error
		if highMark, err = db.mark(ctx, second, split.session); err == nil {
			high, err = db.aggregate(ctx, second, `WHERE (e.session_id, e.seq) >= (?, ?)`, split.session, split.seq)
		}
		done <- err
	}()
	lowMark, err := db.mark(ctx, first, split.session)
	var low map[string]cachedStats
	if err == nil {
		low, err = db.aggregate(ctx, first, `WHERE (e.session_id, e.seq) < (?, ?)`, split.session, split.seq)
	}
	if err := cmp.Or(<-done, err); err != nil {
		return nil, err
	}
	for id, c := range high {
		l, both := low[id]
		switch {
		case !both:
		case lowMark != highMark:
			// The gateway changed the split session in between.
			whole, err := db.aggregate(ctx, second, `WHERE e.session_id = ?`, id)
			if err != nil {
				return nil, err
			}
			c = whole[id]
		default:
			// The upper half holds the last event.
			c.events, c.bytes = c.events+l.events, c.bytes+l.bytes
		}
		low[id] = c
	}
	return low, nil
}

// statsSplitMinRows is the span of rowids from which bulkStats splits the
// pass: below it a second connection costs more than it saves. A variable
// for the tests.
var statsSplitMinRows int64 = 200_000

type statsKey struct {
	session string
	seq     int64
}

// rowidBounds selects the events' lowest and highest rowid, each through
// its own subquery: SQLite finds a lone min() or max() of the rowid at an
// end of the table's b-tree, but reads every row for both in one SELECT.
const rowidBounds = `SELECT (SELECT min(rowid) FROM transcript_events), (SELECT max(rowid) FROM transcript_events)`

// splitKey returns a key that about half of the events sort before: the
// median of keys sampled at evenly spaced rowids (rows, not sessions, are
// what is spread evenly). ok is false for a small store, or one whose
// rowids cannot be sampled (a WITHOUT ROWID table).
func (db *DB) splitKey(ctx context.Context, q querier) (statsKey, bool) {
	var lo, hi sql.NullInt64
	if q.QueryRowContext(ctx, rowidBounds).Scan(&lo, &hi) != nil || !lo.Valid || hi.Int64-lo.Int64 < statsSplitMinRows {
		return statsKey{}, false
	}
	const samples = 31
	keys := make([]statsKey, 0, samples)
	for i := range int64(samples) {
		var k statsKey
		at := lo.Int64 + (hi.Int64-lo.Int64)*(i+1)/(samples+1)
		if q.QueryRowContext(ctx, `SELECT session_id, seq FROM transcript_events WHERE rowid >= ? ORDER BY rowid LIMIT 1`, at).Scan(&k.session, &k.seq) != nil {
			return statsKey{}, false
		}
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b statsKey) int {
		return cmp.Or(strings.Compare(a.session, b.session), cmp.Compare(a.seq, b.seq))
	})
	return keys[samples/2], true
}

// aggregate is bulkStats' pass over the events that where selects.
func (db *DB) aggregate(ctx context.Context, q querier, where string, args ...any) (map[string]cachedStats, error) {
	rows, err := q.QueryContext(ctx, `SELECT e.session_id, count(*), sum(`+db.eventBytes("e")+`), max(e.seq), e.created_at, `+db.utf8Bytes("e")+`
FROM transcript_events e `+where+` GROUP BY e.session_id`, args...)
	if err != nil {
		return nil, db.explain(err)
	}
	defer rows.Close()
	out := map[string]cachedStats{}
	for rows.Next() {
		var id string
		var c cachedStats
		var created, size sql.NullInt64
		if err := rows.Scan(&id, &c.events, &c.bytes, &c.last, &created, &size); err != nil {
			return nil, db.explain(err)
		}
		c.lastCreatedAt, c.lastEventBytes = created.Int64, size.Int64
		out[id] = c
	}
	return out, db.explain(rows.Err())
}

// addPending sets the pending events of each session of out: all of them,
// or those after its seq in after, counted by a range of the primary key
// (only the pending rows are read).
func (db *DB) addPending(ctx context.Context, out map[string]Stats, after map[string]int64) error {
	for id, s := range out {
		s.PendingEvents, s.PendingBytes = s.Events, s.Bytes
		if seq, ok := after[id]; ok && seq >= 0 {
			s.PendingEvents, s.PendingBytes = 0, 0
			if seq < s.LastSeq {
				n, bytes, _, err := db.eventsAfter(ctx, id, seq)
				if err != nil {
					return err
				}
				s.PendingEvents, s.PendingBytes = n, bytes
			}
		}
		out[id] = s
	}
	return nil
}

// eventsAfter aggregates a session's events after seq: a range of the
// primary key (session_id, seq), so it reads the new rows only, however
// long the session.
func (db *DB) eventsAfter(ctx context.Context, sessionID string, seq int64) (events, bytes, last int64, err error) {
	var n, b, l sql.NullInt64
	err = db.db.QueryRowContext(ctx, `SELECT count(*), sum(`+db.eventBytes("e")+`), max(e.seq) FROM transcript_events e WHERE e.session_id = ? AND e.seq > ?`,
		sessionID, seq).Scan(&n, &b, &l)
	return n.Int64, b.Int64, l.Int64, db.explain(err)
}

// SessionStats aggregates one session's events (after is its last observed
// seq, or -1).
func (db *DB) SessionStats(ctx context.Context, sessionID string, after int64) (Stats, error) {
	b := db.eventBytes("e")
	var s Stats
	var last, n, bytes, pn, pb *int64
	err := db.db.QueryRowContext(ctx, `SELECT count(*), sum(`+b+`), max(e.seq), sum(e.seq > ?2),
       sum(CASE WHEN e.seq > ?2 THEN `+b+` ELSE 0 END)
FROM transcript_events e WHERE e.session_id = ?1`, sessionID, after).Scan(&n, &bytes, &last, &pn, &pb)
	if err != nil {
		return s, db.explain(err)
	}
	for _, p := range []struct {
		src *int64
		dst *int64
	}{{n, &s.Events}, {bytes, &s.Bytes}, {last, &s.LastSeq}, {pn, &s.PendingEvents}, {pb, &s.PendingBytes}} {
		if p.src != nil {
			*p.dst = *p.src
		}
	}
	return s, nil
}
