// Package lockfile takes exclusive locks on files between processes, and
// tells whether the process a lock file names still runs.
//
// The lock is the system's own: flock(2) on Unix, LockFileEx on Windows.
// It belongs to an open file, so a second lock on the same path conflicts
// even within one process, and the system releases it when the holder
// releases it, closes the file or dies: a crashed holder never leaves a
// lock behind. The locks are written here rather than taken from a
// library because the sweep's lock file names its holder in its content,
// which others must read while it is held: Windows' byte-range locks are
// mandatory, so the lock covers one byte far past any content (see
// lock_windows.go), where the usual libraries lock the first byte.
package lockfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrBusy is TryLock's answer when another holder has the lock.
var ErrBusy = errors.New("the lock is held by another process")

// Lock creates path if needed (and its folder) and waits until this
// process holds an exclusive lock on it. Call the returned function to
// release it; the file stays.
func Lock(path string) (release func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := openLocked(path, 0o600, true)
	if err != nil {
		return nil, err
	}
	return func() {
		_ = unlock(f)
		f.Close()
	}, nil
}

// Held is a lock file this process holds, taken by TryLock. Its content
// is the holder's to write (Write); others can read it meanwhile.
type Held struct {
	f    *os.File
	path string
}

// TryLock opens path (creating it, not its folder) and takes its lock
// without waiting: ErrBusy when another holder has it. The holder before
// may remove the file as it releases it (Held.Remove) between our open
// and our lock; TryLock then opens the new file, so that it never holds a
// lock on a file nobody else will see.
func TryLock(path string) (*Held, error) {
	for attempt := 0; ; attempt++ {
		f, err := openLocked(path, 0o644, false)
		if err != nil {
			return nil, err
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return &Held{f: f, path: path}, nil
		}
		f.Close()
		if attempt >= 10 {
			return nil, errors.New("it keeps being replaced by another process")
		}
	}
}

// openLocked opens path (creating it with perm) and locks it.
func openLocked(path string, perm fs.FileMode, wait bool) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, perm)
	if err != nil {
		return nil, err
	}
	if err := lock(f, wait); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Write replaces the lock file's content with data, and syncs it.
func (h *Held) Write(data []byte) error {
	if err := h.f.Truncate(0); err != nil {
		return err
	}
	if _, err := h.f.WriteAt(data, 0); err != nil {
		return err
	}
	return h.f.Sync()
}

// Remove removes the lock file and releases the lock.
func (h *Held) Remove() error { return removeAndRelease(h.f, h.path) }
