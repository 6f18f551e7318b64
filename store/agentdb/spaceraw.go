package agentdb

import (
	"cmp"
	"context"
	"database/sql"
	"math"
	"slices"
	"strings"

	"clawvault-tui/store/sqlitefile"
)

// Space's bulk reads go to the file itself when it can be read so (as a
// status's do, rawfile.go): every b-tree's pages counted by walking its
// interior and leaf pages, overflow pages counted from the cells' sizes
// (sqlitefile.PageCount, which agrees with dbstat); the events read in two
// halves at once, each body's kind from the start of its text on the leaf
// page, and the whole body read only where an image may be.

// rawObjectBytes counts every b-tree of the schema from the file;
// eventsOverflow is the overflow pages of the events' rows, as the events'
// pass counted them (-1: not counted).
func (db *DB) rawObjectBytes(ctx context.Context, tx *sql.Tx, f *sqlitefile.File, eventsOverflow int64) ([]SpaceObject, error) {
	rows, err := tx.QueryContext(ctx, `SELECT name, type, tbl_name, rootpage FROM sqlite_schema WHERE rootpage > 0 AND type IN ('table', 'index')`)
	if err != nil {
		return nil, db.explain(err)
	}
	defer rows.Close()
	out := []SpaceObject{{Name: "sqlite_schema", Type: "table", Table: "sqlite_schema"}}
	roots := []uint32{1}
	for rows.Next() {
		var o SpaceObject
		var root int64
		if err := rows.Scan(&o.Name, &o.Type, &o.Table, &root); err != nil {
			return nil, db.explain(err)
		}
		if root > math.MaxUint32 {
			return nil, errNotRaw
		}
		out, roots = append(out, o), append(roots, uint32(root))
	}
	if err := rows.Err(); err != nil {
		return nil, db.explain(err)
	}
	if err := treePages(ctx, f, out, roots, eventsOverflow); err != nil {
		return nil, err
	}
	testHookRawRead()
	slices.SortFunc(out, func(a, b SpaceObject) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), strings.Compare(a.Name, b.Name))
	})
	return out, nil
}

// testHookLeavesWalked runs when treePages walks the trees' leaves.
var testHookLeavesWalked = func() {}

// treePages sets each tree's bytes, out[i]'s of the tree at roots[i].
func treePages(ctx context.Context, f *sqlitefile.File, out []SpaceObject, roots []uint32, eventsOverflow int64) error {
	total, free, ptrmaps, err := f.Pages()
	if err != nil {
		return err
	}
	if f.LockBytePage() > 0 {
		free++ // no b-tree's either
	}
	events := slices.IndexFunc(out, func(o SpaceObject) bool { return o.Name == "transcript_events" })
	if events < 0 || ptrmaps {
		eventsOverflow = -1
	}
	// First the trees' pages without their leaves' overflow, reading no
	// leaf: when they, the events' overflow, the free pages and the
	// lock-byte page are every page of the file, no other tree's leaf
	// cell overflows, and these are the trees' pages.
	if eventsOverflow >= 0 {
		counted, whole := eventsOverflow, true
		for i, root := range roots {
			if err := ctx.Err(); err != nil {
				return err
			}
			pages, err := f.InteriorPageCount(root)
			if err != nil {
				whole = false
				break
			}
			counted += pages
			out[i].Bytes = pages * int64(f.PageSize())
		}
		if whole && counted+free == total {
			out[events].Bytes += eventsOverflow * int64(f.PageSize())
			return nil
		}
	}
	// Else every other tree is walked to its leaves, and the events
	// table, most of the file, takes the pages no other tree and no free
	// page holds (unless the file keeps pointer maps, or the remainder is
	// no tree's size, a damaged file, when it is walked too).
	testHookLeavesWalked()
	var counted int64
	for i, root := range roots {
		if err := ctx.Err(); err != nil {
			return err
		}
		if i == events && !ptrmaps {
			continue
		}
		pages, err := f.PageCount(root)
		if err != nil {
			return err
		}
		counted += pages
		out[i].Bytes = pages * int64(f.PageSize())
	}
	if events >= 0 && !ptrmaps {
		rest := total - counted - free
		if rest < 1 {
			if rest, err = f.PageCount(roots[events]); err != nil {
				return err
			}
		}
		out[events].Bytes = rest * int64(f.PageSize())
	}
	return nil
}

// spaceTally is one half's share of the events' pass.
type spaceTally struct {
	// overflow is the rows' overflow pages.
	events, bytes, overflow int64
	byKind                  map[string]int64
	sessions                map[string]*SessionSpace
}

