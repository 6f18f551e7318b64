package agentdb

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"

	"clawvault-tui/model"
	"clawvault-tui/store/transcript"
)

// Transcript is a SQLite session read as a tree: every event is an entry
// whose position (Offset and Line) is its seq. It holds no body.
type Transcript struct {
	SessionID string
	Entries   []model.Entry
	Facts     map[int32]model.TreeFacts
	Names     *model.Names
	Header    model.Header
	HeaderOK  bool
	// HeaderJSON is the session header event as stored.
	HeaderJSON []byte
	Version    int
	Tree       *model.Tree
	// LastSeq is the highest seq (-1 without events); Bytes the events'
	// JSONL-equivalent size.
	LastSeq int64
	// FactRows counts the events read to learn what identities do not hold
	// (leaf targets, reset and compaction boundaries, labels, names, side
	// appends): the tree needs no other body.
	FactRows int

	// OpenClaw's own active branch, from session_transcript_active_events.
	Active []int64
	// ActiveKnown: the store has the table and OpenClaw's projection covers
	// every event (it is not marked for a rebuild).
	ActiveKnown bool
	// ActiveNote says why OpenClaw's branch is not compared, or how it
	// differs from ours; "" when they agree.
	ActiveNote string
	// ActiveDiffers: OpenClaw's persisted branch is not ours.
	ActiveDiffers bool
}

// Position returns the entry position of seq.
func (t *Transcript) Position(seq int64) (int32, bool) {
	i, ok := slices.BinarySearchFunc(t.Entries, seq, func(e model.Entry, s int64) int {
		switch {
		case e.Offset < s:
			return -1
		case e.Offset > s:
			return 1
		}
		return 0
	})
	return int32(i), ok
}

// bodyFree says the identities row holds the tree facts of an entry of
// type typ in full: nothing else of its body is needed for the tree (its
// appendMode is not read: OpenClaw's side appends are custom entries).
// ParseEntryType gives these types for their own names only.
func bodyFree(typ model.EntryType) bool {
	switch typ {
	case model.TypeMessage, model.TypeModelChange, model.TypeThinkingLevelChange, model.TypeCustomMessage, model.TypeUsage:
		return true
	}
	return false
}

// querier is a read-only transaction or the pool: the transcript is read in
// transactions, so every query of one read sees one snapshot.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// parallelMinEvents is the size from which a transcript's identities are
// read over two connections: below it a second connection costs more than
// it saves. A variable for the tests.
var parallelMinEvents int64 = 50_000

// rawMinEvents is the size from which bulk rows are read from the file
// itself (rawFile): a transcript's events, or a store's for a status. Below
// it, SQL is as quick. A variable for the tests.
var rawMinEvents int64 = 4096

// testHookBetweenSnapshots runs between the two transactions' first reads
// (tests write there).
var testHookBetweenSnapshots = func() {}

// snapshotMark is what tells two read transactions' views of a session
// apart: its highest seq (appends) and its rewrite generation (rewrites).
type snapshotMark struct {
	last       sql.NullInt64
	generation sql.NullString // a rewrite's id (text in OpenClaw's schema)
}

func (db *DB) mark(ctx context.Context, q querier, sessionID string) (snapshotMark, error) {
	var m snapshotMark
	if err := q.QueryRowContext(ctx, `SELECT max(seq) FROM transcript_events WHERE session_id = ?`, sessionID).Scan(&m.last); err != nil {
		return m, db.explain(err)
	}
	if db.Layout.RewriteWatermarks {
		err := q.QueryRowContext(ctx, `SELECT generation FROM transcript_rewrite_watermarks WHERE session_id = ?`, sessionID).Scan(&m.generation)
		if err != nil && err != sql.ErrNoRows {
			return m, db.explain(err)
		}
	}
	return m, nil
}

// Transcript reads a session's tree without decoding bodies, from
// transcript_event_identities, and OpenClaw's persisted active branch.
//
// A large transcript is read over two connections, each in its own read
// transaction: the identities in two seq ranges, then the active branch on
// the second and the fact rows on both. The second transaction is used only
// when its first read sees the same session as the first one's (same
// highest seq, same rewrite generation: the gateway neither appended nor
// rewrote in between); otherwise everything is read in the first.
func (db *DB) Transcript(ctx context.Context, sessionID string) (*Transcript, error) {
	t := &Transcript{SessionID: sessionID, Facts: map[int32]model.TreeFacts{}, Names: model.NewNames(), LastSeq: -1, Version: 1}
	first, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, db.explain(err)
	}
	defer first.Rollback()
	mark, err := db.mark(ctx, first, sessionID)
	if err != nil {
		return nil, err
	}
	if !mark.last.Valid {
		t.Tree = model.BuildTreeWith(nil, t.Facts, 1, t.Names, model.RulesOpenClaw)
		return t, nil
	}
	t.LastSeq = mark.last.Int64
	var raw *rawFile
	if t.LastSeq >= rawMinEvents {
		if raw = db.openRaw(ctx, first); raw != nil && !raw.seesAsSQL(ctx, db, first, sessionID) {
			raw.Close()
			raw = nil
		}
		defer raw.Close()
	}
	var second *sql.Tx
	if db.Layout.Identities && t.LastSeq >= parallelMinEvents {
		if second, err = db.secondSnapshot(ctx, sessionID, mark); err != nil {
			return nil, err
		}
		if second != nil {
			defer second.Rollback()
		}
	}
	if err := db.readTreeRows(ctx, first, second, raw, t); err != nil {
		return nil, err
	}
	if err := db.buildTree(ctx, first, t); err != nil {
		return nil, err
	}
	return t, nil
}

// newEntries makes the entries of a transcript whose highest seq is last.
// Seqs are dense in practice: size the entries once instead of growing
// (and copying) them through a 700,000-event transcript.
func (db *DB) newEntries(last int64) []model.Entry {
	var entries []model.Entry
	if db.ProcessLifetime {
		entries = transcript.ProcessEntries(int(min(last+1, 1<<22)))
	}
	if entries == nil {
		entries = make([]model.Entry, 0, min(last+1, 1<<22))
	}
	return entries
}

