package sqlitefile

import (
	"math"
	"path/filepath"
	"testing"
)

// TestOpenStoreCreatedInWALMode: a store created in WAL mode whose log
// was never checkpointed keeps in its database file the page 1 written
// when the mode was set, before the first table set the text encoding
// (0 there). The encoding is page 1's in the log.
func TestOpenStoreCreatedInWALMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	w := openDB(t, path,
		`PRAGMA journal_mode = WAL`,
		`PRAGMA wal_autocheckpoint = 0`,
		`CREATE TABLE t(c0)`,
		`INSERT INTO t VALUES ('in the log')`)
	f := openFile(t, path)
	agree(t, w, f, "t", 1, math.MinInt64, math.MaxInt64)
}
