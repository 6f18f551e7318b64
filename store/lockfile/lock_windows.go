//go:build windows

package lockfile

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

// lockOffsetHigh places the locked byte at 2^62, far past any content:
// Windows' byte-range locks are mandatory, and a lock on the content would
// stop other processes reading the holder's name from the file.
const lockOffsetHigh = 1 << 30

// lock takes LockFileEx's exclusive lock on one byte of f, waiting for it
// or not (Go opens files for synchronous I/O, so a waiting call blocks).
func lock(f *os.File, wait bool) error {
	flags := uint32(windows.LOCKFILE_EXCLUSIVE_LOCK)
	if !wait {
		flags |= windows.LOCKFILE_FAIL_IMMEDIATELY
	}
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, &windows.Overlapped{OffsetHigh: lockOffsetHigh})
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return ErrBusy
	}
	return err
}

func unlock(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &windows.Overlapped{OffsetHigh: lockOffsetHigh})
}

// removeAndRelease closes the file, which releases the lock, then removes
// it. Windows cannot remove a file that is open (Go opens files without
// FILE_SHARE_DELETE), so the file cannot vanish under another holder; for
// the same reason the removal fails when another process has just opened
// the file to claim it (a sharing violation, or access denied while a
// removal is pending), and the file is then left to that process.
func removeAndRelease(f *os.File, path string) error {
	if err := f.Close(); err != nil {
		return err
	}
	err := os.Remove(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return nil
	}
	return err
}
