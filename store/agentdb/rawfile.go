package agentdb

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
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
}

// rawTables are the tables read raw.
var rawTables = []string{"transcript_events", "transcript_event_identities", "session_transcript_active_events"}

// openRaw opens the store's file for raw reads inside the read transaction
// of q, which must have read already (SQLite takes its snapshot at the
// first read). It returns nil when the file is not read so: readRaw off, a
// file sqlitefile does not read, or none of the tables laid out as raw
// reads need (rowids, every column stored, in order, NULL by default).
func (db *DB) openRaw(ctx context.Context, q querier) *rawFile {
	if !readRaw {
		return nil
	}
	rows, err := q.QueryContext(ctx, `SELECT m.name, m.rootpage, coalesce(m.sql, ''), p.name, p.type, p.pk, p.hidden, p.dflt_value IS NULL
FROM sqlite_master m JOIN pragma_table_xinfo(m.name) p
WHERE m.type = 'table' AND m.name IN (?, ?, ?) ORDER BY m.name, p.cid`, anys(rawTables)...)
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
		cols := map[string]int{}
		for i, c := range t.cols {
			// A generated column is not stored where its place says; an
			// INTEGER PRIMARY KEY is the rowid, stored as NULL; a default
			// other than NULL is what a row older than its column reads.
			alias := pks == 1 && c.pk == 1 && strings.EqualFold(c.typ, "INTEGER")
			ok = ok && c.hidden == 0 && !alias && c.nullDefault
			cols[c.name] = i
		}
		if ok {
			r.tables[name] = rawTable{root: t.root, col: cols}
		}
	}
	if len(r.tables) == 0 {
		return nil
	}
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
		if at[i], ok = t.col[c]; !ok {
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

// identities reads the session's identities at rowids r.from..r.to (a
// byRowid range) from the file into p.
func (r *rawFile) identities(sessionID string, rg identityRange, p *identityPart) error {
	t, c, ok := r.table("transcript_event_identities", "session_id", "seq", "created_at", "event_type", "event_id", "parent_id")
	if !ok || !rg.byRowid {
		return errNotRaw
	}
	return r.sessionRows(t, c[0], sessionID, rg.from, rg.to, func(_ int64, rec *sqlitefile.Record) error {
		if rec.Kind(c[1]) != sqlitefile.Integer {
			return errNotRaw
		}
		seq, err := rec.Int(c[1])
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
	whole := true
	err := r.file.ScanTable(t.root, lo, hi, func(rowid int64, rec *sqlitefile.Record) error {
		id := rec.Prefix(c[0], len(sessionID)+1)
		if rec.Kind(c[0]) != sqlitefile.Text || string(id) != sessionID || rec.Kind(c[1]) != sqlitefile.Integer || rec.Kind(c[2]) != sqlitefile.Integer {
			whole = false
			return errNotRaw
		}
		pos, err := rec.Int(c[1])
		if err != nil {
			return err
		}
		seq, err := rec.Int(c[2])
		if err != nil {
			return err
		}
		if pos-rowid != offset {
			whole = false
			return errNotRaw
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
		return true, nil
	}
	a.seqs, a.excluded = a.seqs[:n], a.excluded[:0]
	if !whole {
		return false, nil
	}
	if err == nil {
		err = errNotRaw
	}
	return false, err
}

// facts reads the session's events at seqs (sorted) among rowids lo..hi
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
		if rec.Kind(c[1]) != sqlitefile.Integer {
			return errNotRaw
		}
		seq, err := rec.Int(c[1])
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
