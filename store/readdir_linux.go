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
	entries, readErr := readDirents(f, dir)
	slices.SortFunc(entries, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	list := make([]fs.DirEntry, len(entries))
	for i := range entries {
		list[i] = &entries[i]
	}
	return list, readErr
}

// readDirents reads the records of the open folder dir. Each read's
// entries go into a batch of their own, joined once at the end: growing
// one slice by doubling copied the listing twice over. On an error, the
// entries read so far come with it.
func readDirents(f *os.File, dir string) ([]dirEntry, error) {
	raw, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	shared := &dirOf{path: dir}
	var batches [][]dirEntry
	buf := make([]byte, 64<<10)
	var readErr error
	for readErr == nil {
		var n int
		if n, readErr = readDirent(raw, buf); readErr != nil {
			readErr = &os.PathError{Op: "readdirent", Path: dir, Err: readErr}
			break
		}
		if n <= 0 {
			break
		}
		var entries []dirEntry
		entries, readErr = parseDirents(buf[:n], shared)
		batches = append(batches, entries)
	}
	if len(batches) == 1 {
		return batches[0], readErr
	}
	return slices.Concat(batches...), readErr
}

// readDirent is one getdents64 into buf, retried when interrupted.
func readDirent(raw syscall.RawConn, buf []byte) (n int, err error) {
	if cerr := raw.Read(func(fd uintptr) bool {
		for {
			n, err = syscall.ReadDirent(int(fd), buf)
			if err != syscall.EINTR {
				return true
			}
		}
	}); cerr != nil {
		return 0, cerr
	}
	return n, err
}

// parseDirents reads the linux_dirent64 records of one read: inode (8),
// offset (8), record length (2), type (1), name (NUL-ended).
func parseDirents(b []byte, dir *dirOf) ([]dirEntry, error) {
	entries := make([]dirEntry, 0, len(b)/24) // a record is at least 24 bytes
	for len(b) >= 19 {
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
		e := dirEntry{dir: dir, name: string(name)}
		mode, gone, err := direntMode(kind, dir.path, e.name)
		if err != nil {
			return entries, err
		}
		if !gone {
			e.mode = mode
			entries = append(entries, e)
		}
	}
	return entries, nil
}

// direntMode is the type bits a record's type says; where the file system
// does not say, an Lstat does, as os.ReadDir asks (gone: removed since).
func direntMode(kind byte, dir, name string) (mode fs.FileMode, gone bool, err error) {
	switch kind {
	case syscall.DT_REG:
		return 0, false, nil
	case syscall.DT_DIR:
		return fs.ModeDir, false, nil
	case syscall.DT_LNK:
		return fs.ModeSymlink, false, nil
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe, false, nil
	case syscall.DT_SOCK:
		return fs.ModeSocket, false, nil
	case syscall.DT_BLK:
		return fs.ModeDevice, false, nil
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, false, nil
	}
	fi, err := os.Lstat(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, true, nil
	}
	if err != nil {
		return 0, false, err
	}
	return fi.Mode().Type(), false, nil
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
