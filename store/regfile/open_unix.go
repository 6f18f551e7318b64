//go:build unix

package regfile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openNonBlocking opens path read-only with O_NONBLOCK, so that a FIFO
// swapped in after the check does not wait for a writer, and O_NOCTTY, so
// that a terminal never becomes ours. Reads of a regular file ignore
// O_NONBLOCK.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}

// openNoFollow is openNonBlocking refusing a symbolic link as the last
// component (ELOOP, said as "a symbolic link").
func openNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: fs.ModeSymlink}}
	}
	return f, err
}