// readTreeRows reads the identities (straight into the entries), the
// bodies that hold tree facts and OpenClaw's active branch, over the
// second transaction and the file itself too when they are there.
func (db *DB) readTreeRows(ctx context.Context, first, second *sql.Tx, raw *rawFile, t *Transcript) error {
	entries := db.newEntries(t.LastSeq)
	var needFacts []int64
	if !db.Layout.Identities {
		t.Entries = entries
		needFacts = []int64{-1} // every event: there is nothing to read the tree from but the bodies
	} else {
		var other querier // no typed nil
		if second != nil {
			other = second
		}
		var err error
		if needFacts, err = db.readIdentities(ctx, first, other, raw, t, entries); err != nil {
			return err
		}
	}
	var active activeBranch
	if raw != nil || second != nil {
		if err := db.readFactsAndActive(ctx, first, second, raw, t, needFacts, &active); err != nil {
			return err
		}
	} else {
		if err := db.readFacts(ctx, first, t, needFacts); err != nil {
			return err
		}
		if err := db.readActive(ctx, first, nil, t.SessionID, t.LastSeq, &active); err != nil {
			return err
		}
	}
	t.applyActive(&active)
	return nil
}

// buildTree builds the tree from what was read, with the message roles of
// the context a reset kept when there is one, and compares OpenClaw's
// active branch with ours.
func (db *DB) buildTree(ctx context.Context, first *sql.Tx, t *Transcript) error {
	t.Tree = model.BuildTreeWith(t.Entries, t.Facts, t.Version, t.Names, model.RulesOpenClaw)
	if window := t.Tree.ResetRetainedWindow(t.Facts); len(window) > 0 {
		// The context kept across a reset depends on message roles, which
		// only the bodies hold: read them for those few entries.
		if err := db.readRoles(ctx, first, t, window); err != nil {
			return err
		}
		t.Tree = model.BuildTreeWith(t.Entries, t.Facts, t.Version, t.Names, model.RulesOpenClaw)
	}
	t.compareActive(db)
	return nil
}

// secondSnapshot begins a second read transaction and returns it when it
// sees the session as the first one did (mark), or nil.
func (db *DB) secondSnapshot(ctx context.Context, sessionID string, want snapshotMark) (*sql.Tx, error) {
	testHookBetweenSnapshots()
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, db.explain(err)
	}
	got, err := db.mark(ctx, tx, sessionID)
	if err != nil || got != want {
		tx.Rollback()
		return nil, err
	}
	return tx, nil
}

// readIdentities reads the session's identities into entries (over both
// transactions when second is set) and returns the seqs whose bodies hold
// tree facts (applyIdentities).
//
// The identities are read in the table's own order when the session's
// rows lie close together there (identitySpan): a walk of the (session_id,
// seq) index looks each row up in the table, which cost more than all
// else of a large tree. The rows read must then be all the session has (a
// count over the index, which looks nothing up, says so); otherwise they
// are read again through the index.
func (db *DB) readIdentities(ctx context.Context, first, second querier, raw *rawFile, t *Transcript, entries []model.Entry) ([]int64, error) {
	whole, ok := db.identitySpan(ctx, first, t.SessionID, t.LastSeq)
	if ok {
		parts, count, err := db.readIdentityParts(ctx, first, second, raw, t.SessionID, whole, entries)
		if err != nil {
			return nil, err
		}
		read := 0
		for _, p := range parts {
			read += len(p.entries)
		}
		if int64(read) == count {
			return db.applyIdentities(ctx, first, t, parts...)
		}
	}
	parts, _, err := db.readIdentityParts(ctx, first, second, nil, t.SessionID, identityRange{from: 0, to: t.LastSeq}, entries)
	if err != nil {
		return nil, err
	}
	return db.applyIdentities(ctx, first, t, parts...)
}

// readIdentityParts reads the identities in whole: in one part, or in two
// halves, the second on the second transaction. Reading rowids, it also
// counts the session's identities (on the second transaction, or the
// first); otherwise count is -1.
func (db *DB) readIdentityParts(ctx context.Context, first, second querier, raw *rawFile, sessionID string, whole identityRange, entries []model.Entry) (parts []*identityPart, count int64, err error) {
	count = -1
	counted := func(q querier) error {
		if !whole.byRowid {
			return nil
		}
		return db.explain(q.QueryRowContext(ctx, `SELECT count(*) FROM transcript_event_identities WHERE session_id = ?`, sessionID).Scan(&count))
	}
	if second == nil {
		all := &identityPart{entries: entries}
		if err := cmp.Or(counted(first), db.readIdentityRange(ctx, first, raw, sessionID, whole, all)); err != nil {
			return nil, 0, err
		}
		return []*identityPart{all}, count, nil
	}
	mid := whole.from + (whole.to-whole.from)/2
	if whole.byRowid {
		// The second transaction counts first (about an eighth of the
		// read's work): the first reads a little more than half.
		mid = whole.from + (whole.to-whole.from)/16*9
	}
	lowRange, highRange := whole, whole
	lowRange.to, highRange.from = mid, mid+1
	low, high := &identityPart{entries: entries}, &identityPart{}
	if k := mid - whole.from + 1; k <= int64(cap(entries)) {
		// Each part reads into its own stretch of entries (a part that
		// outgrows it moves out): with dense seqs, or a session's rows
		// side by side in the table, they join in place.
		low.entries, high.entries = entries[:0:k], entries[k:k]
	}
	done := make(chan error, 1)
	go func() {
		err := counted(second)
		if err == nil {
			err = db.readIdentityRange(ctx, second, raw, sessionID, highRange, high)
		}
		done <- err
	}()
	errLow := db.readIdentityRange(ctx, first, raw, sessionID, lowRange, low)
	if err := cmp.Or(<-done, errLow); err != nil {
		return nil, 0, err
	}
	if len(low.entries) > 0 && &low.entries[0] == &entries[:1][0] {
		low.entries = entries[:len(low.entries)] // the room after it is high's
	}
	return []*identityPart{low, high}, count, nil
}

