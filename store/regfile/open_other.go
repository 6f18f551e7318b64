//go:build !unix

package regfile

import "os"

// openNonBlocking opens path read-only; on these systems a file system
// path names no FIFO that would block the open.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
