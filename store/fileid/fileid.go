// Package fileid tells one version of a file from another, the way every
// "is this still the file I read?" check of clawvault-tui asks it: the
// transcript cache, the sweep's vault files and append log, retention's
// plans, the listing of session folders. It is a leaf package so that
// store and store/transcript (which store imports) can both use it.
package fileid

import (
	"io/fs"
	"time"
)

// ID is what a stat says about which file a path holds: the device and
// inode name the file, the size and modification time its version.
//
// On Unix all four are known. Elsewhere (Windows) Dev and Inode are zero,
// meaning unknown: an ID there is its size and modification time only, so
// a file replaced by another of the same size and mtime goes unnoticed.
// Where two fs.FileInfo of the same moment are at hand, os.SameFile asks
// the system itself (volume and file index on Windows) and is the better
// test of "same file".
//
// The zero ID stands for a path where no file is. Of never returns it: a
// real file's modification time is never the zero time.
type ID struct {
	Dev     uint64
	Inode   uint64
	Size    int64
	ModTime time.Time
}

// Of returns the identity of the file fi describes.
func Of(fi fs.FileInfo) ID {
	dev, ino := devInode(fi)
	return ID{Dev: dev, Inode: ino, Size: fi.Size(), ModTime: fi.ModTime()}
}

// Exists reports whether id is the identity of a file: false for the zero
// ID, which stands for no file.
func (id ID) Exists() bool { return id != ID{} }

// SameFile reports whether a and b can be the same file, whatever its
// content: false only when both inodes are known and differ, or both
// devices are known and differ. An identity read from a record that kept
// no device or inode (a retention manifest, an ID made on Windows)
// therefore never differs on them.
func (a ID) SameFile(b ID) bool {
	if a.Inode != 0 && b.Inode != 0 && a.Inode != b.Inode {
		return false
	}
	return a.Dev == 0 || b.Dev == 0 || a.Dev == b.Dev
}

// Same reports whether a and b are the same version of the same file:
// SameFile, the same size and the same modification time.
func (a ID) Same(b ID) bool {
	return a.Size == b.Size && a.ModTime.Equal(b.ModTime) && a.SameFile(b)
}
