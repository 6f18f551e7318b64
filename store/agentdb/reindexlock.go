package agentdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"clawvault-tui/store/regfile"
)

// OpenClaw's memory reindex (2026.9, extensions/memory-core) builds the
// new index in a shadow database beside the store,
// <store>.memory-reindex-<uuid> (and its -wal, -shm, -journal), while it
// holds the reindex lock: <store>.reindex-lock.sqlite, a SQLite database
// it opens with locking_mode EXCLUSIVE and writes once, so that its file
// lock stays held until the reindex closes it. A second reindex decides
// the lock is held when BEGIN IMMEDIATE there is busy at once
// (busy_timeout 0); once it holds the lock itself, it removes the shadows
// whose files are all a day old or older (MEMORY_REINDEX_ORPHAN_MIN_AGE_MS).

// ReindexLockName is the reindex lock of a store named store.
func ReindexLockName(store string) string { return store + ".reindex-lock.sqlite" }

// ErrReindexLockHeld: an OpenClaw process holds the reindex lock.
var ErrReindexLockHeld = errors.New("an OpenClaw process holds the memory reindex lock")

// ReindexLockHeld reports whether an OpenClaw process holds the reindex
// lock at lockPath, as OpenClaw decides it: the lock is held by the
// connection that wrote it in EXCLUSIVE locking mode, so a read of it,
// with no wait, is busy. The read is read-only and takes SQLite's shared
// lock for as long as it lasts (a reindex starting in that instant finds
// it busy and retries 25 ms later, as it retries any reader). A lock file
// that is not there is not held; one that cannot be read is an error, and
// so is one that is no regular file (or has a companion that is not),
// which SQLite is never asked to open: its open of a FIFO waits for a
// writer.
func ReindexLockHeld(ctx context.Context, lockPath string) (bool, error) {
	fi, err := os.Stat(lockPath) // what SQLite would open
	switch {
	case errors.Is(err, os.ErrNotExist):
		return false, nil
	case err != nil:
		return false, err
	case !fi.Mode().IsRegular():
		return false, fmt.Errorf("%s is not a file: it %v", lockPath, &regfile.NotRegularError{Mode: fi.Mode()})
	}
	if err := checkCompanions(lockPath); err != nil {
		return false, err
	}
	abs, err := filepath.Abs(lockPath)
	if err != nil {
		return false, err
	}
	db, err := sql.Open("sqlite", readOnlyDSN(abs, 0, ""))
	if err != nil {
		return false, err
	}
	defer db.Close()
	var n int
	err = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&n)
	if err != nil && isBusy(err) {
		return true, nil
	}
	return false, err
}

// isBusy: SQLite's SQLITE_BUSY or SQLITE_LOCKED.
func isBusy(err error) bool {
	s := err.Error()
	return strings.Contains(s, "SQLITE_BUSY") || strings.Contains(s, "SQLITE_LOCKED") || strings.Contains(s, "database is locked")
}
