package store

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the files named a and b in one step (renamex_np with
// RENAME_SWAP, macOS 10.12; APFS and HFS+). ErrNoExchange where the file
// system cannot.
func exchange(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_SWAP)
	switch {
	case errors.Is(err, unix.ENOTSUP), errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS):
		return ErrNoExchange
	case err != nil:
		return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
	}
	return nil
}

// tryReadLease: macOS has no leases; the caller waits for the file to
// stand still instead.
func tryReadLease(*os.File) (bool, error) { return false, errNoLease }

func releaseLease(*os.File) {}