// identityRange is what one part of the identities covers: the rows at
// seqs from..to, found through the (session_id, seq) index, or (byRowid)
// the session's rows at rowids from..to, in the table's order.
type identityRange struct {
	from, to int64
	byRowid  bool
}

// rowidSpanPerEvent is how many table rows per event of the session the
// rowids between its first and last identity may hold for them to be read
// in the table's order: the rows of other sessions between them are read
// and passed over, at a fraction of the cost of looking a row up. (A
// variable for the tests.)
var rowidSpanPerEvent int64 = 4

// identitySpan returns the rowids of the session's identities at its
// lowest and highest seq, as a range to read in the table's order, when
// they are in that order and not too far apart (rowidSpanPerEvent). A
// gateway appends events in seq order, so these bound all of the
// session's rows; readIdentities checks that they did.
func (db *DB) identitySpan(ctx context.Context, q querier, sessionID string, lastSeq int64) (identityRange, bool) {
	return db.rowidSpan(ctx, q, "transcript_event_identities", sessionID, lastSeq)
}

// rowidSpan is identitySpan for the session's rows of table, a table with
// a (session_id, seq) index.
func (db *DB) rowidSpan(ctx context.Context, q querier, table, sessionID string, lastSeq int64) (identityRange, bool) {
	var lo, hi sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT (SELECT rowid FROM `+table+` WHERE session_id = ?1 ORDER BY seq LIMIT 1),
(SELECT rowid FROM `+table+` WHERE session_id = ?1 ORDER BY seq DESC LIMIT 1)`, sessionID).Scan(&lo, &hi)
	// An error (a table without rowids) leaves the index to read through.
	if err != nil || !lo.Valid || !hi.Valid || lo.Int64 > hi.Int64 || (hi.Int64-lo.Int64)/rowidSpanPerEvent > lastSeq {
		return identityRange{}, false
	}
	return identityRange{from: lo.Int64, to: hi.Int64, byRowid: true}, true
}

// identityPart is one seq range of transcript_event_identities, read
// straight into entries, apart from the transcript: its odd ids (not pi's
// eight hex digits) are interned in a table of its own, renumbered into
// the transcript's when the parts are joined (the goroutines share none).
type identityPart struct {
	entries []model.Entry
	names   *model.Names
	// need holds the seqs whose bodies hold tree facts (see applyIdentities).
	need []int64
	// unsorted: a row came before the one read ahead of it.
	unsorted bool
}

// identityChunk is the most seqs (or rowids) one identities query covers:
// its text is a few hundred kilobytes, far below SQLite's limit on a value
// (a gigabyte). The driver's allocator maps a large value's buffer afresh
// each time it grows, and a fresh page costs a fault: chunks of 32,768 rows
// (megabytes of text) cost 5,000 more page faults over 713,000 identities.
const identityChunk = 1 << 12

// identityText is one transcript_event_identities row as text, for
// group_concat: the driver and database/sql then hand over one value per
// chunk of rows instead of five per row (their per-value locking and
// conversion was most of a large tree's time). Rows are lines, fields are
// separated by spaces:
//
//	seq created_at type id parent!
//
// A NULL type or id reads as empty (as the row reader reads them); a NULL
// parent is an empty field, any other ends with "!". Plain separators cost
// SQLite far less than a length before each field would, and stay exact:
// a chunk whose line count is not its row count, or a line that does not
// have exactly four spaces, has an id with a newline or a space in it, and
// is read again row by row.
const identityText = `seq || ' ' || coalesce(created_at, 0) || ' ' || coalesce(event_type, '') || ' ' ||
coalesce(event_id, '') || ' ' || coalesce(parent_id || '!', '')`

// readIdentityRange reads the identities r covers, in chunks of text
// (identityText).
func (db *DB) readIdentityRange(ctx context.Context, q querier, raw *rawFile, sessionID string, r identityRange, p *identityPart) error {
	if p.entries == nil {
		p.entries = make([]model.Entry, 0, min(r.to-r.from+1, 1<<22))
	}
	p.names = model.NewNames()
	if raw != nil && r.byRowid {
		if raw.identities(sessionID, r, p) == nil {
			testHookRawRead()
			p.sortBySeq()
			return nil
		}
		// Read again through SQL, from nothing.
		p.entries, p.need, p.unsorted, p.names = p.entries[:0], p.need[:0], false, model.NewNames()
	}
	// The subquery's ORDER BY (the index's or the table's order, no sort)
	// sets the order group_concat sees; add checks it.
	query := `SELECT group_concat(r, char(10)), count(*) FROM (SELECT ` + identityText + ` AS r
FROM transcript_event_identities WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq)`
	if r.byRowid {
		query = `SELECT group_concat(r, char(10)), count(*) FROM (SELECT ` + identityText + ` AS r
FROM transcript_event_identities NOT INDEXED WHERE rowid BETWEEN ?2 AND ?3 AND session_id = ?1 ORDER BY rowid)`
	}
	var text sql.NullString
	var rows int
	for lo := r.from; lo <= r.to; lo += identityChunk {
		chunk := identityRange{from: lo, to: min(r.to, lo+identityChunk-1), byRowid: r.byRowid}
		err := q.QueryRowContext(ctx, query, sessionID, chunk.from, chunk.to).Scan(&text, &rows)
		switch {
		case isTooBig(err):
			// Ids of kilobytes each.
			err = db.readIdentityRows(ctx, q, sessionID, chunk, p)
		case err == nil && !p.parseIdentities(readOnlyBytes(text.String), rows):
			err = db.readIdentityRows(ctx, q, sessionID, chunk, p)
		}
		if err != nil {
			return db.explain(err)
		}
	}
	p.sortBySeq()
	return nil
}

// readOnlyBytes is s without a copy, to be read only: a chunk of text is
// megabytes, scanned once (names kept from it are copied).
func readOnlyBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// parseIdentities adds the rows of one identityText chunk, or none and
// returns false when a field holds a separator or a seq is not a number
// (the row reader then says what is wrong).
func (p *identityPart) parseIdentities(text []byte, rows int) bool {
	if rows == 0 {
		return true
	}
	// Every line has its four separators and group_concat puts rows-1
	// newlines between them: more of either is in a field.
	if bytes.Count(text, []byte{'\n'}) != rows-1 || bytes.Count(text, []byte{' '}) != 4*rows {
		return false
	}
	entries, need, unsorted := len(p.entries), len(p.need), p.unsorted
	var fields [5][]byte
	for line := range bytes.SplitSeq(text, []byte{'\n'}) {
		for i := range 4 {
			j := bytes.IndexByte(line, ' ')
			fields[i], line = line[:j], line[j+1:]
		}
		fields[4] = line
		seq, ok1 := decimal(fields[0])
		created, ok2 := decimal(fields[1])
		if !ok1 || !ok2 {
			p.entries, p.need, p.unsorted = p.entries[:entries], p.need[:need], unsorted
			return false
		}
		parent, hasParent := bytes.CutSuffix(fields[4], []byte{'!'})
		p.add(seq, created, fields[2], fields[3], parent, hasParent)
	}
	return true
}

// decimal reads SQLite's text of an INTEGER.
func decimal(b []byte) (int64, bool) {
	digits := b
	if len(b) > 0 && b[0] == '-' {
		digits = b[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		n, err := strconv.ParseInt(string(b), 10, 64)
		return n, err == nil
	}
	var v int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if len(digits) < len(b) {
		v = -v
	}
	return v, true
}

// readIdentityRows reads the identities r covers row by row.
func (db *DB) readIdentityRows(ctx context.Context, q querier, sessionID string, r identityRange, p *identityPart) error {
	query := `SELECT seq, event_id, event_type, parent_id, created_at
FROM transcript_event_identities WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq`
	if r.byRowid {
		query = `SELECT seq, event_id, event_type, parent_id, created_at
FROM transcript_event_identities NOT INDEXED WHERE rowid BETWEEN ?2 AND ?3 AND session_id = ?1 ORDER BY rowid`
	}
	rows, err := q.QueryContext(ctx, query, sessionID, r.from, r.to)
	if err != nil {
		return db.explain(err)
	}
	defer rows.Close()
	var id, typ, parent []byte
	var seq int64
	var created sql.NullInt64
	for rows.Next() {
		parent = nil
		if err := rows.Scan(&seq, &id, &typ, &parent, &created); err != nil {
			return db.explain(err)
		}
		p.add(seq, created.Int64, typ, id, parent, parent != nil)
	}
	return db.explain(rows.Err())
}

// add appends one identity. An empty parent id reads as none: the body
// then says what it is.
func (p *identityPart) add(seq, created int64, typ, id, parent []byte, hasParent bool) {
	e := model.Entry{
		Offset: seq, Line: int32(seq), Type: model.ParseEntryType(string(typ)), TimeMs: model.NoTime,
		ID: p.names.InternBytes(id), Flags: model.FlagStringID | model.FlagParentKey,
	}
	if created > 0 {
		e.TimeMs = created
	}
	hasParent = hasParent && len(parent) > 0
	if hasParent {
		e.ParentID = p.names.InternBytes(parent)
	}
	if !hasParent || !bodyFree(e.Type) {
		p.need = append(p.need, seq)
	}
	if n := len(p.entries); n > 0 && seq < p.entries[n-1].Offset {
		p.unsorted = true
	}
	p.entries = append(p.entries, e)
}

// sortBySeq puts the entries in seq order should a query plan not have
// (equal seqs keep their order).
func (p *identityPart) sortBySeq() {
	if !p.unsorted {
		return
	}
	slices.SortStableFunc(p.entries, func(a, b model.Entry) int { return cmp.Compare(a.Offset, b.Offset) })
	slices.Sort(p.need)
	p.unsorted = false
}

// applyIdentities joins the parts (in seq order) into the transcript's
// entries and returns the seqs whose bodies hold tree facts: entries of
// other types than bodyFree ones, entries whose parent is null (or whose
// parentId key is missing: identities cannot tell) and events without an
// identity (the gaps between identity seqs).
func (db *DB) applyIdentities(ctx context.Context, q querier, t *Transcript, parts ...*identityPart) ([]int64, error) {
	var need []int64
	var gaps [][2]int64
	next, inOrder := int64(0), true
	for _, p := range parts {
		var remap []uint32
		for i := range p.names.Len() {
			// InternBytes as the part did (Intern would read "v1-…" as a v1 id).
			remap = append(remap, uint32(t.Names.InternBytes([]byte(p.names.Name(i)))))
		}
		for i := range p.entries {
			e := &p.entries[i]
			if e.Offset > next {
				gaps = append(gaps, [2]int64{next, e.Offset - 1})
			}
			inOrder = inOrder && e.Offset+1 >= next
			next = e.Offset + 1
			if remap != nil {
				e.ID, e.ParentID = model.Remap(e.ID, remap), model.Remap(e.ParentID, remap)
			}
		}
		n := len(t.Entries)
		switch {
		case t.Entries == nil:
			t.Entries = p.entries // the first part was read into the transcript's own slice
		case n < cap(t.Entries) && len(p.entries) > 0 && &t.Entries[:n+1][n] == &p.entries[0]:
			t.Entries = t.Entries[:n+len(p.entries)] // read in place, right after the part before
		default:
			t.Entries = append(t.Entries, p.entries...)
		}
		need = append(need, p.need...)
	}
	if !inOrder {
		// Parts read in the table's order, one ahead of the other in seq.
		slices.SortStableFunc(t.Entries, func(a, b model.Entry) int { return cmp.Compare(a.Offset, b.Offset) })
		gaps, next = nil, 0
		for _, e := range t.Entries {
			if e.Offset > next {
				gaps = append(gaps, [2]int64{next, e.Offset - 1})
			}
			next = e.Offset + 1
		}
	}
	if next <= t.LastSeq {
		gaps = append(gaps, [2]int64{next, t.LastSeq})
	}
	for _, g := range gaps {
		seqs, err := db.seqsBetween(ctx, q, t.SessionID, g[0], g[1])
		if err != nil {
			return nil, err
		}
		need = append(need, seqs...)
	}
	slices.Sort(need)
	return need, nil
}

func (db *DB) seqsBetween(ctx context.Context, q querier, sessionID string, from, to int64) ([]int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT seq FROM transcript_events WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq`, sessionID, from, to)
	if err != nil {
		return nil, db.explain(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var s int64
		if err := rows.Scan(&s); err != nil {
			return nil, db.explain(err)
		}
		out = append(out, s)
	}
	return out, db.explain(rows.Err())
}

