package agentdb

import (
	"context"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ReadOverTwoConnections makes every transcript read over two connections
// and runs between before the second transaction's first read; the
// returned function restores both.
func ReadOverTwoConnections(between func()) (restore func()) {
	minEvents, hook := parallelMinEvents, testHookBetweenSnapshots
	parallelMinEvents, testHookBetweenSnapshots = 0, between
	return func() { parallelMinEvents, testHookBetweenSnapshots = minEvents, hook }
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
