package agentdb

import (
	"context"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ReadOverTwoConnections makes every transcript read and every bulk
// aggregate of Stats run over two connections, and runs between before
// the second transaction's first read; the returned function restores
// them.
func ReadOverTwoConnections(between func()) (restore func()) {
	minEvents, minRows, hook := parallelMinEvents, statsSplitMinRows, testHookBetweenSnapshots
	parallelMinEvents, statsSplitMinRows, testHookBetweenSnapshots = 0, 0, between
	return func() { parallelMinEvents, statsSplitMinRows, testHookBetweenSnapshots = minEvents, minRows, hook }
}

// LimitValueLength makes the store use one connection, on which no value
// may be longer than n bytes (SQLite's SQLITE_LIMIT_LENGTH).
func (db *DB) LimitValueLength(n int) error {
	db.db.SetMaxOpenConns(1)
	conn, err := db.db.Conn(context.Background())
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_LENGTH, n)
	return err
}

// CacheSize is PRAGMA cache_size on one of the store's connections.
func (db *DB) CacheSize() (n int, err error) {
	err = db.db.QueryRowContext(context.Background(), `PRAGMA cache_size`).Scan(&n)
	return n, err
}

// StatsCacheRoundTrip reads the stats cache file at path, writes what it
// kept to path+".again" and reads that: both readings, as text.
func StatsCacheRoundTrip(path string) (first, again map[string]string) {
	render := func(m map[string]cachedStats) map[string]string {
		out := make(map[string]string, len(m))
		for id, c := range m {
			out[id] = fmt.Sprintf("%+v", c)
		}
		return out
	}
	kept, _ := readStatsCache(path)
	writeStatsCache(path+".again", kept)
	reread, _ := readStatsCache(path + ".again")
	return render(kept), render(reread)
}

// CachedStats is CachedStatsOf over the store's generations, as a status
// reads them.
func (db *DB) CachedStats(ctx context.Context, cachePath string, after map[string]int64) (map[string]Stats, CacheReport, error) {
	windows, err := db.Windows(ctx)
	if err != nil {
		return nil, CacheReport{}, err
	}
	return db.CachedStatsOf(ctx, cachePath, windows, after)
}

// DecodeEmbedding is decodeEmbedding, for the tests.
var DecodeEmbedding = decodeEmbedding