// readFacts reads the events at seqs ([-1]: every event) and applies them
// (applyFact).
func (db *DB) readFacts(ctx context.Context, q querier, t *Transcript, seqs []int64) error {
	if len(seqs) == 1 && seqs[0] == -1 {
		rows, err := q.QueryContext(ctx, `SELECT `+db.eventColumns()+`, created_at FROM transcript_events WHERE session_id = ? ORDER BY seq`, t.SessionID)
		if err != nil {
			return db.explain(err)
		}
		return db.scanFacts(rows, func(r rawEvent) error { return db.applyFact(t, r) })
	}
	for part := range slices.Chunk(seqs, factChunk) {
		rs, err := db.fetchFacts(ctx, q, t.SessionID, part)
		if err != nil {
			return err
		}
		if err := db.applyFacts(t, rs); err != nil {
			return err
		}
	}
	return nil
}

// readFactsAndActive reads the fact rows at seqs and OpenClaw's active
// branch over both transactions: the second reads the branch, then both
// take chunks of fact rows as they come free. The rows are applied
// afterwards, in seq order.
func (db *DB) readFactsAndActive(ctx context.Context, first, second querier, raw *rawFile, t *Transcript, seqs []int64, active *activeBranch) error {
	if raw != nil && !(len(seqs) == 1 && seqs[0] == -1) {
		if span, ok := db.rowidSpan(ctx, first, "transcript_events", t.SessionID, t.LastSeq); ok {
			return db.readFactsRaw(ctx, first, raw, t, seqs, span, active)
		}
	}
	if second == nil {
		if err := db.readFacts(ctx, first, t, seqs); err != nil {
			return err
		}
		return db.readActive(ctx, first, raw, t.SessionID, t.LastSeq, active)
	}
	chunks := slices.Collect(slices.Chunk(seqs, factChunk))
	fetched := make([][]rawEvent, len(chunks))
	var next atomic.Int64
	work := func(q querier) error {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(chunks) {
				return nil
			}
			rs, err := db.fetchFacts(ctx, q, t.SessionID, chunks[i])
			if err != nil {
				next.Store(int64(len(chunks))) // the other stops at its next chunk
				return err
			}
			fetched[i] = rs
		}
	}
	done := make(chan error, 1)
	go func() {
		err := db.readActive(ctx, second, raw, t.SessionID, t.LastSeq, active)
		if err == nil {
			err = work(second)
		}
		done <- err
	}()
	if err := cmp.Or(work(first), <-done); err != nil {
		return err
	}
	for _, rs := range fetched {
		if err := db.applyFacts(t, rs); err != nil {
			return err
		}
	}
	return nil
}

