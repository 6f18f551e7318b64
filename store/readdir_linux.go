//go:build linux

package store

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// readDirFast is os.ReadDir of the real file system (name order, without
// . and ..), its entries made in one slice: a sessions folder of 50,000
// transcripts was 50,000 entries allocated one by one, a tenth of status's
// memory.
func readDirFast(fsys FS, dir string) ([]fs.DirEntry, error) {
	if _, real := fsys.(osFS); !real {
		return fsys.ReadDir(dir)
	}
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY, 0) // as os.ReadDir opens it
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	shared := &dirOf{path: dir}
	// Each read's entries go into a batch of their own, joined once at the
	// end: growing one slice by doubling copied the listing twice over.
	var batches [][]dirEntry
	var entries []dirEntry
	buf := make([]byte, 64<<10)
	var readErr error
	for {
		var n int
		if err := raw.Read(func(fd uintptr) bool {
			for {
				n, readErr = syscall.ReadDirent(int(fd), buf)
				if readErr != syscall.EINTR {
					return true
				}
			}
		}); err != nil {
			readErr = err
		}
		if readErr != nil {
			readErr = &os.PathError{Op: "readdirent", Path: dir, Err: readErr}
			break
		}
		if n <= 0 {
			break
		}
		if len(entries) > 0 {
			batches = append(batches, entries)
		}
		entries = make([]dirEntry, 0, n/24) // a record is at least 24 bytes
		// linux_dirent64: inode (8), offset (8), record length (2), type (1), name (NUL-ended).
	records:
		for b := buf[:n]; len(b) >= 19; {
			size := int(binary.NativeEndian.Uint16(b[16:18]))
			if size < 19 || size > len(b) {
				break
			}
			kind, name := b[18], b[19:size]
			if i := slices.Index(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[size:]
			if string(name) == "." || string(name) == ".." {
				continue
			}
			e := dirEntry{dir: shared, name: string(name)}
			switch kind {
			case syscall.DT_REG:
			case syscall.DT_DIR:
				e.mode = fs.ModeDir
			case syscall.DT_LNK:
				e.mode = fs.ModeSymlink
			case syscall.DT_FIFO:
				e.mode = fs.ModeNamedPipe
			case syscall.DT_SOCK:
				e.mode = fs.ModeSocket
			case syscall.DT_BLK:
				e.mode = fs.ModeDevice
			case syscall.DT_CHR:
				e.mode = fs.ModeDevice | fs.ModeCharDevice
			default: // the file system does not say: ask, as os.ReadDir does
				fi, err := os.Lstat(filepath.Join(dir, e.name))
				if errors.Is(err, fs.ErrNotExist) {
					continue // gone since
				}
				if err != nil {
					readErr = err
					break records
				}
				e.mode = fi.Mode().Type()
			}
			entries = append(entries, e)
		}
		if readErr != nil {
			break
		}
	}
	if len(batches) > 0 {
		batches = append(batches, entries)
		entries = slices.Concat(batches...)
	}
	slices.SortFunc(entries, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	list := make([]fs.DirEntry, len(entries))
	for i := range entries {
		list[i] = &entries[i]
	}
	return list, readErr
}

type dirOf struct{ path string }

// dirEntry is one name of a listing, as os.ReadDir's entries say it.
type dirEntry struct {
	dir  *dirOf
	name string
	mode fs.FileMode // the type bits only
}

func (e *dirEntry) Name() string               { return e.name }
func (e *dirEntry) IsDir() bool                { return e.mode.IsDir() }
func (e *dirEntry) Type() fs.FileMode          { return e.mode }
func (e *dirEntry) Info() (fs.FileInfo, error) { return os.Lstat(filepath.Join(e.dir.path, e.name)) }
func (e *dirEntry) String() string             { return fs.FormatDirEntry(e) }
