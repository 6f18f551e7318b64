// Package store is everything of clawvault-tui that touches disk: locating
// the OpenClaw state dir, its agents and the ClawVault vault; reading
// sessions.json, the cursor file and the sessions folders; writing files
// atomically. It returns model values.
package store

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"clawvault-tui/model"
	"clawvault-tui/store/regfile"
)

// FS is the file system the store reads through. OS is the real one; tests
// wrap it to count or refuse reads (status must read no transcript content).
type FS interface {
	Stat(name string) (fs.FileInfo, error)
	Lstat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	ReadFile(name string) ([]byte, error)
	Open(name string) (File, error)
}

// File is an open file for reading.
type File interface {
	io.Reader
	io.ReaderAt
	io.Closer
	Stat() (fs.FileInfo, error)
}

// OS reads the real file system. It opens regular files only, never
// blocking on a FIFO planted where a file should be (store/regfile).
var OS FS = osFS{}

type osFS struct{}

func (osFS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (osFS) Lstat(name string) (fs.FileInfo, error)     { return os.Lstat(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
func (osFS) ReadFile(name string) ([]byte, error)       { return regfile.ReadFile(name) }
func (osFS) Open(name string) (File, error)             { return regfile.Open(name) }

// readFileLimit reads name through fsys if it holds at most limit bytes;
// a larger one is an error naming both sizes, and is not read (a planted
// sparse file of terabytes, or one that grows while it is read, must not
// take the memory). The real file system bounds the read itself; another
// is asked the file's size first.
func readFileLimit(fsys FS, name string, limit int64) ([]byte, error) {
	if _, real := fsys.(osFS); real {
		return regfile.ReadFileLimit(name, limit)
	}
	if fi, err := fsys.Stat(name); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d this file may hold", name, fi.Size(), limit)
	}
	return fsys.ReadFile(name)
}

// Limits on the files read whole: far above what a real one holds
// (ClawVault's cursor file is 7 MB for 35,000 sessions).
const (
	maxCursorFile = 256 << 20
	maxConfigFile = 16 << 20
	// sessions.json read whole to rewrite it (retention): OpenClaw keeps
	// about 1 KB a session, so this is room for 250,000.
	maxSessionStoreFile = 256 << 20
)

// WriteFS is what an atomic write needs. OSWriter is the real one; tests
// inject failures (a full disk midway) through it.
type WriteFS interface {
	CreateTemp(dir, pattern string) (TempFile, error)
	Rename(oldpath, newpath string) error
	Remove(name string) error
	Stat(name string) (fs.FileInfo, error)
	// SyncDir makes a rename in dir durable.
	SyncDir(dir string) error
	// MkdirAll creates a folder and its missing parents (os.MkdirAll).
	MkdirAll(path string, perm fs.FileMode) error
}

// TempFile is a file being written before it is renamed into place.
type TempFile interface {
	io.Writer
	Name() string
	Chmod(mode fs.FileMode) error
	Sync() error
	Close() error
}

// OSWriter writes to the real file system.
var OSWriter WriteFS = osWriter{}

type osWriter struct{}

func (osWriter) CreateTemp(dir, pattern string) (TempFile, error) { return os.CreateTemp(dir, pattern) }
func (osWriter) Rename(oldpath, newpath string) error             { return os.Rename(oldpath, newpath) }
func (osWriter) Remove(name string) error                         { return os.Remove(name) }
func (osWriter) Stat(name string) (fs.FileInfo, error)            { return os.Stat(name) }
func (osWriter) SyncDir(dir string) error                         { return syncDir(dir) }
func (osWriter) MkdirAll(path string, perm fs.FileMode) error     { return os.MkdirAll(path, perm) }

// WriteFileAtomic replaces path with data so that a reader sees either the
// old file or the new one, never a torn mix: a temp file in the same folder,
// fsync, rename, fsync the folder. An existing file keeps its mode; a new
// one gets perm.
func WriteFileAtomic(w WriteFS, path string, data []byte, perm fs.FileMode) error {
	return WriteFileAtomicChecked(w, path, data, perm, nil)
}

// WriteFileAtomicChecked is WriteFileAtomic with a last check: once the new
// content is on disk in its temp file, check runs just before the rename,
// and an error from it leaves path untouched (the temp file is removed).
// An editor checks there that nobody changed the file since it was read:
// the window in which another writer can slip in is the rename alone.
func WriteFileAtomicChecked(w WriteFS, path string, data []byte, perm fs.FileMode, check func() error) error {
	st, err := StageFile(w, path, data, perm)
	if err != nil {
		return err
	}
	if check != nil {
		if err := check(); err != nil {
			_ = st.Abort()
			return err
		}
	}
	if err := st.Commit(); err != nil {
		_ = st.Abort()
		return err
	}
	return nil
}

// StagedFile is a new version of a file, written and synced under a temp
// name beside it (TempName), not yet in place: a commit that spans several
// files stages them all, records them in its journal, then renames them.
type StagedFile struct {
	w    WriteFS
	Path string
	Temp string
	// Size and CRC32C are the new version's, for the journal.
	Size   int64
	CRC32C uint32
	// renamed: Commit put it in place.
	renamed bool
}

// StageFile writes data to a temp file beside path, with path's mode (perm
// for a new file), syncs and closes it. A directory at path is refused.
func StageFile(w WriteFS, path string, data []byte, perm fs.FileMode) (st *StagedFile, err error) {
	dir := filepath.Dir(path)
	if fi, statErr := w.Stat(path); statErr == nil {
		if fi.IsDir() { // rename would say "file exists"
			return nil, &fs.PathError{Op: "write", Path: path, Err: syscall.EISDIR}
		}
		perm = fi.Mode().Perm()
	}
	tmp, err := w.CreateTemp(dir, tempPattern(filepath.Base(path)))
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = w.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return nil, err
	}
	if err = tmp.Chmod(perm); err != nil {
		return nil, err
	}
	if err = tmp.Sync(); err != nil {
		return nil, err
	}
	if err = tmp.Close(); err != nil {
		return nil, err
	}
	return &StagedFile{w: w, Path: path, Temp: tmp.Name(), Size: int64(len(data)), CRC32C: Checksum(data)}, nil
}

// Commit renames the staged version into place and syncs the folder. On
// an error the temp file stays, for a journal's recovery to use (Abort
// removes it).
func (s *StagedFile) Commit() error {
	if err := s.Rename(); err != nil {
		return err
	}
	return s.w.SyncDir(filepath.Dir(s.Path))
}

// Rename puts the staged version in place without syncing its folder: for
// a caller that puts many in place and syncs each folder once.
func (s *StagedFile) Rename() error {
	if err := s.w.Rename(s.Temp, s.Path); err != nil {
		return err
	}
	s.renamed = true
	return nil
}

// Abort removes the temp file of a version not put in place.
func (s *StagedFile) Abort() error {
	if s.renamed {
		return nil
	}
	if err := s.w.Remove(s.Temp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Checksum is the CRC-32C journals record content by.
func Checksum(data []byte) uint32 { return crc32.Checksum(data, castagnoli) }

// UnreadableError is a file a sweep (or an apply) must read before it
// changes it, and cannot: it stops, and changes nothing. Its message is one
// sentence that names the file and the OS error.
type UnreadableError struct {
	What string // "the cursor file", "the day file", …
	Path string
	Err  error
}

func (e *UnreadableError) Error() string {
	return fmt.Sprintf("cannot read %s %s (%s): it was left as it is; fix it and run again", e.What, e.Path, model.OSReason(e.Err))
}

func (e *UnreadableError) Unwrap() error { return e.Err }