// readFactsRaw reads the fact rows at seqs from the file, the session's
// events at rowids span.from..span.to in two halves at once, while the
// active branch is read; the seqs not found there are read through SQL, as
// are all of them when the file cannot be read so.
func (db *DB) readFactsRaw(ctx context.Context, q querier, raw *rawFile, t *Transcript, seqs []int64, span identityRange, active *activeBranch) error {
	mid := span.from + (span.to-span.from)/2
	var low, high []rawEvent
	var errLow, errHigh error
	done := make(chan struct{}, 2)
	go func() {
		high, errHigh = db.rawFacts(raw, t.SessionID, mid+1, span.to, seqs)
		done <- struct{}{}
	}()
	go func() {
		low, errLow = db.rawFacts(raw, t.SessionID, span.from, mid, seqs)
		done <- struct{}{}
	}()
	errActive := db.readActive(ctx, q, raw, t.SessionID, t.LastSeq, active)
	<-done
	<-done
	if errActive != nil {
		return errActive
	}
	if errLow != nil || errHigh != nil {
		return db.readFacts(ctx, q, t, seqs)
	}
	testHookRawRead()
	facts := append(low, high...)
	slices.SortStableFunc(facts, func(a, b rawEvent) int { return cmp.Compare(a.seq, b.seq) })
	facts, err := db.fetchRest(ctx, q, t.SessionID, seqs, facts)
	if err != nil {
		return err
	}
	return db.applyFacts(t, facts)
}

// factsAsText: fact rows are read as text (factLine); off, row by row (a
// variable for the tests).
var factsAsText = true

// factChunk is the most fact rows one query reads: few queries, and
// enough chunks to share between two connections.
const factChunk = 2048

// factLine is one transcript_events row as text, for group_concat, for the
// reason identityText gives: its seq, its created_at and its event_json,
// separated by spaces:
//
//	seq created_at event_json
//
// A row that is not plain JSON (compressed, or damaged with both bodies)
// or lacks created_at is NULL, which group_concat leaves out: such rows are
// read again as rows, as is a chunk whose event_json holds a newline.
func (db *DB) factLine() string {
	line := `seq || ' ' || created_at || ' ' || event_json`
	if db.Layout.Compressed {
		line = `iif(event_zstd IS NULL, ` + line + `, NULL)`
	}
	return line
}

