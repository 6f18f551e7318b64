//go:build unix

package search

import (
	"os"
	"syscall"
)

// lockStoreRoot takes the exclusive lock bolt takes on an index's root
// (flock), without waiting: an error means another process has the index
// open. A root that is not there, or not a regular file, no process has
// open: there is no lock to take.
func lockStoreRoot(path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return func() {}, nil
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return func() {}, nil
	}
	fd := int(f.Fd())
	if err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(fd, syscall.LOCK_UN)
		f.Close()
	}, nil
}
