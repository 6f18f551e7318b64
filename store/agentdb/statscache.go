package agentdb

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Sizing every session aggregates every event row: SQLite reads the whole
// table (1 GB of events is seconds), where a status of transcript files only
// stats them. The stats cache keeps each session's aggregates between runs,
// keyed by what OpenClaw changes on every write to a transcript: the
// window's transcript_updated_at (strictly increasing with each mutation),
// its updated_at and the rewrite generation. A session whose key is
// unchanged is not read at all; one that changed is read from its last
// counted event on, once that event is found unchanged (an append), else in
// full. The cache is a file of ours in the user's cache folder; deleting it
// costs one full aggregate.

// statsCacheVersion names the format below.
const statsCacheVersion = "clawvault-tui agent store stats 2"

// cachedStats is one session's line: its key, its aggregates, and the last
// counted event (seq, created_at, bytes) that an append leaves in place.
type cachedStats struct {
	key                           string
	events, bytes, last           int64
	lastCreatedAt, lastEventBytes int64
}

// StatsCacheFile is the cache file of a store under cacheDir.
func StatsCacheFile(cacheDir, store string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(store)))
	return filepath.Join(cacheDir, "agent-stores", filepath.Base(filepath.Dir(filepath.Dir(store)))+"-"+hex.EncodeToString(sum[:6])+".stats")
}

// CacheReport says how the cached aggregates were used.
type CacheReport struct {
	Unchanged, Appended, Recounted int
}

// CachedStats is Stats through the cache file at cachePath ("" reads every
// session, as Stats does). after maps a session id to its last observed
// seq: pending events are counted by a range query from there.
func (db *DB) CachedStats(ctx context.Context, cachePath string, after map[string]int64) (map[string]Stats, CacheReport, error) {
	var rep CacheReport
	if cachePath == "" {
		s, err := db.Stats(ctx, after)
		return s, rep, err
	}
	keys, err := db.windowKeys(ctx)
	if err != nil {
		return nil, rep, err
	}
	cache := readStatsCache(cachePath)
	out := make(map[string]Stats, len(keys))
	var recount []string
	for id, key := range keys {
		c, ok := cache[id]
		switch {
		case ok && c.key == key:
			rep.Unchanged++
		case ok && c.events > 0:
			grown, appended, err := db.appended(ctx, id, c)
			if err != nil {
				return nil, rep, err
			}
			if !appended {
				recount = append(recount, id)
				continue
			}
			c = grown
			rep.Appended++
		default:
			recount = append(recount, id)
			continue
		}
		c.key = key
		cache[id] = c
		out[id] = Stats{Events: c.events, Bytes: c.bytes, LastSeq: c.last}
	}
	if len(recount) > 0 {
		rep.Recounted = len(recount)
		var bulk map[string]cachedStats
		if len(recount) > len(keys)/4 {
			// Many sessions: one pass over the table beats a range per
			// session, and brings each last event's mark with it.
			if bulk, err = db.bulkStats(ctx); err != nil {
				return nil, rep, err
			}
		}
		for _, id := range recount {
			c := bulk[id] // the zero value for a session with no events
			if bulk == nil {
				s, err := db.SessionStats(ctx, id, -1)
				if err != nil {
					return nil, rep, err
				}
				c = cachedStats{events: s.Events, bytes: s.Bytes, last: s.LastSeq}
				if s.Events > 0 {
					if c.lastCreatedAt, c.lastEventBytes, err = db.eventMark(ctx, id, s.LastSeq); err != nil {
						return nil, rep, err
					}
				}
			}
			c.key = keys[id]
			out[id] = Stats{Events: c.events, Bytes: c.bytes, LastSeq: c.last}
			cache[id] = c
		}
	}
	for id := range cache {
		if _, ok := keys[id]; !ok {
			delete(cache, id)
		}
	}
	// Pending events follow each seq cursor: a range of the new rows only.
	if err := db.addPending(ctx, out, after); err != nil {
		return nil, rep, err
	}
	if rep.Appended+rep.Recounted > 0 || len(cache) != rep.Unchanged {
		writeStatsCache(cachePath, cache)
	}
	return out, rep, nil
}

