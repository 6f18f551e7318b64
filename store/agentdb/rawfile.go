package agentdb

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"math"
	"strings"

	"clawvault-tui/store/sqlitefile"
)

// The bulk reads of a large store (every event's size for a status without
// its cache, a 700,000-event session's identities, its active branch and
// fact rows for a tree) read the table rows from the file itself
// (sqlitefile) rather than through SQL: SQLite's bytecode per row and its
// system call per page were most of their time. SQL still decides what to
// read (the rowid spans, through the indexes) and checks what was read (the
// counts a read must match); a raw read that cannot be trusted is done again
// through SQL. The read transaction that found the spans stays open while
// the file is read: SQLite then checkpoints nothing newer than its snapshot
// into the file, so every page read is of one committed state, at or after
// the transaction's (sqlitefile's package comment says why).

// readRaw: bulk reads go to the file itself when it can be read so (a
// variable for the tests, which read both ways).
var readRaw = true

// testHookRawRead runs after each read from the file that is used (tests
// count them: a read that fell back to SQL would pass unseen).
var testHookRawRead = func() {}

// testHookBeforeRawOpen runs between a transaction's first read and the
// file's opening (tests write there).
var testHookBeforeRawOpen = func() {}

// errNotRaw is a row the raw reader does not read as SQL would (a value of
// an unexpected type): the read is done through SQL.
var errNotRaw = errors.New("agentdb: a row the file reader leaves to SQL")

// rawFile is the store's file open for raw reads, with the layout of the
// tables read so.
type rawFile struct {
	file   *sqlitefile.File
	tables map[string]rawTable
}

// rawTable is a table's b-tree root and each column's place in its
// records.
type rawTable struct {
	root uint32
	col  map[string]int
	// defaulted names the columns whose default is not NULL: a row
	// written before such a column was added reads its default, which
	// the file does not hold, so they are not read raw.
	defaulted map[string]bool
}

// rawTables are the tables read raw.
var rawTables = []string{"transcript_events", "transcript_event_identities", "session_transcript_active_events", "session_windows"}

// openRaw opens the store's file for raw reads inside the read transaction
// of q, which must have read already (SQLite takes its snapshot at the
// first read). It returns nil when the file is not read so: readRaw off, a
// file sqlitefile does not read, or none of the tables laid out as raw
// reads need (rowids, every column stored, in order).
func (db *DB) openRaw(ctx context.Context, q querier) *rawFile {
	if !readRaw {
		return nil
	}
	rows, err := q.QueryContext(ctx, `SELECT m.name, m.rootpage, coalesce(m.sql, ''), p.name, p.type, p.pk, p.hidden, coalesce(upper(p.dflt_value), 'NULL') = 'NULL'
FROM sqlite_master m JOIN pragma_table_xinfo(m.name) p
WHERE m.type = 'table' AND m.name IN (?, ?, ?, ?) ORDER BY m.name, p.cid`, anys(rawTables)...)
	if err != nil {
		return nil
	}
	defer rows.Close()
	type column struct {
		name, typ   string
		pk, hidden  int
		nullDefault bool
	}
	type table struct {
		root uint32
		sql  string
		cols []column
	}
	found := map[string]*table{}
	for rows.Next() {
		var name, def string
		var root int64
		var c column
		if err := rows.Scan(&name, &root, &def, &c.name, &c.typ, &c.pk, &c.hidden, &c.nullDefault); err != nil {
			return nil
		}
		t := found[name]
		if t == nil {
			t = &table{root: uint32(root), sql: def}
			found[name] = t
		}
		t.cols = append(t.cols, c)
	}
	if rows.Err() != nil {
		return nil
	}
	r := &rawFile{tables: map[string]rawTable{}}
	for name, t := range found {
		pks := 0
		for _, c := range t.cols {
			if c.pk > 0 {
				pks++
			}
		}
		ok := t.root > 0 && !strings.Contains(strings.ToUpper(t.sql), "WITHOUT ROWID")
		rt := rawTable{root: t.root, col: map[string]int{}, defaulted: map[string]bool{}}
		for i, c := range t.cols {
			// A generated column is not stored where its place says; an
			// INTEGER PRIMARY KEY is the rowid, stored as NULL.
			alias := pks == 1 && c.pk == 1 && strings.EqualFold(c.typ, "INTEGER")
			ok = ok && c.hidden == 0 && !alias
			rt.col[c.name] = i
			if !c.nullDefault {
				rt.defaulted[c.name] = true
			}
		}
		if ok {
			r.tables[name] = rt
		}
	}
	if len(r.tables) == 0 {
		return nil
	}
	testHookBeforeRawOpen()
	if r.file, err = sqlitefile.Open(db.Path); err != nil {
		return nil
	}
	return r
}

