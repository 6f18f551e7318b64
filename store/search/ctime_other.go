//go:build !linux

package search

import "io/fs"

// changeTimeAndInode: elsewhere a segment's version is its size and
// modification time (see ctime_linux.go).
func changeTimeAndInode(fs.FileInfo) (int64, uint64) { return 0, 0 }
