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
	if cachePath == "" {
		s, err := db.Stats(ctx, after)
		return s, CacheReport{}, err
	}
	windows, err := db.Windows(ctx)
	if err != nil {
		return nil, CacheReport{}, err
	}
	return db.CachedStatsOf(ctx, cachePath, windows, after)
}

// changeKey is what OpenClaw changes on every write to a session's
// transcript: the window's transcript_updated_at (strictly increasing with
// each mutation), its updated_at and the rewrite generation.
type changeKey struct {
	transcriptUpdatedAt, updatedAt int64
	generation                     string
}

// String is the key as the cache file keeps it.
func (k changeKey) String() string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%d/%d/%s", k.transcriptUpdatedAt, k.updatedAt, k.generation))
	return hex.EncodeToString(sum[:8])
}

// CachedStatsOf is CachedStats over the generations Windows read (with
// what changes on each write), so that a status reads them once.
func (db *DB) CachedStatsOf(ctx context.Context, cachePath string, windows []Window, after map[string]int64) (map[string]Stats, CacheReport, error) {
	var rep CacheReport
	cache := readStatsCache(cachePath)
	keys := make(map[string]string, len(windows))
	out := make(map[string]Stats, len(windows))
	var grown []grownSession
	var recount []string
	for _, w := range windows {
		id, key := w.SessionID, w.change.String()
		if _, dup := keys[id]; dup {
			continue
		}
		keys[id] = key
		c, ok := cache[id]
		switch {
		case ok && c.key == key:
			rep.Unchanged++
			out[id] = Stats{Events: c.events, Bytes: c.bytes, LastSeq: c.last}
		case ok && c.events > 0:
			grown = append(grown, grownSession{id: id, was: c})
		default:
			recount = append(recount, id)
		}
	}
	if len(grown) > 0 {
		appended, err := db.appended(ctx, grown)
		if err != nil {
			return nil, rep, err
		}
		for _, g := range grown {
			c, ok := appended[g.id]
			if !ok {
				recount = append(recount, g.id)
				continue
			}
			rep.Appended++
			c.key = keys[g.id]
			cache[g.id] = c
			out[g.id] = Stats{Events: c.events, Bytes: c.bytes, LastSeq: c.last}
		}
	}
	if len(recount) > 0 {
		rep.Recounted = len(recount)
		var counted map[string]cachedStats
		var err error
		if len(recount) > len(keys)/4 {
			// Many sessions: one pass over the table beats a range per
			// session, and brings each last event's mark with it.
			counted, err = db.bulkStats(ctx)
		} else {
			counted, err = db.sessionsStats(ctx, recount)
		}
		if err != nil {
			return nil, rep, err
		}
		for _, id := range recount {
			c := counted[id] // the zero value for a session with no events
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

// sessionsStats aggregates the events of the sessions ids names, each
// with its last event's mark: ranges of the primary key, a few hundred
// sessions a query.
func (db *DB) sessionsStats(ctx context.Context, ids []string) (map[string]cachedStats, error) {
	out := make(map[string]cachedStats, len(ids))
	err := inChunks(ids, func(part []string, marks string) error {
		counted, err := db.aggregate(ctx, db.db, `WHERE e.session_id IN (`+marks+`)`, anys(part)...)
		for id, c := range counted {
			out[id] = c
		}
		return err
	})
	return out, err
}

// grownSession is a session whose window moved since the cache was
// written, with what the cache knew of it.
type grownSession struct {
	id  string
	was cachedStats
}

// appended counts the events after the last cached one of each session,
// for those whose cached last event is still in place (the transcript
// only grew); the others are left out of the result, to be counted again.
// A status of a store the gateway is writing runs it for every session
// that grew since the last status, so they share queries, a few hundred
// sessions each: per session, the rows from the cached last event on (a
// range of the primary key, so only the new rows besides that one), the
// cached last event's mark checked, the rows after it counted and the new
// last one's mark read (the bare columns of the max(seq) aggregate).
func (db *DB) appended(ctx context.Context, grown []grownSession) (map[string]cachedStats, error) {
	size := db.utf8Bytes("e")
	out := make(map[string]cachedStats, len(grown))
	err := inChunks(grown, func(part []grownSession, _ string) error {
		args := make([]any, 0, 2*len(part))
		for _, g := range part {
			args = append(args, g.id, g.was.last)
		}
		rows, err := db.db.QueryContext(ctx, `WITH g(id, last) AS (VALUES `+strings.TrimSuffix(strings.Repeat("(?, ?),", len(part)), ",")+`)
SELECT g.id,
  sum(CASE WHEN e.seq = g.last THEN e.created_at END), sum(CASE WHEN e.seq = g.last THEN `+size+` END),
  sum(e.seq > g.last), sum(CASE WHEN e.seq > g.last THEN `+db.eventBytes("e")+` END),
  max(e.seq), e.created_at, `+size+`
FROM g JOIN transcript_events e ON e.session_id = g.id AND e.seq >= g.last
GROUP BY g.id`, args...)
		if err != nil {
			return db.explain(err)
		}
		defer rows.Close()
		was := make(map[string]cachedStats, len(part))
		for _, g := range part {
			was[g.id] = g.was
		}
		for rows.Next() {
			var id string
			var oldCreated, oldSize, n, bytes, last, newCreated, newSize sql.NullInt64
			if err := rows.Scan(&id, &oldCreated, &oldSize, &n, &bytes, &last, &newCreated, &newSize); err != nil {
				return db.explain(err)
			}
			c, ok := was[id]
			if !ok || !oldCreated.Valid || oldCreated.Int64 != c.lastCreatedAt || oldSize.Int64 != c.lastEventBytes {
				continue
			}
			if n.Int64 > 0 {
				c.events += n.Int64
				c.bytes += bytes.Int64
				c.last = last.Int64
				c.lastCreatedAt, c.lastEventBytes = newCreated.Int64, newSize.Int64
			}
			out[id] = c
		}
		return db.explain(rows.Err())
	})
	return out, err
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
