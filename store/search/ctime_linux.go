package search

import (
	"io/fs"
	"syscall"
)

// changeTimeAndInode are a file's change time (UnixNano) and inode: a
// write to the file changes the one, a new file the other, whatever its
// modification time was set to.
func changeTimeAndInode(fi fs.FileInfo) (int64, uint64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return st.Ctim.Nano(), st.Ino
}
