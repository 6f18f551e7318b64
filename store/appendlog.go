package store

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"path/filepath"

	"clawvault-tui/store/fileid"
)

// PendingAppend is an append to a log file (ClawVault's raw ledger) made
// atomic the same way as every other write: the new version, old content
// then the appended bytes, is built in a temp file in the same folder and
// renamed over the log at Commit. The old content is copied once per
// commit, in the kernel (copy_file_range), however many lines are appended.
// A reader sees the log with all of the appended bytes or none of them.
type PendingAppend struct {
	w    WriteFS
	fsys FS
	path string
	perm fs.FileMode

	tmp      TempFile // open until Prepare
	temp     string   // the prepared temp file, until Commit
	buf      *bufio.Writer
	base     fileid.ID // the log as copied into tmp (zero: there was none)
	appended int64
	crc      uint32 // CRC-32C of the appended bytes
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// AppendMark is a point an append can roll back to.
type AppendMark struct {
	appended int64
	crc      uint32
}

// stampFile is the identity of the file at path, the zero ID when there
// is none.
func stampFile(fsys FS, path string) (fileid.ID, error) {
	fi, err := fsys.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fileid.ID{}, nil
	}
	if err != nil {
		return fileid.ID{}, err
	}
	return fileid.Of(fi), nil
}

// BeginAppend starts an append to path (which may not exist yet).
func BeginAppend(w WriteFS, fsys FS, path string) (*PendingAppend, error) {
	if err := w.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	a := &PendingAppend{w: w, fsys: fsys, path: path, perm: 0o644}
	tmp, base, err := a.copyBase()
	if err != nil {
		return nil, err
	}
	a.tmp, a.base = tmp, base
	a.buf = bufio.NewWriterSize(tmp, 1<<20)
	return a, nil
}

// copyBase creates a temp file holding the log's current content.
func (a *PendingAppend) copyBase() (TempFile, fileid.ID, error) {
	tmp, err := a.w.CreateTemp(filepath.Dir(a.path), tempPattern(filepath.Base(a.path)))
	if err != nil {
		return nil, fileid.ID{}, err
	}
	fail := func(err error) (TempFile, fileid.ID, error) {
		_ = tmp.Close()
		_ = a.w.Remove(tmp.Name())
		return nil, fileid.ID{}, err
	}
	base, err := stampFile(a.fsys, a.path)
	if err != nil {
		return fail(err)
	}
	if base.Exists() {
		if fi, err := a.fsys.Stat(a.path); err == nil {
			a.perm = fi.Mode().Perm()
		}
		src, err := a.fsys.Open(a.path)
		if err != nil {
			return fail(err)
		}
		n, err := io.Copy(tmp, io.LimitReader(src, base.Size))
		src.Close()
		if err != nil {
			return fail(err)
		}
		if n != base.Size {
			return fail(fmt.Errorf("%s shrank while it was copied", a.path))
		}
	}
	return tmp, base, nil
}

// Write appends bytes (buffered until Commit).
func (a *PendingAppend) Write(p []byte) (int, error) {
	n, err := a.buf.Write(p)
	a.appended += int64(n)
	a.crc = crc32.Update(a.crc, castagnoli, p[:n])
	return n, err
}

// Mark returns the current end of the append.
func (a *PendingAppend) Mark() AppendMark { return AppendMark{a.appended, a.crc} }

// Rollback drops what was appended after the mark (a session that failed
// after some of its lines were written).
func (a *PendingAppend) Rollback(m AppendMark) error {
	if m.appended == a.appended {
		return nil
	}
	if err := a.buf.Flush(); err != nil {
		return err
	}
	t, ok := a.tmp.(interface {
		Truncate(int64) error
		Seek(int64, int) (int64, error)
	})
	if !ok {
		return fmt.Errorf("cannot roll back an append to %s: its temp file cannot be truncated", a.path)
	}
	end := a.base.Size + m.appended
	if err := t.Truncate(end); err != nil {
		return err
	}
	if _, err := t.Seek(end, io.SeekStart); err != nil {
		return err
	}
	a.appended, a.crc = m.appended, m.crc
	return nil
}

// Appended is how many bytes were appended.
func (a *PendingAppend) Appended() int64 { return a.appended }

// Region is where the appended bytes will sit in the log after Commit
// (offset, length, CRC-32C of the bytes): what a journal records to tell,
// after a crash, whether the commit happened. Call it after Prepare.
func (a *PendingAppend) Region() (offset, length int64, crc uint32) {
	return a.base.Size, a.appended, a.crc
}

// Prepare flushes, syncs and closes the temp file; if the log changed
// since it was copied (another writer appended), the temp file is rebuilt
// on the new content first. After Prepare, Commit only renames, and Temp
// and Base say what a journal needs to finish the append after a crash.
func (a *PendingAppend) Prepare() error {
	if err := a.buf.Flush(); err != nil {
		return err
	}
	now, err := stampFile(a.fsys, a.path)
	if err != nil {
		return err
	}
	if !now.Same(a.base) {
		if err := a.rebuild(); err != nil {
			return err
		}
	}
	if err := a.tmp.Chmod(a.perm); err != nil {
		return err
	}
	if err := a.tmp.Sync(); err != nil {
		return err
	}
	a.temp = a.tmp.Name()
	err = a.tmp.Close()
	a.tmp = nil
	return err
}

// Path is the log's path.
func (a *PendingAppend) Path() string { return a.path }

// Temp is the prepared temp file (after Prepare).
func (a *PendingAppend) Temp() string { return a.temp }

// Base is the identity of the log the temp file was built on.
func (a *PendingAppend) Base() fileid.ID { return a.base }

// rebuild copies the log's current content and then our appended bytes
// into a fresh temp file.
func (a *PendingAppend) rebuild() error {
	old := a.tmp
	tmp, base, err := a.copyBase()
	if err != nil {
		return err
	}
	src, err := a.fsys.Open(old.Name())
	if err == nil {
		_, err = io.Copy(tmp, io.NewSectionReader(src, a.base.Size, a.appended))
		src.Close()
	}
	_ = old.Close()
	_ = a.w.Remove(old.Name())
	a.tmp, a.base = tmp, base
	a.buf = bufio.NewWriterSize(tmp, 1<<20)
	return err
}

// Commit renames the prepared temp file over the log and syncs the
// folder. On an error the temp file stays, for the journal's recovery.
func (a *PendingAppend) Commit() error {
	if err := a.w.Rename(a.temp, a.path); err != nil {
		return err
	}
	a.temp = ""
	return a.w.SyncDir(filepath.Dir(a.path))
}

// Abort removes the temp file; the log is untouched. It says whether the
// temp file could not be removed (it is left behind, for the next sweep's
// clean-up).
func (a *PendingAppend) Abort() error {
	var err error
	if a.tmp != nil {
		_ = a.tmp.Close()
		err = a.w.Remove(a.tmp.Name())
		a.tmp = nil
	} else if a.temp != "" {
		err = a.w.Remove(a.temp)
		a.temp = ""
	}
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	return err
}

// RegionHolds reports whether the file at path holds bytes with the given
// CRC-32C at [offset, offset+length): whether a journaled append happened.
func RegionHolds(fsys FS, path string, offset, length int64, crc uint32) (bool, error) {
	f, err := fsys.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	h := crc32.New(castagnoli)
	n, err := io.Copy(h, io.NewSectionReader(f, offset, length))
	if err != nil {
		return false, err
	}
	return n == length && h.Sum32() == crc, nil
}