// Close closes the file; a nil rawFile is closed.
func (r *rawFile) Close() {
	if r != nil {
		r.file.Close()
	}
}

// table returns the table when every one of columns is in it: their
// places, in that order.
func (r *rawFile) table(name string, columns ...string) (rawTable, []int, bool) {
	if r == nil {
		return rawTable{}, nil, false
	}
	t, ok := r.tables[name]
	if !ok {
		return rawTable{}, nil, false
	}
	at := make([]int, len(columns))
	for i, c := range columns {
		if at[i], ok = t.col[c]; !ok || t.defaulted[c] {
			return rawTable{}, nil, false
		}
	}
	return t, at, true
}

// sessionRows calls fn for each row of the table at rowids lo..hi whose
// column sessionCol is sessionID (others, which SQL's WHERE would pass
// over, are passed over).
func (r *rawFile) sessionRows(t rawTable, sessionCol int, sessionID string, lo, hi int64, fn func(rowid int64, rec *sqlitefile.Record) error) error {
	want := []byte(sessionID)
	return r.file.ScanTable(t.root, lo, hi, func(rowid int64, rec *sqlitefile.Record) error {
		if rec.Kind(sessionCol) != sqlitefile.Text {
			return errNotRaw
		}
		// A session id is short: on the leaf page.
		if id := rec.Prefix(sessionCol, len(want)+1); !bytes.Equal(id, want) {
			if rec.Size(sessionCol) > len(id) {
				return errNotRaw
			}
			return nil
		}
		return fn(rowid, rec)
	})
}

// integer is an INTEGER column's value; errNotRaw for another type (which
// SQL would convert).
func integer(rec *sqlitefile.Record, col int) (int64, error) {
	switch rec.Kind(col) {
	case sqlitefile.Integer:
		return rec.Int(col)
	case sqlitefile.Null:
		return 0, nil
	}
	return 0, errNotRaw
}

// integerOnly is an INTEGER column's value; errNotRaw for any other type,
// NULL included (a key SQL would not match as this one).
func integerOnly(rec *sqlitefile.Record, col int) (int64, error) {
	if rec.Kind(col) != sqlitefile.Integer {
		return 0, errNotRaw
	}
	return rec.Int(col)
}

// text is a TEXT column's bytes (nil for NULL); errNotRaw for a blob or a
// number (which SQL would convert).
func text(rec *sqlitefile.Record, col int) ([]byte, error) {
	switch rec.Kind(col) {
	case sqlitefile.Text:
		return rec.Bytes(col)
	case sqlitefile.Null:
		return nil, nil
	}
	return nil, errNotRaw
}

// nullInt is a column as sql.NullInt64.
func nullInt(rec *sqlitefile.Record, col int) (sql.NullInt64, error) {
	if rec.Kind(col) == sqlitefile.Null {
		return sql.NullInt64{}, nil
	}
	v, err := integer(rec, col)
	return sql.NullInt64{Int64: v, Valid: err == nil}, err
}

// nullString is a TEXT column as sql.NullString (a copy).
func nullString(rec *sqlitefile.Record, col int) (sql.NullString, error) {
	if rec.Kind(col) == sqlitefile.Null {
		return sql.NullString{}, nil
	}
	b, err := text(rec, col)
	return sql.NullString{String: string(b), Valid: err == nil}, err
}

