package store

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"clawvault-tui/model"
)

// dirStatter stats the names of one folder relative to the folder itself
// (fstatat): the kernel does not walk the folder's path again for each of
// its 50,000 transcripts, and no path string or FileInfo is made for them.
type dirStatter struct {
	dir *os.File
	fd  int
}

// openDirStatter opens dir for lstatAt when fsys is the real file system
// (a test's file system is asked through its Lstat instead); nil when it
// cannot.
func openDirStatter(fsys FS, dir string) *dirStatter {
	if _, real := fsys.(osFS); !real {
		return nil
	}
	// O_DIRECTORY: a FIFO planted in the folder's place is refused, not
	// waited on.
	f, err := os.OpenFile(dir, os.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil
	}
	return &dirStatter{dir: f, fd: int(f.Fd())}
}

func (d *dirStatter) close() { d.dir.Close() }

// lstatAt is what Lstat of the folder's name says, as a DirFile.
func (d *dirStatter) lstatAt(name string) (model.DirFile, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return model.DirFile{}, &os.PathError{Op: "lstat", Path: name, Err: err}
		}
		break
	}
	return model.DirFile{Name: name, IsFile: st.Mode&unix.S_IFMT == unix.S_IFREG, Size: st.Size,
		ModTime: time.Unix(st.Mtim.Sec, st.Mtim.Nsec), Inode: st.Ino}, nil
}
