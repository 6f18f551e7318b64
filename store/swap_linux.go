package store

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the files named a and b in one step (renameat2 with
// RENAME_EXCHANGE, Linux 3.15; ext4, xfs, btrfs, tmpfs and others): no
// reader or writer ever sees either name missing or a third file in
// between. ErrNoExchange where the file system cannot.
func exchange(a, b string) error {
	for {
		err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EOPNOTSUPP):
			return ErrNoExchange
		case err != nil:
			return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
		}
		return nil
	}
}

// tryReadLease asks for a read lease on f (F_SETLEASE), which the kernel
// grants only when no process, this one included, has the file open for
// writing: once granted, nobody can append through a descriptor they held.
// granted is false while someone does; err says leases cannot be had here
// (another owner's file without CAP_LEASE, leases disabled, a network file
// system).
func tryReadLease(f *os.File) (granted bool, err error) {
	_, err = unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_RDLCK)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.EAGAIN), errors.Is(err, unix.EBUSY):
		return false, nil
	}
	return false, err
}

// releaseLease gives a lease back.
func releaseLease(f *os.File) {
	_, _ = unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_UNLCK)
}