// fetchFacts reads the events at seqs (sorted, at most factChunk of them),
// in seq order: as one text (factLine), and the rows it leaves out one by
// one.
func (db *DB) fetchFacts(ctx context.Context, q querier, sessionID string, seqs []int64) ([]rawEvent, error) {
	if !factsAsText {
		return db.fetchFactRows(ctx, q, sessionID, seqs)
	}
	var text sql.NullString
	var rows int
	// The subquery's ORDER BY sets the order group_concat sees (the
	// index's order: no sort).
	err := q.QueryRowContext(ctx, `SELECT group_concat(r, char(10)), count(r) FROM (SELECT `+db.factLine()+` AS r
FROM transcript_events WHERE session_id = ? AND seq IN (SELECT value FROM json_each(?)) ORDER BY seq)`, sessionID, jsonArray(seqs)).Scan(&text, &rows)
	var out []rawEvent
	ok := false
	switch {
	case isTooBig(err):
		// Events of megabytes each: read them as rows.
	case err != nil:
		return nil, db.explain(err)
	default:
		out, ok = parseFactText(text.String, rows, make([]rawEvent, 0, len(seqs)))
	}
	if !ok {
		return db.fetchFactRows(ctx, q, sessionID, seqs)
	}
	// Compressed rows, and seqs with no event.
	return db.fetchRest(ctx, q, sessionID, seqs, out)
}

// fetchRest adds to out (events at some of seqs, both in seq order) the
// events at the other seqs, read row by row, in seq order.
func (db *DB) fetchRest(ctx context.Context, q querier, sessionID string, seqs []int64, out []rawEvent) ([]rawEvent, error) {
	if len(out) == len(seqs) {
		return out, nil
	}
	var rest []int64
	i := 0
	for _, s := range seqs {
		if i < len(out) && out[i].seq == s {
			i++
			continue
		}
		rest = append(rest, s)
	}
	more, err := db.fetchFactRows(ctx, q, sessionID, rest)
	if err != nil {
		return nil, err
	}
	out = append(out, more...)
	slices.SortStableFunc(out, func(a, b rawEvent) int { return cmp.Compare(a.seq, b.seq) })
	return out, nil
}

// jsonArray is seqs as a JSON array, for json_each: one bound value
// instead of one per seq.
func jsonArray(seqs []int64) string {
	b := make([]byte, 0, 8*len(seqs)+2)
	b = append(b, '[')
	for i, s := range seqs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, s, 10)
	}
	return string(append(b, ']'))
}

// parseFactText appends the rows of one factLine chunk of rows lines to
// out, or returns out as it was and false when the text is not that many
// lines of a seq, a created_at and the event (an event_json with a
// newline in it), or its seqs are not increasing. The events are slices
// of text.
func parseFactText(text string, rows int, out []rawEvent) ([]rawEvent, bool) {
	if rows == 0 {
		return out, text == ""
	}
	// group_concat puts rows-1 newlines between the lines: more are in
	// an event.
	if strings.Count(text, "\n") != rows-1 {
		return out, false
	}
	n := len(out)
	for line := range strings.SplitSeq(text, "\n") {
		seqText, rest, ok1 := strings.Cut(line, " ")
		createdText, event, ok2 := strings.Cut(rest, " ")
		seq, ok3 := decimal(readOnlyBytes(seqText))
		created, ok4 := decimal(readOnlyBytes(createdText))
		if !ok1 || !ok2 || !ok3 || !ok4 || len(out) > n && seq <= out[len(out)-1].seq {
			return out[:n], false
		}
		out = append(out, rawEvent{seq: seq, json: sql.NullString{String: event, Valid: true}, createdAt: sql.NullInt64{Int64: created, Valid: true}})
	}
	return out, true
}

// fetchFactRows reads the events at seqs row by row.
func (db *DB) fetchFactRows(ctx context.Context, q querier, sessionID string, seqs []int64) ([]rawEvent, error) {
	out := make([]rawEvent, 0, len(seqs))
	err := inChunks(seqs, func(part []int64, ph string) error {
		rows, err := q.QueryContext(ctx, `SELECT `+db.eventColumns()+`, created_at FROM transcript_events WHERE session_id = ? AND seq IN (`+ph+`) ORDER BY seq`,
			append([]any{sessionID}, anys(part)...)...)
		if err != nil {
			return db.explain(err)
		}
		return db.scanFacts(rows, func(r rawEvent) error {
			out = append(out, r)
			return nil
		})
	})
	return out, err
}