// rawEventKinds is eventKinds read from the file, in two halves at once,
// and the overflow pages of the events' rows; false when the file cannot
// be read so (then SQL reads it).
func (db *DB) rawEventKinds(ctx context.Context, tx *sql.Tx, raw *rawFile, s *Space) (map[string]*SessionSpace, int64, bool) {
	cols := []string{"session_id", "event_json"}
	if db.Layout.Compressed {
		cols = append(cols, "event_zstd", "event_utf8_bytes")
	}
	t, c, ok := raw.table("transcript_events", cols...)
	var lo, hi sql.NullInt64
	if !ok || tx.QueryRowContext(ctx, rowidBounds).Scan(&lo, &hi) != nil {
		return nil, 0, false
	}
	if !lo.Valid {
		return map[string]*SessionSpace{}, 0, true
	}
	mid := lo.Int64 + (hi.Int64-lo.Int64)/2
	var high spaceTally
	var errHigh error
	done := make(chan struct{})
	go func() {
		high, errHigh = rawTally(ctx, raw, t, c, mid+1, math.MaxInt64)
		close(done)
	}()
	low, errLow := rawTally(ctx, raw, t, c, math.MinInt64, mid)
	<-done
	var count int64
	if errLow != nil || errHigh != nil || tx.QueryRowContext(ctx, `SELECT count(*) FROM transcript_events`).Scan(&count) != nil || count != low.events+high.events {
		return nil, 0, false
	}
	for _, part := range []spaceTally{low, high} {
		s.Events += part.events
		s.EventBytes += part.bytes
		for k, n := range part.byKind {
			s.ByKind[k] += n
		}
	}
	for id, h := range high.sessions {
		if l := low.sessions[id]; l != nil {
			l.Events += h.Events
			l.Bytes += h.Bytes
		} else {
			low.sessions[id] = h
		}
	}
	testHookRawRead()
	return low.sessions, low.overflow + high.overflow, true
}

// rawTally tallies the events at rowids lo..hi: c are the places of
// session_id, event_json and, in a store that compresses, event_zstd and
// event_utf8_bytes.
func rawTally(ctx context.Context, raw *rawFile, t rawTable, c []int, lo, hi int64) (spaceTally, error) {
	out := spaceTally{byKind: map[string]int64{}, sessions: map[string]*SessionSpace{}}
	var cur *SessionSpace
	var curID []byte
	err := raw.file.ScanTable(t.root, lo, hi, func(_ int64, rec *sqlitefile.Record) error {
		id := rec.Prefix(c[0], 256)
		if rec.Kind(c[0]) != sqlitefile.Text || len(id) < rec.Size(c[0]) {
			return errNotRaw
		}
		if cur == nil || string(id) != string(curID) {
			if cur = out.sessions[string(id)]; cur == nil {
				cur = &SessionSpace{SessionID: string(id)}
				out.sessions[string(id)] = cur
			}
			curID = append(curID[:0], id...)
		}
		kind, size, images, err := rawEventKind(rec, c)
		if err != nil {
			return err
		}
		out.byKind[kind] += size - images
		if images > 0 {
			out.byKind[KindImage] += images
		}
		out.events++
		out.bytes += size
		out.overflow += rec.OverflowPages()
		cur.Events++
		cur.Bytes += size
		if out.events%4096 == 0 {
			return ctx.Err()
		}
		return nil
	})
	return out, err
}

// rawEventKind is one event's kind, size and image bytes: a compressed one
// decoded whole; a plain one's kind from the start of its text on the leaf
// page, read whole only when its kind may hold an image (a message of the
// user or a tool, a custom entry) or its start does not name its kind.
func rawEventKind(rec *sqlitefile.Record, c []int) (kind string, size, images int64, err error) {
	if len(c) > 2 && rec.Kind(c[2]) == sqlitefile.Blob {
		z, err := rec.Bytes(c[2])
		if err != nil {
			return "", 0, 0, err
		}
		utf8Bytes, err := nullInt(rec, c[3])
		if err != nil {
			return "", 0, 0, err
		}
		body, err := DecodeEvent(0, nil, false, z, utf8Bytes)
		if err != nil {
			return "", 0, 0, err
		}
		return eventKind(body), int64(len(body)), imageBytes(body), nil
	}
	if rec.Kind(c[1]) != sqlitefile.Text {
		return "", 0, 0, errNotRaw
	}
	size = int64(rec.Size(c[1]))
	kind = eventKind(rec.Prefix(c[1], 4096))
	if !mayHoldImage(kind) {
		return kind, size, 0, nil
	}
	body, err := rec.Bytes(c[1])
	if err != nil {
		return "", 0, 0, err
	}
	return eventKind(body), size, imageBytes(body), nil
}

// mayHoldImage: an event of this kind may carry image blocks (or its kind
// was not named by the start of its text).
func mayHoldImage(kind string) bool {
	switch {
	case kind == "message:user", kind == "message:toolResult", kind == "message", kind == "(no type)",
		strings.HasPrefix(kind, "custom"), strings.HasPrefix(kind, "message:custom"):
		return true
	}
	return false
}
