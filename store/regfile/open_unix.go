//go:build unix

package regfile

import (
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