// seesAsSQL says whether the file shows the session as q's snapshot does.
// The file is opened after q's first read, so it shows that snapshot or a
// later one: a write to the session in between (OpenClaw moves its
// window's transcript_updated_at and updated_at with each) would mix the
// two. The window is found by a scan of session_windows (a row per
// generation: a megabyte at 10,000 sessions).
func (r *rawFile) seesAsSQL(ctx context.Context, db *DB, q querier, sessionID string) bool {
	cols := []string{"session_id", "updated_at"}
	if db.Layout.transcriptUpdatedAt {
		cols = append(cols, "transcript_updated_at")
	}
	t, c, ok := r.table("session_windows", cols...)
	if !ok {
		return false
	}
	var want [2]sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT updated_at, `+optional(db.Layout.windowColumns, "transcript_updated_at")+` FROM session_windows WHERE session_id = ?`,
		sessionID).Scan(&want[0], &want[1])
	if err != nil {
		// No window (nothing to compare the file with), or no answer.
		return false
	}
	var got [2]sql.NullInt64
	found := 0
	err = r.sessionRows(t, c[0], sessionID, math.MinInt64, math.MaxInt64, func(_ int64, rec *sqlitefile.Record) error {
		found++
		for i := range c[1:] {
			v, err := nullInt(rec, c[1+i])
			if err != nil {
				return err
			}
			got[i] = v
		}
		return nil
	})
	return err == nil && found == 1 && got == want
}

// identities reads the session's identities at rowids r.from..r.to (a
// byRowid range) from the file into p.
func (r *rawFile) identities(sessionID string, rg identityRange, p *identityPart) error {
	t, c, ok := r.table("transcript_event_identities", "session_id", "seq", "created_at", "event_type", "event_id", "parent_id")
	if !ok || !rg.byRowid {
		return errNotRaw
	}
	return r.sessionRows(t, c[0], sessionID, rg.from, rg.to, func(_ int64, rec *sqlitefile.Record) error {
		seq, err := integerOnly(rec, c[1])
		if err != nil {
			return err
		}
		created, err := integer(rec, c[2])
		if err != nil {
			return err
		}
		typ, err := text(rec, c[3])
		if err != nil {
			return err
		}
		id, err := text(rec, c[4])
		if err != nil {
			return err
		}
		parent, err := text(rec, c[5])
		if err != nil {
			return err
		}
		p.add(seq, created, typ, id, parent, rec.Kind(c[5]) != sqlitefile.Null)
		return nil
	})
}

// activeInTableOrder is readActiveInTableOrder's read of rowids lo..hi
// from the file: false when a row of the span is not the session's, or its
// position is not offset from its rowid.
func (r *rawFile) activeInTableOrder(sessionID string, lo, hi, offset int64, a *activeBranch) (bool, error) {
	t, c, ok := r.table("session_transcript_active_events", "session_id", "active_position", "event_seq", "context_eligible")
	if !ok {
		return false, errNotRaw
	}
	n := len(a.seqs)
	err := r.file.ScanTable(t.root, lo, hi, func(rowid int64, rec *sqlitefile.Record) error {
		if rec.Kind(c[0]) != sqlitefile.Text || string(rec.Prefix(c[0], len(sessionID)+1)) != sessionID {
			return errOutOfOrder
		}
		pos, err := integerOnly(rec, c[1])
		if err != nil {
			return err
		}
		seq, err := integerOnly(rec, c[2])
		if err != nil {
			return err
		}
		if pos-rowid != offset {
			return errOutOfOrder
		}
		a.seqs = append(a.seqs, seq)
		if rec.Kind(c[3]) == sqlitefile.Integer {
			if v, err := rec.Int(c[3]); err != nil {
				return err
			} else if v == 0 {
				a.excluded = append(a.excluded, seq)
			}
		}
		return nil
	})
	if err == nil && int64(len(a.seqs)-n) == hi-lo+1 {
		testHookRawRead()
		return true, nil
	}
	a.seqs, a.excluded = a.seqs[:n], a.excluded[:0]
	switch {
	case err == errOutOfOrder:
		return false, nil
	case err == nil:
		// Rows missing from the span: SQL's read of it says why.
		err = errNotRaw
	}
	return false, err
}

// errOutOfOrder is a row of OpenClaw's branch that is not where reading in
// the table's order needs it.
var errOutOfOrder = errors.New("agentdb: the branch does not lie in the table's order")

// rawFacts reads the session's events at seqs (sorted) among rowids lo..hi
// from the file, in the table's order; the seqs it did not find there are
// left for SQL.
func (db *DB) rawFacts(r *rawFile, sessionID string, lo, hi int64, seqs []int64) ([]rawEvent, error) {
	cols := []string{"session_id", "seq", "created_at", "event_json"}
	if db.Layout.Compressed {
		cols = append(cols, "event_zstd", "event_utf8_bytes", "navigation_json")
	}
	t, c, ok := r.table("transcript_events", cols...)
	if !ok || len(seqs) == 0 {
		return nil, errNotRaw
	}
	// A set of the seqs wanted, as bits from the lowest.
	base := seqs[0]
	want := make([]uint64, (seqs[len(seqs)-1]-base)/64+1)
	for _, s := range seqs {
		want[(s-base)/64] |= 1 << ((s - base) % 64)
	}
	var out []rawEvent
	err := r.sessionRows(t, c[0], sessionID, lo, hi, func(_ int64, rec *sqlitefile.Record) error {
		seq, err := integerOnly(rec, c[1])
		if err != nil {
			return err
		}
		if seq < base || (seq-base)/64 >= int64(len(want)) || want[(seq-base)/64]&(1<<((seq-base)%64)) == 0 {
			return nil
		}
		e := rawEvent{seq: seq}
		if e.createdAt, err = nullInt(rec, c[2]); err != nil {
			return err
		}
		if e.json, err = nullString(rec, c[3]); err != nil {
			return err
		}
		if db.Layout.Compressed {
			switch rec.Kind(c[4]) {
			case sqlitefile.Blob:
				b, err := rec.Bytes(c[4])
				if err != nil {
					return err
				}
				e.zstd = bytes.Clone(b)
			case sqlitefile.Null:
			default:
				return errNotRaw
			}
			if e.utf8Bytes, err = nullInt(rec, c[5]); err != nil {
				return err
			}
			if e.navigation, err = nullString(rec, c[6]); err != nil {
				return err
			}
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

// rawBulkStats is bulkStats' pass read from the file, when it can be: the
// events' rowids in two halves, one per goroutine, both of the one
// snapshot the file shows. It reads no event body: a row's size is its
// event_utf8_bytes, or its event_json's length from the record's header.
// A compressed row large enough to spill onto overflow pages keeps its
// event_utf8_bytes behind the frame, at the chain's end; the frame's own
// header, on the leaf page, holds the same decoded size (zstd's frame
// content size, which OpenClaw's compressor writes and DecodeEvent checks
// against event_utf8_bytes), so the chain is not walked for it.
func (db *DB) rawBulkStats(ctx context.Context, q querier) (map[string]cachedStats, bool) {
	var lo, hi sql.NullInt64
	if !readRaw || q.QueryRowContext(ctx, rowidBounds).Scan(&lo, &hi) != nil || !lo.Valid || hi.Int64-lo.Int64 < rawMinEvents {
		return nil, false
	}
	raw := db.openRaw(ctx, q)
	defer raw.Close()
	cols := []string{"session_id", "seq", "created_at", "event_json"}
	if db.Layout.UTF8Bytes {
		cols = append(cols, "event_utf8_bytes")
		if db.Layout.Compressed {
			cols = append(cols, "event_zstd")
		}
	}
	t, c, ok := raw.table("transcript_events", cols...)
	if !ok {
		return nil, false
	}
	// The halves reach the table's ends: the file may show a later
	// snapshot than the one that gave the rowids, and it is read whole.
	mid := lo.Int64 + (hi.Int64-lo.Int64)/2
	var high map[string]*cachedStats
	var errHigh error
	done := make(chan struct{})
	go func() {
		high, errHigh = rawAggregate(raw, t, c, mid+1, math.MaxInt64)
		close(done)
	}()
	low, errLow := rawAggregate(raw, t, c, math.MinInt64, mid)
	<-done
	if errLow != nil || errHigh != nil {
		return nil, false
	}
	out := make(map[string]cachedStats, len(low)+len(high))
	for id, l := range low {
		out[id] = *l
	}
	for id, h := range high {
		if l, both := out[id]; both {
			h.events, h.bytes = h.events+l.events, h.bytes+l.bytes
			if l.last > h.last {
				h.last, h.lastCreatedAt, h.lastEventBytes = l.last, l.lastCreatedAt, l.lastEventBytes
			}
		}
		out[id] = *h
	}
	testHookRawRead()
	return out, true
}

// rawAggregate aggregates the events at rowids lo..hi per session, as
// aggregate does: c are the places of session_id, seq, created_at,
// event_json and, when the table has them, event_utf8_bytes and
// event_zstd.
func rawAggregate(raw *rawFile, t rawTable, c []int, lo, hi int64) (map[string]*cachedStats, error) {
	out := map[string]*cachedStats{}
	var cur *cachedStats
	var curID []byte
	err := raw.file.ScanTable(t.root, lo, hi, func(_ int64, rec *sqlitefile.Record) error {
		id := rec.Prefix(c[0], 256)
		if rec.Kind(c[0]) != sqlitefile.Text || len(id) < rec.Size(c[0]) {
			return errNotRaw
		}
		seq, err := integerOnly(rec, c[1])
		if err != nil {
			return err
		}
		if cur == nil || !bytes.Equal(id, curID) {
			if cur = out[string(id)]; cur == nil {
				cur = &cachedStats{}
				out[string(id)] = cur
			}
			curID = append(curID[:0], id...)
		}
		size, sized, err := rawEventSize(rec, c)
		if err != nil {
			return err
		}
		cur.events++
		if sized {
			cur.bytes += size + 1
		}
		if cur.events == 1 || seq > cur.last {
			created, err := integer(rec, c[2])
			if err != nil {
				return err
			}
			cur.last, cur.lastCreatedAt, cur.lastEventBytes = seq, created, size
		}
		return nil
	})
	return out, err
}

// rawEventSize is utf8Bytes of a row: its event_utf8_bytes, else its
// event_json's length; sized is false when both are NULL (SQL's sum then
// passes the row over).
func rawEventSize(rec *sqlitefile.Record, c []int) (size int64, sized bool, err error) {
	if len(c) > 4 {
		switch rec.Kind(c[4]) {
		case sqlitefile.Integer:
			if !rec.OnPage(c[4]) && len(c) > 5 && rec.Kind(c[5]) == sqlitefile.Blob {
				if n, ok := zstdContentSize(rec.Prefix(c[5], 18)); ok {
					return n, true, nil
				}
			}
			size, err = rec.Int(c[4])
			return size, err == nil, err
		case sqlitefile.Null:
		default:
			return 0, false, errNotRaw
		}
	}
	switch rec.Kind(c[3]) {
	case sqlitefile.Text, sqlitefile.Blob:
		return int64(rec.Size(c[3])), true, nil
	case sqlitefile.Null:
		return 0, false, nil
	}
	return 0, false, errNotRaw
}

// zstdContentSize reads the decoded size from a zstd frame's header
// (RFC 8878, 3.1.1.1): ok is false when the frame does not record it.
func zstdContentSize(h []byte) (int64, bool) {
	if len(h) < 6 || h[0] != 0x28 || h[1] != 0xb5 || h[2] != 0x2f || h[3] != 0xfd {
		return 0, false
	}
	desc := h[4]
	single := desc&0x20 != 0
	at := 5
	if !single {
		at++ // the window descriptor
	}
	at += [4]int{0, 1, 2, 4}[desc&3] // the dictionary id
	var n int
	switch desc >> 6 {
	case 0:
		if !single {
			return 0, false
		}
		n = 1
	case 1:
		n = 2
	case 2:
		n = 4
	case 3:
		n = 8
	}
	if at+n > len(h) {
		return 0, false
	}
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(h[at+i])
	}
	if n == 2 {
		v += 256
	}
	return int64(v), v < 1<<62
}
