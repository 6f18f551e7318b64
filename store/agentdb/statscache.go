package agentdb

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"clawvault-tui/store/regfile"
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
// costs one full aggregate. A status that recounted a few sessions appends
// their new lines to the file (a later line of a session replaces an
// earlier one) rather than rewriting every line, until the replaced lines
// are about a quarter of the file (statsCacheSlack).

// statsCacheVersion names the format below.
const statsCacheVersion = "clawvault-tui agent store stats 3"

// cachedStats is one session's line: its key, its aggregates, and the last
// counted event (seq, created_at, bytes) that an append leaves in place.
type cachedStats struct {
	key                           changeKey
	events, bytes, last           int64
	lastCreatedAt, lastEventBytes int64
}

// StatsCacheFile is the cache file of a store under cacheDir; "" when
// cacheDir is "" (no cache: CachedStatsOf then counts every session).
func StatsCacheFile(cacheDir, store string) string {
	if cacheDir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(filepath.Clean(store)))
	return filepath.Join(cacheDir, "agent-stores", filepath.Base(filepath.Dir(filepath.Dir(store)))+"-"+hex.EncodeToString(sum[:6])+".stats")
}

// CacheReport says how the cached aggregates were used.
type CacheReport struct {
	Unchanged, Appended, Recounted int
}

// changeKey is what OpenClaw changes on every write to a session's
// transcript: the window's transcript_updated_at (strictly increasing with
// each mutation), its updated_at and the rewrite generation (its
// cacheToken).
type changeKey struct {
	transcriptUpdatedAt, updatedAt int64
	generation                     string
}

// cacheToken is how the cache file keeps a generation, a field without
// spaces: "-" for none, the value itself when it is a short word of
// letters, digits and ._:- (a UUID, a counter), else "#" and a hash of it.
func cacheToken(generation string) string {
	if generation == "" {
		return "-"
	}
	plain := len(generation) <= 80 && generation != "-"
	for i := 0; plain && i < len(generation); i++ {
		c := generation[i]
		plain = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '_' || c == ':' || c == '-'
	}
	if plain {
		return generation
	}
	sum := sha256.Sum256([]byte(generation))
	return "#" + hex.EncodeToString(sum[:12])
}

// CachedStatsOf is Stats through the cache file at cachePath, for the
// generations Windows read (with what changes on each write to each, so
// that a status reads them once). after maps a session id to its last
// observed seq: pending events are counted by a range query from there.
// With no cachePath ("") it is Stats: every session counted, nothing kept.
func (db *DB) CachedStatsOf(ctx context.Context, cachePath string, windows []Window, after map[string]int64) (map[string]Stats, CacheReport, error) {
	if cachePath == "" {
		s, err := db.Stats(ctx, after)
		return s, CacheReport{}, err
	}
	cache, lines := readStatsCache(cachePath)
	p := planStats(cache, windows)
	if err := db.countAppended(ctx, &p); err != nil {
		return nil, p.rep, err
	}
	if err := db.recount(ctx, &p); err != nil {
		return nil, p.rep, err
	}
	if p.gone > 0 {
		for id := range cache {
			if _, ok := p.keys[id]; !ok {
				delete(cache, id)
			}
		}
	}
	// Pending events follow each seq cursor: a range of the new rows only.
	if err := db.addPending(ctx, p.out, after); err != nil {
		return nil, p.rep, err
	}
	switch {
	case lines < 0 || p.gone > 0 || lines+len(p.changed) > len(cache)+statsCacheSlack(len(cache)):
		writeStatsCache(cachePath, cache)
	case len(p.changed) > 0:
		appendStatsCache(cachePath, cache, p.changed)
	}
	return p.out, p.rep, nil
}

// statsPlan is what the cache says of each window's session: unchanged
// (its stats are in out), grown since it was counted, or to be counted.
type statsPlan struct {
	cache   map[string]cachedStats
	keys    map[string]changeKey
	out     map[string]Stats
	grown   []grownSession
	recount []string
	// changed names the sessions whose cache lines are new.
	changed []string
	// gone counts the cached sessions no window names (deleted since).
	gone int
	rep  CacheReport
}

// planStats sorts the windows' sessions by what the cache knows of them.
func planStats(cache map[string]cachedStats, windows []Window) statsPlan {
	p := statsPlan{cache: cache, keys: make(map[string]changeKey, len(windows)), out: make(map[string]Stats, len(windows)), gone: len(cache)}
	for _, w := range windows {
		id, key := w.SessionID, w.change
		if _, dup := p.keys[id]; dup {
			continue
		}
		p.keys[id] = key
		c, ok := cache[id]
		if ok {
			p.gone--
		}
		switch {
		case ok && c.key == key:
			p.rep.Unchanged++
			p.out[id] = Stats{Events: c.events, Bytes: c.bytes, LastSeq: c.last}
		case ok && c.events > 0:
			p.grown = append(p.grown, grownSession{id: id, was: c})
		default:
			p.recount = append(p.recount, id)
		}
	}
	return p
}

// countAppended counts the events appended to the grown sessions; one
// whose cached last event is no longer in place is left to recount.
func (db *DB) countAppended(ctx context.Context, p *statsPlan) error {
	if len(p.grown) == 0 {
		return nil
	}
	appended, err := db.appended(ctx, p.grown)
	if err != nil {
		return err
	}
	for _, g := range p.grown {
		c, ok := appended[g.id]
		if !ok {
			p.recount = append(p.recount, g.id)
			continue
		}
		p.rep.Appended++
		c.key = p.keys[g.id]
		p.cache[g.id] = c
		p.changed = append(p.changed, g.id)
		p.out[g.id] = Stats{Events: c.events, Bytes: c.bytes, LastSeq: c.last}
	}
	return nil
}

