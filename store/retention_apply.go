package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store/fileid"
	"clawvault-tui/store/lockfile"
	"clawvault-tui/store/regfile"
)

// MoveFS is what applying and undoing a retention plan needs besides an
// atomic write: links, renames and folders. OSMover is the real one; tests
// inject failures through it.
type MoveFS interface {
	WriteFS
	Lstat(name string) (fs.FileInfo, error)
	Link(oldname, newname string) error
	MkdirAll(path string, perm fs.FileMode) error
	ReadFile(name string) ([]byte, error)
	Open(name string) (File, error)
	// CreateExclusive creates name only if it does not exist (a lock file).
	CreateExclusive(name string, perm fs.FileMode) (io.WriteCloser, error)
	Chtimes(name string, atime, mtime time.Time) error
	// RemoveDir removes an empty folder.
	RemoveDir(name string) error
}

// OSMover moves on the real file system.
var OSMover MoveFS = osMover{}

type osMover struct{ osWriter }

func (osMover) Lstat(name string) (fs.FileInfo, error)       { return os.Lstat(name) }
func (osMover) Link(oldname, newname string) error           { return os.Link(oldname, newname) }
func (osMover) MkdirAll(path string, perm fs.FileMode) error { return os.MkdirAll(path, perm) }
func (osMover) ReadFile(name string) ([]byte, error)         { return regfile.ReadFile(name) }
func (osMover) Open(name string) (File, error)               { return regfile.Open(name) }
func (osMover) CreateExclusive(name string, perm fs.FileMode) (io.WriteCloser, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
}
func (osMover) Chtimes(name string, atime, mtime time.Time) error {
	return os.Chtimes(name, atime, mtime)
}
func (osMover) RemoveDir(name string) error { return syscall.Rmdir(name) }

// CheckUnchanged says, in a sentence, how path differs from what a plan
// saw, or nil when it is the same regular file. A want without a device
// or inode (a manifest's record) is checked on size and mtime.
func CheckUnchanged(m MoveFS, path string, want fileid.ID) error {
	fi, err := m.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s is gone since the plan was made", path)
	}
	if err != nil {
		return fmt.Errorf("cannot stat %s: %v", path, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is no longer a regular file", path)
	}
	if got := fileid.Of(fi); !got.Same(want) {
		return fmt.Errorf("%s changed since the plan was made (%d bytes, modified %s; the plan saw %d bytes, modified %s)",
			path, got.Size, jscompat.FormatISOTime(got.ModTime), want.Size, jscompat.FormatISOTime(want.ModTime))
	}
	return nil
}

// MoveFile moves src to dst without ever replacing an existing dst: a hard
// link then an unlink on the same file system (the inode, mode and mtime
// stay), a verified copy then an unlink across file systems. It creates
// dst's folder. The caller makes the move durable with SyncDirs, once per
// folder for a whole batch: an fsync per file costs seconds on a busy disk.
func MoveFile(m MoveFS, src, dst string) error {
	if err := m.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	err := m.Link(src, dst)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%s already exists; nothing was moved over it", dst)
	case crossDevice(err):
		if err := copyFile(m, src, dst); err != nil {
			return err
		}
	default:
		// A file system without hard links: a rename, never over a file.
		return placeNoClobber(m, src, dst)
	}
	if err := m.Remove(src); err != nil {
		return fmt.Errorf("%s is now also at %s, but the original could not be removed: %v", src, dst, err)
	}
	return nil
}

// SyncDirs fsyncs each folder once, in order.
func SyncDirs(m MoveFS, dirs []string) error {
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[d] {
			continue
		}
		seen[d] = true
		if err := m.SyncDir(d); err != nil {
			return fmt.Errorf("cannot sync the folder %s: %v", d, err)
		}
	}
	return nil
}

// copyFile copies src to dst through a temp file in dst's folder (fsync,
// mode and mtime kept, rename into place only if dst still does not
// exist), then checks the size.
func copyFile(m MoveFS, src, dst string) (err error) {
	in, err := m.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	tmp, err := m.CreateTemp(filepath.Dir(dst), tempPattern(filepath.Base(dst)))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = m.Remove(tmp.Name())
		}
	}()
	n, err := io.Copy(tmp, in)
	if err != nil {
		return err
	}
	if n != fi.Size() {
		return fmt.Errorf("copied %d of %d bytes of %s", n, fi.Size(), src)
	}
	if err = tmp.Chmod(fi.Mode().Perm()); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = m.Chtimes(tmp.Name(), fi.ModTime(), fi.ModTime()); err != nil {
		return err
	}
	return placeNoClobber(m, tmp.Name(), dst)
}

// KeepCopy puts a second name on path at dst (a hard link: same bytes,
// mode and mtime), or an exact copy where links are impossible.
func KeepCopy(m MoveFS, path, dst string) error {
	if err := m.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	err := m.Link(path, dst)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists", dst)
	}
	if err != nil {
		if err := copyFile(m, path, dst); err != nil {
			return err
		}
	}
	return m.SyncDir(filepath.Dir(dst))
}

