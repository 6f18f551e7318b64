//go:build !linux && !darwin

package store

import "os"

// exchange: no atomic exchange here; the caller links and renames.
func exchange(string, string) error { return ErrNoExchange }

// tryReadLease: no leases here; the caller waits for the file to stand
// still instead.
func tryReadLease(*os.File) (bool, error) { return false, errNoLease }

func releaseLease(*os.File) {}
