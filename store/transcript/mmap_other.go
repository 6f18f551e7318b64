//go:build !unix

package transcript

import (
	"context"
	"os"
)

// mapChunks declines, and the index is built with read(2)-style reads.
// On Windows a file with a mapped view cannot be truncated by anyone
// (SetEndOfFile fails with ERROR_USER_MAPPED_FILE), so a mapping held
// during an index build could make OpenClaw's rewrite of that transcript
// fail; a read takes no such hold.
func mapChunks(context.Context, *os.File, int64, int64, chan<- chunk) ([]byte, int64, func(), bool) {
	return nil, 0, nil, false
}