// windowKeys reads what changes with every write to each session's
// transcript.
func (db *DB) windowKeys(ctx context.Context) (map[string]string, error) {
	wc := db.Layout.windowColumns
	col := func(name string) string {
		if wc[name] {
			return "w." + name
		}
		return "NULL"
	}
	q := `SELECT w.session_id, ` + col("transcript_updated_at") + `, ` + col("updated_at")
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
	keys := map[string]string{}
	for rows.Next() {
		var id string
		var tu, u sql.NullInt64
		var gen sql.NullString
		if err := rows.Scan(&id, &tu, &u, &gen); err != nil {
			return nil, db.explain(err)
		}
		sum := sha256.Sum256(fmt.Appendf(nil, "%d/%d/%s", tu.Int64, u.Int64, gen.String))
		keys[id] = hex.EncodeToString(sum[:8])
	}
	return keys, db.explain(rows.Err())
}

// eventMark is what identifies one stored event: its created_at and size.
func (db *DB) eventMark(ctx context.Context, sessionID string, seq int64) (createdAt, size int64, err error) {
	var c, b sql.NullInt64
	err = db.db.QueryRowContext(ctx, `SELECT created_at, `+db.utf8Bytes("e")+` FROM transcript_events e WHERE session_id = ? AND seq = ?`, sessionID, seq).Scan(&c, &b)
	if err == sql.ErrNoRows {
		return -1, -1, nil
	}
	return c.Int64, b.Int64, db.explain(err)
}

// appended counts the events after the last cached one, when that one is
// still in place (the transcript only grew). One query checks the cached
// last event's mark, counts the rows after it (a range of the primary
// key) and reads the new last event's mark: a status on a store the
// gateway is writing runs it for every session that grew.
func (db *DB) appended(ctx context.Context, sessionID string, c cachedStats) (cachedStats, bool, error) {
	size := db.utf8Bytes("e")
	var oldCreated, oldSize, n, bytes, last, newCreated, newSize sql.NullInt64
	err := db.db.QueryRowContext(ctx, `SELECT
  (SELECT created_at FROM transcript_events e WHERE e.session_id = ?1 AND e.seq = ?2),
  (SELECT `+size+` FROM transcript_events e WHERE e.session_id = ?1 AND e.seq = ?2),
  count(*), sum(`+db.eventBytes("e")+`), max(e.seq),
  (SELECT created_at FROM transcript_events e WHERE e.session_id = ?1 ORDER BY e.seq DESC LIMIT 1),
  (SELECT `+size+` FROM transcript_events e WHERE e.session_id = ?1 ORDER BY e.seq DESC LIMIT 1)
FROM transcript_events e WHERE e.session_id = ?1 AND e.seq > ?2`, sessionID, c.last).
		Scan(&oldCreated, &oldSize, &n, &bytes, &last, &newCreated, &newSize)
	if err != nil {
		return c, false, db.explain(err)
	}
	if !oldCreated.Valid || oldCreated.Int64 != c.lastCreatedAt || oldSize.Int64 != c.lastEventBytes {
		return c, false, nil
	}
	if n.Int64 == 0 {
		return c, true, nil
	}
	c.events += n.Int64
	c.bytes += bytes.Int64
	c.last = last.Int64
	c.lastCreatedAt, c.lastEventBytes = newCreated.Int64, newSize.Int64
	return c, true, nil
}

// readStatsCache reads the cache; anything that does not parse is
// ignored (the sessions are counted again).
func readStatsCache(path string) map[string]cachedStats {
	out := map[string]cachedStats{}
	data, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(data, []byte(statsCacheVersion+"\n")) {
		return out
	}
	sc := bufio.NewScanner(bytes.NewReader(data[len(statsCacheVersion)+1:]))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 7 {
			continue
		}
		var n [5]int64
		ok := true
		for i := range n {
			v, err := strconv.ParseInt(f[2+i], 10, 64)
			n[i], ok = v, ok && err == nil
		}
		if ok {
			out[f[0]] = cachedStats{key: f[1], events: n[0], bytes: n[1], last: n[2], lastCreatedAt: n[3], lastEventBytes: n[4]}
		}
	}
	return out
}

// writeStatsCache writes the cache through a temporary file and a rename;
// a cache that cannot be written is no error (the next run counts again).
func writeStatsCache(path string, cache map[string]cachedStats) {
	ids := make([]string, 0, len(cache))
	for id := range cache {
		if !strings.ContainsAny(id, " \n") {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	var b bytes.Buffer
	b.WriteString(statsCacheVersion + "\n")
	for _, id := range ids {
		c := cache[id]
		fmt.Fprintf(&b, "%s %s %d %d %d %d %d\n", id, c.key, c.events, c.bytes, c.last, c.lastCreatedAt, c.lastEventBytes)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".stats-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(b.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}