// recount counts the sessions the cache cannot answer for in full.
func (db *DB) recount(ctx context.Context, p *statsPlan) error {
	if len(p.recount) == 0 {
		return nil
	}
	p.rep.Recounted = len(p.recount)
	var counted map[string]cachedStats
	var err error
	if len(p.recount) > len(p.keys)/4 {
		// Many sessions: one pass over the table beats a range per
		// session, and brings each last event's mark with it.
		counted, err = db.bulkStats(ctx)
	} else {
		counted, err = db.sessionsStats(ctx, p.recount)
	}
	if err != nil {
		return err
	}
	for _, id := range p.recount {
		c := counted[id] // the zero value for a session with no events
		c.key = p.keys[id]
		p.out[id] = Stats{Events: c.events, Bytes: c.bytes, LastSeq: c.last}
		p.cache[id] = c
	}
	p.changed = append(p.changed, p.recount...)
	return nil
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
			c := was[id] // (the VALUES list holds only ids of part, as was does)
			if !oldCreated.Valid || oldCreated.Int64 != c.lastCreatedAt || oldSize.Int64 != c.lastEventBytes {
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

// readStatsCache reads the cache and counts its session lines; a line that
// does not parse is ignored (its session is counted again), as is a file
// of another version, and a last line without its newline (an append cut
// short). A later line of a session replaces an earlier one. lines is -1
// when the file may not be appended to: missing, of another version, or
// not ending in a newline.
func readStatsCache(path string) (cache map[string]cachedStats, lines int) {
	data, err := regfile.ReadFile(path)
	if err != nil || !bytes.HasPrefix(data, []byte(statsCacheVersion+"\n")) {
		return map[string]cachedStats{}, -1
	}
	data = data[len(statsCacheVersion)+1:]
	lines = bytes.Count(data, []byte{'\n'})
	out := make(map[string]cachedStats, lines)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		lines = -1
	}
	for len(data) > 0 {
		line, rest, whole := bytes.Cut(data, []byte{'\n'})
		if !whole {
			break
		}
		data = rest
		var f [9][]byte
		n := 0
		for ; n < len(f) && len(line) > 0; n++ {
			f[n], line, _ = bytes.Cut(line, []byte{' '})
		}
		if n != len(f) || len(line) > 0 || len(f[0]) == 0 || len(f[3]) == 0 {
			continue
		}
		var v [7]int64
		ok := true
		for i, j := range []int{1, 2, 4, 5, 6, 7, 8} {
			v[i], ok = decimal(f[j])
			if !ok {
				break
			}
		}
		if ok {
			out[string(f[0])] = cachedStats{key: changeKey{transcriptUpdatedAt: v[0], updatedAt: v[1], generation: string(f[3])},
				events: v[2], bytes: v[3], last: v[4], lastCreatedAt: v[5], lastEventBytes: v[6]}
		}
	}
	return out, lines
}

// writeStatsCache writes the cache through a temporary file and a rename;
// a cache that cannot be written is no error (the next run counts again).
// A line: session id, transcript_updated_at, updated_at, generation
// (cacheToken), events, bytes, last seq, its created_at and its bytes.
func writeStatsCache(path string, cache map[string]cachedStats) {
	ids := make([]string, 0, len(cache))
	for id := range cache {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	b := make([]byte, 0, len(statsCacheVersion)+1+len(ids)*120)
	b = appendStatsLines(append(b, statsCacheVersion+"\n"...), cache, ids)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".stats-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(b)
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

// statsCacheSlack is how many replaced lines a cache file of n sessions
// may hold before it is rewritten: a quarter of it (reading them costs
// each status a little, rewriting costs a status a lot), and a few more so
// that a small store's file is appended to as well.
func statsCacheSlack(n int) int { return n/4 + 16 }

// appendStatsCache appends the lines of the sessions ids names to the cache
// file, in one write: a status of a store being written recounts a few
// sessions of thousands, and formatting and writing every line was a fifth
// of such a status's cache work. A file that is gone (another status
// rewrote it) or cannot be appended to is rewritten whole. Two statuses at
// once are safe either way: each line says which write of its session it
// describes, so a line lost to the other's rewrite costs a recount, never a
// wrong count.
func appendStatsCache(path string, cache map[string]cachedStats, ids []string) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err == nil {
		_, err = f.Write(appendStatsLines(make([]byte, 0, len(ids)*120), cache, ids))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		writeStatsCache(path, cache)
	}
}

// appendStatsLines appends the cache lines of the sessions ids names (one
// whose id would not read back as one field is left out: counted again).
func appendStatsLines(b []byte, cache map[string]cachedStats, ids []string) []byte {
	for _, id := range ids {
		if id == "" || strings.ContainsAny(id, " \n") {
			continue
		}
		c := cache[id]
		b = append(b, id...)
		for _, v := range []int64{c.key.transcriptUpdatedAt, c.key.updatedAt} {
			b = strconv.AppendInt(append(b, ' '), v, 10)
		}
		b = append(append(b, ' '), c.key.generation...)
		for _, v := range []int64{c.events, c.bytes, c.last, c.lastCreatedAt, c.lastEventBytes} {
			b = strconv.AppendInt(append(b, ' '), v, 10)
		}
		b = append(b, '\n')
	}
	return b
}

// ChangeToken names the window's transcript as it is now: it changes with
// every write OpenClaw makes to the transcript (caches of what was read
// from the transcript are keyed by it).
func (w Window) ChangeToken() string {
	return strconv.FormatInt(w.change.transcriptUpdatedAt, 10) + " " + strconv.FormatInt(w.change.updatedAt, 10) + " " + cacheToken(w.change.generation)
}
