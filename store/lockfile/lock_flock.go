//go:build unix && !aix

package lockfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lock takes flock(2)'s exclusive lock on f, waiting for it or not.
func lock(f *os.File, wait bool) error {
	how := unix.LOCK_EX
	if !wait {
		how |= unix.LOCK_NB
	}
	err := unix.Flock(int(f.Fd()), how)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return ErrBusy
	}
	return err
}

func unlock(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_UN) }

// removeAndRelease removes the file while it is still locked, then closes
// it: whoever opened it meanwhile and locks it next finds, by TryLock's
// check, that it is no longer at the path.
func removeAndRelease(f *os.File, path string) error {
	err := os.Remove(path)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
