// Package lockfile takes an exclusive lock on a file, between processes:
// flock(2), released when the holder calls the returned function or dies.
package lockfile

import (
	"os"
	"path/filepath"
	"syscall"
)

// Lock creates path if needed (and its folder) and waits until this
// process holds an exclusive lock on it. Call the returned function to
// release it.
func Lock(path string) (release func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
