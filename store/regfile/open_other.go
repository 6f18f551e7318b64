//go:build !unix

package regfile

import "os"

// openNonBlocking opens path read-only; on these systems a file system
// path names no FIFO that would block the open.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }

// openNoFollow checks the last component is no symbolic link, then opens
// it (these systems have no O_NOFOLLOW; the descriptor is checked after).
func openNoFollow(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if err := Check(path, fi); err != nil {
		return nil, err
	}
	return os.Open(path)
}