// placeNoClobber renames tmp to dst unless dst exists: a link where the
// file system has them (atomic), else a check and a rename.
func placeNoClobber(m MoveFS, tmp, dst string) error {
	err := m.Link(tmp, dst)
	switch {
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%s already exists; nothing was moved over it", dst)
	case err == nil:
		return m.Remove(tmp)
	}
	if _, statErr := m.Lstat(dst); statErr == nil {
		return fmt.Errorf("%s already exists; nothing was moved over it", dst)
	}
	return m.Rename(tmp, dst)
}

// LockSessionStore takes OpenClaw's write lock on a sessions.json
// (<path>.lock, created exclusively, {pid, createdAt}), so that the
// gateway waits while the store is rewritten. A lock held by a live
// process is a "busy" error; one left by a dead process is named, not
// taken over: the operator decides.
func LockSessionStore(m MoveFS, path string) (release func(), err error) {
	lock := path + ".lock"
	w, err := m.CreateExclusive(lock, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, lockHeldError(m, lock, "the session store "+path)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot lock %s: %v", path, err)
	}
	payload := fmt.Sprintf("{\n  \"pid\": %d,\n  \"createdAt\": %q\n}", os.Getpid(), jscompat.FormatISOTime(time.Now()))
	_, err = io.WriteString(w, payload)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = m.Remove(lock)
		return nil, fmt.Errorf("cannot lock %s: %v", path, err)
	}
	return func() { _ = m.Remove(lock) }, nil
}

// InUse reports, as an error, a transcript whose OpenClaw lock
// (<file>.lock) is held by a live process: a run is writing it.
func InUse(m MoveFS, path string) error {
	lock := path + ".lock"
	if _, err := m.Lstat(lock); err != nil {
		return nil
	}
	pid, alive := lockOwner(m, lock)
	if !alive {
		return nil
	}
	return fmt.Errorf("%s is in use: %s is held by process %d (an OpenClaw run is writing it); try again when it ends", path, lock, pid)
}

func lockHeldError(m MoveFS, lock, what string) error {
	pid, alive := lockOwner(m, lock)
	if alive {
		return fmt.Errorf("%s is busy: %s is held by process %d; try again in a moment", what, lock, pid)
	}
	return fmt.Errorf("%s is locked by %s, left by a process that is gone (pid %d); remove that file if no OpenClaw is running, then try again", what, lock, pid)
}

// lockOwner reads an OpenClaw lock's pid and whether that process lives.
func lockOwner(m MoveFS, lock string) (int, bool) {
	data, err := m.ReadFile(lock)
	if err != nil {
		return 0, false
	}
	var payload struct {
		PID json.Number `json:"pid"`
	}
	if json.Unmarshal(data, &payload) != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(payload.PID.String())
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, lockfile.ProcessAlive(pid)
}

// WriteManifest writes a retention manifest atomically.
func WriteManifest(w WriteFS, path string, m *model.RetentionManifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(w, path, append(data, '\n'), 0o644)
}

// ManifestReader is what reading a manifest needs (FS and MoveFS have it).
type ManifestReader interface {
	Stat(name string) (fs.FileInfo, error)
	ReadFile(name string) ([]byte, error)
}

// maxManifestBytes bounds a manifest read: a few hundred bytes per move.
const maxManifestBytes = 64 << 20

// ReadManifest reads a retention manifest, given its path or its folder.
func ReadManifest(fsys ManifestReader, path string) (*model.RetentionManifest, string, error) {
	if fi, err := fsys.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, "manifest.json")
	}
	if fi, err := fsys.Stat(path); err == nil && fi.Size() > maxManifestBytes {
		return nil, path, fmt.Errorf("%s is not a retention manifest: it holds %d bytes, more than one ever does (%d)", path, fi.Size(), maxManifestBytes)
	}
	data, err := fsys.ReadFile(path)
	if err != nil {
		return nil, path, fmt.Errorf("cannot read the manifest %s: %v", path, err)
	}
	m, err := parseManifest(path, data)
	return m, path, err
}

// parseManifest decodes the manifest read at path; its paths are checked
// by UndoPlaces and RetentionPlaces.Check.
func parseManifest(path string, data []byte) (*model.RetentionManifest, error) {
	var m model.RetentionManifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s is not a retention manifest (%v)", path, err)
	}
	if m.Version != model.ManifestVersion || m.Tool != "clawvault-tui" {
		return nil, fmt.Errorf("%s is not a clawvault-tui retention manifest of version %d", path, model.ManifestVersion)
	}
	return &m, nil
}

// SameFile reports whether a and b are two names of one file (a move
// interrupted between its link and its unlink leaves that).
func SameFile(m MoveFS, a, b string) bool {
	fa, errA := m.Lstat(a)
	fb, errB := m.Lstat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