func (db *DB) scanFacts(rows *sql.Rows, fn func(rawEvent) error) error {
	defer rows.Close()
	for rows.Next() {
		var r rawEvent
		if err := rows.Scan(&r.seq, &r.json, &r.zstd, &r.utf8Bytes, &r.navigation, &r.createdAt); err != nil {
			return db.explain(err)
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return db.explain(rows.Err())
}

func (db *DB) applyFacts(t *Transcript, rs []rawEvent) error {
	for _, r := range rs {
		if err := db.applyFact(t, r); err != nil {
			return err
		}
	}
	return nil
}

// applyFact sniffs an event as a JSONL line is sniffed, for the tree facts
// its identity lacks. A compressed row is read from its navigation
// projection (the tree fields OpenClaw keeps beside the frame) when it has
// one, so no frame is decompressed to build a tree.
func (db *DB) applyFact(t *Transcript, r rawEvent) error {
	text, fromNavigation, err := db.factText(r)
	if err != nil {
		return err
	}
	t.FactRows++
	info, ok := transcript.SniffLine(text)
	pos, exists := t.Position(r.seq)
	if !ok {
		// Not a JSON object: an entry of no type, outside the tree.
		if !exists {
			t.insert(pos, model.Entry{Offset: r.seq, Line: int32(r.seq), TimeMs: model.NoTime})
		}
		return nil
	}
	e, f, hasFacts := info.Entry(text, r.seq, int32(r.seq), t.Names)
	e.Length = 0
	if exists {
		old := t.Entries[pos]
		if e.TimeMs == model.NoTime {
			e.TimeMs = old.TimeMs
		}
		if old.ID != model.NoID {
			e.ID = old.ID // identities trim ids, as OpenClaw's tree does
		}
		t.Entries[pos] = e
	} else {
		if r.createdAt.Valid && e.TimeMs == model.NoTime {
			e.TimeMs = r.createdAt.Int64
		}
		t.insert(pos, e)
	}
	if fromNavigation {
		// The projection leaves long fields out; a compressed row holds
		// at least a kibibyte, so its summary is not empty.
		switch e.Type {
		case model.TypeBranchSummary:
			f.HasSummary = true
		case model.TypeContextEdit:
			f.ReplacementNull = false
		}
	}
	if hasFacts {
		t.Facts[pos] = f
	}
	if e.Type == model.TypeSession && pos == 0 {
		t.HeaderJSON = append([]byte(nil), text...)
		t.readHeader(text)
	}
	return nil
}

// factText is the JSON an event's tree facts are read from.
func (db *DB) factText(r rawEvent) (text []byte, fromNavigation bool, err error) {
	if !r.json.Valid && r.navigation.Valid {
		var nav struct {
			Navigation json.RawMessage `json:"navigation"`
		}
		if json.Unmarshal([]byte(r.navigation.String), &nav) == nil && len(nav.Navigation) > 0 && nav.Navigation[0] == '{' {
			return nav.Navigation, true, nil
		}
	}
	text, err = r.decode()
	return text, false, err
}

func (t *Transcript) insert(pos int32, e model.Entry) {
	if int(pos) == len(t.Entries) {
		t.Entries = append(t.Entries, e)
		return
	}
	t.Entries = slices.Insert(t.Entries, int(pos), e)
	if len(t.Facts) > 0 {
		moved := map[int32]model.TreeFacts{}
		for k, v := range t.Facts {
			if k >= pos {
				k++
			}
			moved[k] = v
		}
		t.Facts = moved
	}
}

func (t *Transcript) readHeader(text []byte) {
	h, ok := transcript.DecodeHeader(text)
	if !ok {
		return
	}
	t.HeaderOK, t.Header = true, h
	if h.Version > 0 {
		t.Version = h.Version
	} else {
		t.Header.Version = 0
	}
}

// activeBranch is OpenClaw's active branch as read, applied to the
// transcript after its fact rows (which replace entries).
type activeBranch struct {
	seqs     []int64
	excluded []int64 // context_eligible 0
	known    bool
	note     string
}

// readActive reads OpenClaw's active events, and the messages it leaves out
// of the context (context_eligible 0: excludeFromContext, which identities
// do not hold). It touches nothing of the transcript: the fact rows may be
// read at the same time.
func (db *DB) readActive(ctx context.Context, q querier, raw *rawFile, sessionID string, lastSeq int64, a *activeBranch) error {
	if !db.Layout.ActiveEvents {
		a.note = "this store has no session_transcript_active_events table"
		return nil
	}
	if db.Layout.IndexState {
		var indexed sql.NullInt64
		var rebuild sql.NullInt64
		err := q.QueryRowContext(ctx, `SELECT indexed_seq, needs_rebuild FROM session_transcript_index_state WHERE session_id = ?`, sessionID).Scan(&indexed, &rebuild)
		switch {
		case err == sql.ErrNoRows:
			a.note = "OpenClaw has not indexed this transcript yet"
			return nil
		case err != nil:
			return db.explain(err)
		case rebuild.Int64 != 0:
			a.note = "OpenClaw has marked its index of this transcript for a rebuild"
			return nil
		case indexed.Int64 < lastSeq:
			a.note = fmt.Sprintf("OpenClaw's index of this transcript stops at seq %d of %d", indexed.Int64, lastSeq)
			return nil
		}
	}
	var last sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT max(active_position) FROM session_transcript_active_events WHERE session_id = ?`, sessionID).Scan(&last); err != nil {
		return db.explain(err)
	}
	a.seqs = make([]int64, 0, min(lastSeq+1, 1<<22))
	a.known = true
	if !last.Valid {
		return nil
	}
	if inTableOrder, err := db.readActiveInTableOrder(ctx, q, raw, sessionID, last.Int64, a); inTableOrder || err != nil {
		return err
	}
	var text sql.NullString
	for lo := int64(0); lo <= last.Int64; lo += activeChunk {
		// As text, in chunks: "seq" or "seqx" (context_eligible 0), comma
		// separated, in the order of the subquery's ORDER BY (the primary
		// key's order, no sort), for the reason identityText gives.
		err := q.QueryRowContext(ctx, `SELECT group_concat(r, ',') FROM (SELECT iif(context_eligible = 0, event_seq || 'x', event_seq) AS r
FROM session_transcript_active_events WHERE session_id = ? AND active_position BETWEEN ? AND ? ORDER BY active_position)`,
			sessionID, lo, min(last.Int64, lo+activeChunk-1)).Scan(&text)
		if err != nil {
			return db.explain(err)
		}
		if err := a.parse(readOnlyBytes(text.String)); err != nil {
			return db.explain(err)
		}
	}
	return nil
}

// readActiveInTableOrder reads OpenClaw's branch in the table's order when
// the session's rows lie there side by side in position order, as OpenClaw
// writes its projection: the walk of the primary key looks every row up in
// the table. The branch is whole when every row read has active_position -
// rowid the first position's and every rowid up to the last position's
// holds one: then each position from the first to the last is there, and,
// positions being the primary key, no other row of the session is. It
// returns false, having kept nothing, when the rows lie otherwise.
func (db *DB) readActiveInTableOrder(ctx context.Context, q querier, raw *rawFile, sessionID string, last int64, a *activeBranch) (bool, error) {
	var first, firstRowid int64
	err := q.QueryRowContext(ctx, `SELECT active_position, rowid FROM session_transcript_active_events WHERE session_id = ? ORDER BY active_position LIMIT 1`,
		sessionID).Scan(&first, &firstRowid)
	if err != nil {
		// No row (the branch was rewritten meanwhile), or a table without
		// rowids: the primary key's walk says.
		return false, nil
	}
	offset := first - firstRowid
	if raw != nil {
		if inOrder, err := raw.activeInTableOrder(sessionID, firstRowid, last-offset, offset, a); err == nil {
			return inOrder, nil
		}
	}
	var text sql.NullString
	var minOffset, maxOffset sql.NullInt64
	for lo := firstRowid; lo <= last-offset; lo += activeChunk {
		hi := min(last-offset, lo+activeChunk-1)
		// As readActive's text, with the spread of active_position - rowid.
		err := q.QueryRowContext(ctx, `SELECT group_concat(r, ','), min(d), max(d) FROM (SELECT iif(context_eligible = 0, event_seq || 'x', event_seq) AS r,
active_position - rowid AS d FROM session_transcript_active_events NOT INDEXED WHERE rowid BETWEEN ?2 AND ?3 AND session_id = ?1 ORDER BY rowid)`,
			sessionID, lo, hi).Scan(&text, &minOffset, &maxOffset)
		if err != nil {
			return false, db.explain(err)
		}
		n := len(a.seqs)
		if minOffset.Int64 != offset || maxOffset.Int64 != offset || !minOffset.Valid || a.parse(readOnlyBytes(text.String)) != nil || int64(len(a.seqs)-n) != hi-lo+1 {
			a.seqs, a.excluded = a.seqs[:0], a.excluded[:0]
			return false, nil
		}
	}
	return true, nil
}

// activeChunk is the most positions one query of the active branch covers:
// its text is about a hundred kilobytes (see identityChunk).
const activeChunk = 1 << 14

// parse adds the events of one chunk of the active branch.
func (a *activeBranch) parse(text []byte) error {
	for i := 0; i < len(text); i++ {
		start := i
		for i < len(text) && text[i] != ',' && text[i] != 'x' {
			i++
		}
		seq, ok := decimal(text[start:i])
		if !ok {
			// What SQLite does not print ("+7", a text event_seq).
			var err error
			if seq, err = strconv.ParseInt(string(text[start:i]), 10, 64); err != nil {
				return fmt.Errorf("session_transcript_active_events text unreadable at byte %d of %d", start, len(text))
			}
		}
		a.seqs = append(a.seqs, seq)
		if i < len(text) && text[i] == 'x' {
			a.excluded = append(a.excluded, seq)
			i++
		}
	}
	return nil
}

// applyActive keeps OpenClaw's branch and marks the messages it leaves out
// of the context.
func (t *Transcript) applyActive(a *activeBranch) {
	t.Active, t.ActiveKnown, t.ActiveNote = a.seqs, a.known, a.note
	for _, seq := range a.excluded {
		if pos, ok := t.Position(seq); ok && t.Entries[pos].Type == model.TypeMessage {
			t.Entries[pos].Flags |= model.FlagExcludeContext
		}
	}
}

// readRoles reads the message roles of the entries at positions.
func (db *DB) readRoles(ctx context.Context, q querier, t *Transcript, positions []int32) error {
	var seqs []int64
	for _, p := range positions {
		if e := &t.Entries[p]; e.Type == model.TypeMessage && e.Role == model.RoleNone {
			seqs = append(seqs, e.Offset)
		}
	}
	return inChunks(seqs, func(part []int64, ph string) error {
		rows, err := q.QueryContext(ctx, `SELECT `+db.eventColumns()+` FROM transcript_events WHERE session_id = ? AND seq IN (`+ph+`)`,
			append([]any{t.SessionID}, anys(part)...)...)
		if err != nil {
			return db.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanEvent(rows)
			if err != nil {
				return db.explain(err)
			}
			text, _, err := db.factText(r)
			if err != nil {
				return err
			}
			if info, ok := transcript.SniffLine(text); ok {
				e, _, _ := info.Entry(text, r.seq, int32(r.seq), t.Names)
				if pos, ok := t.Position(r.seq); ok {
					t.Entries[pos].Role = e.Role
				}
			}
		}
		return db.explain(rows.Err())
	})
}

// compareActive checks our active path against OpenClaw's persisted one.
func (t *Transcript) compareActive(db *DB) {
	if !t.ActiveKnown {
		return
	}
	// The seqs of our path are compared in place: a copy of 700,000 of
	// them was fresh memory, a page fault per 512.
	ours := t.Tree.ActivePath
	k := 0
	for k < len(ours) && k < len(t.Active) && t.Entries[ours[k]].Offset == t.Active[k] {
		k++
	}
	if k == len(ours) && k == len(t.Active) {
		return
	}
	t.ActiveDiffers = true
	var where []string
	if k < len(t.Active) {
		where = append(where, fmt.Sprintf("OpenClaw's continues with seq %d", t.Active[k]))
	} else {
		where = append(where, "OpenClaw's ends there")
	}
	if k < len(ours) {
		where = append(where, fmt.Sprintf("ours with seq %d", t.Entries[ours[k]].Offset))
	} else {
		where = append(where, "ours ends there")
	}
	t.ActiveNote = fmt.Sprintf("OpenClaw's active branch (%d events, in %s) differs from ours (%d events) after %d shared events: %s",
		len(t.Active), db.Path, len(ours), k, strings.Join(where, ", "))
}

// Index presents the transcript as a line index, for the readers written
// for JSONL (the tree command, the TUI): every event is an entry at its seq
// (Offset and Line), the size is the JSONL-equivalent one, and there is no
// malformed line or torn tail (SQLite keeps whole events only). Path names
// the store and the session: <store>#<session id>.
func (t *Transcript) Index(store string, size int64) *transcript.Index {
	ix := &transcript.Index{
		Path: store + "#" + t.SessionID, Size: size, End: size, Lines: int32(len(t.Entries)),
		Entries: t.Entries, Facts: t.Facts, Names: t.Names, Header: t.Header, HeaderOK: t.HeaderOK,
		Version: t.Version, Tree: t.Tree, Validated: true,
	}
	return ix
}
