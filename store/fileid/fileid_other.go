//go:build !unix

package fileid

import "io/fs"

// devInode is unknown here: on Windows the stat that fs.FileInfo carries
// (Win32FileAttributeData) has no file index, which only an open handle
// gives. An ID is then its size and modification time.
func devInode(fs.FileInfo) (dev, ino uint64) { return 0, 0 }
