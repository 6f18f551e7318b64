//go:build unix

package fileid

import (
	"io/fs"
	"syscall"
)

// devInode reads the device and inode from a stat, where fi has one (a
// FileInfo made by a test's fake file system may not).
func devInode(fi fs.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		// The field types differ between systems (Dev is int32 on darwin).
		return uint64(st.Dev), uint64(st.Ino)
	}
	return 0, 0
}
