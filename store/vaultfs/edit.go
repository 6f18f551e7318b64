package vaultfs

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/fileid"
	"clawvault-tui/store/regfile"
)

// Version is what a file was when it was read: its identity (device,
// inode, size, modification time; the zero ID when there was no file), its
// mode, and the SHA-256 of its bytes.
type Version struct {
	fileid.ID
	Mode fs.FileMode
	Hash [sha256.Size]byte
}

// versionOf is the version of data read from a file with info fi.
func versionOf(fi fs.FileInfo, data []byte) Version {
	id := fileid.Of(fi)
	id.Size = int64(len(data)) // what was read, should the file grow meanwhile
	return Version{ID: id, Mode: fi.Mode().Perm(), Hash: sha256.Sum256(data)}
}

// Same reports whether two versions hold the same bytes: both no file, or
// both a file of the same size and hash. Neither the modification time nor
// the inode makes a conflict alone: a file touched, or rewritten with the
// same bytes (an editor that saves by rename), loses nothing when it is
// saved over.
func (v Version) Same(o Version) bool {
	return v.Exists() == o.Exists() && (!v.Exists() || v.Size == o.Size && v.Hash == o.Hash)
}

// Doc is a memory file as read: where it is, its bytes and its version.
type Doc struct {
	Place
	// Path is the path it was asked for (the one to show).
	Path    string
	Data    []byte
	Version Version
}

// MaxRead is the largest file Read reads: memory files are small, and a
// bigger one is not something to open in a terminal editor.
const MaxRead = 64 << 20

// Read reads a memory file with its version. A file that does not exist
// is an empty Doc whose Version says so (a MEMORY.md a promote creates).
func (s *Space) Read(p string) (*Doc, error) {
	pl, err := s.Confine(p)
	if err != nil {
		return nil, err
	}
	return readPlace(p, pl)
}

func readPlace(p string, pl Place) (*Doc, error) {
	d := &Doc{Place: pl, Path: p}
	data, fi, err := readFile(pl.Real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return d, nil
	case err != nil:
		return nil, err
	}
	d.Data, d.Version = data, versionOf(fi, data)
	return d, nil
}

// readFile reads a regular file and the facts of the handle it read from.
// Anything else (a FIFO, a device, a folder) is refused without blocking
// (store/regfile).
func readFile(path string) ([]byte, fs.FileInfo, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() > MaxRead {
		return nil, nil, fmt.Errorf("%s is %d MB, more than the %d MB read here: open it in your own editor", path, fi.Size()>>20, MaxRead>>20)
	}
	var b bytes.Buffer
	b.Grow(int(fi.Size()) + 1)
	// Bounded as well as sized: an agent may go on appending while we read.
	if _, err := b.ReadFrom(io.LimitReader(f, MaxRead+1)); err != nil {
		return nil, nil, err
	}
	if b.Len() > MaxRead {
		return nil, nil, fmt.Errorf("%s grew past %d MB while it was read: open it in your own editor", path, MaxRead>>20)
	}
	return b.Bytes(), fi, nil
}

// ConflictError says a file changed on disk since the edit began; nothing
// was written over it.
type ConflictError struct {
	Path string
	// Disk is the file as it is now; Disk.Version.Exists() is false when it
	// was deleted.
	Disk *Doc
	// Kept is where the bytes that were not saved were put, so that
	// neither version is lost whatever happens next ("" if that failed
	// too).
	Kept string
	// HeldOpen: another program had the file open for writing and went
	// on writing it while it was saved, so its file was left in place.
	HeldOpen bool
}

func (e *ConflictError) Error() string {
	what := "changed on disk since it was opened"
	switch {
	case e.HeldOpen:
		what = "is open for writing in another program, which went on writing it while it was saved"
	case !e.Disk.Version.Exists():
		what = "was deleted since it was opened"
	}
	msg := fmt.Sprintf("%s %s: nothing was written", e.Path, what)
	if e.Kept != "" {
		msg += "; your version is kept in " + e.Kept
	}
	return msg
}

// ErrConflict matches a *ConflictError with errors.Is.
var ErrConflict = errors.New("changed on disk")

func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// Saved is the outcome of a save.
type Saved struct {
	// Version is the version of the bytes saved. When another writer's
	// change was merged in (Merged), the file holds more than them, so a
	// later save from the same text conflicts instead of dropping it.
	Version Version
	// Backup is where the version it replaced was kept ("" for a new file).
	Backup string
	// Merged is what the file holds when another program changed it
	// while it was saved and its change was merged with ours (nil else).
	Merged []byte
}

// Save writes data over the Markdown memory file p if the file is still
// base (a zero base: the file did not exist). The replaced version goes to
// the backup folder first. If the file changed, nothing is written and the
// error is a *ConflictError with what is on disk; data itself is kept in
// the backup folder then. The write is atomic (a temp file in the same
// folder, synced, then put in place; the mode kept) and loses no other
// writer's bytes: a change made between the check and the write, or
// appended through a descriptor opened before it, is merged line by line
// (store.Replace), or, where the two clash, theirs stays and this is a
// conflict.
func (s *Space) Save(p string, data []byte, base Version) (Saved, error) {
	pl, disk, err := s.openForWrite(p)
	if err != nil {
		return Saved{}, err
	}
	if !disk.Version.Same(base) {
		c := &ConflictError{Path: p, Disk: disk}
		c.Kept, _ = s.backup(pl.Real, data, "unsaved")
		return Saved{}, c
	}
	var out Saved
	if disk.Version.Exists() {
		if out.Backup, err = s.backup(pl.Real, disk.Data, ""); err != nil {
			return Saved{}, fmt.Errorf("cannot keep the previous version, so nothing was saved: %w", err)
		}
	}
	res, err := s.replace(pl, disk, data)
	if err != nil {
		return Saved{}, err
	}
	if res.Clash || res.HeldOpen || res.Gone {
		c := &ConflictError{Path: p, Disk: s.reread(p, pl), HeldOpen: res.HeldOpen && !res.Gone}
		c.Kept, _ = s.backup(pl.Real, data, "unsaved")
		return Saved{}, c
	}
	if res.Merged {
		out.Merged = res.Final
	}
	fi, err := os.Stat(pl.Real)
	if err != nil {
		return Saved{}, err
	}
	out.Version = versionOf(fi, data)
	return out, nil
}

// openForWrite confines p as a file the editor may change, makes its
// folder, and reads it as it is now.
func (s *Space) openForWrite(p string) (Place, *Doc, error) {
	pl, err := s.Editable(p)
	if err != nil {
		return Place{}, nil, err
	}
	if err := os.MkdirAll(filepath.Dir(pl.Real), 0o755); err != nil {
		return Place{}, nil, err
	}
	disk, err := readPlace(p, pl)
	return pl, disk, err
}

// replace puts data in place of disk (the file as read) with
// store.Replace, merging line by line with what other writers do
// meanwhile.
func (s *Space) replace(pl Place, disk *Doc, data []byte) (store.Replaced, error) {
	return store.Replace(s.opt.Writer, store.Replacement{
		Path: pl.Real, Existed: disk.Version.Exists(), Read: disk.Data, Want: data,
		Perm: 0o644, Limit: MaxRead, Merge: mergeLines,
	})
}

// reread is the file as it is now, for a conflict; an unreadable one is
// shown as missing (the conflict's message still says what happened).
func (s *Space) reread(p string, pl Place) *Doc {
	d, err := readPlace(p, pl)
	if err != nil {
		return &Doc{Place: pl, Path: p}
	}
	return d
}

// mergeLines merges another program's change made while we saved with
// ours, line by line, both kept where both only added lines at one place
// (model.Merge3KeepBoth).
func mergeLines(base, ours, theirs []byte) ([]byte, bool) {
	merged, conflicts := model.Merge3KeepBoth(model.SplitLines(string(base)), model.SplitLines(string(ours)), model.SplitLines(string(theirs)))
	if len(conflicts) > 0 {
		return nil, false
	}
	return []byte(strings.Join(merged, "")), true
}

// Backup keeps the current bytes of a memory file in the backup folder
// (before an external editor opens it) and returns where; "" when the
// file does not exist.
func (s *Space) Backup(p string) (string, error) {
	pl, err := s.Confine(p)
	if err != nil {
		return "", err
	}
	d, err := readPlace(p, pl)
	if err != nil || !d.Version.Exists() {
		return "", err
	}
	return s.backup(pl.Real, d.Data, "")
}

// backup writes data as a version of the file at real: into
// <BackupDir>/<real path>/<UTC time>[.<tag>]<ext>, then drops the oldest
// beyond Keep. Each file's versions are a folder named like the file, so
// `ls` on it lists them by time.
func (s *Space) backup(real string, data []byte, tag string) (string, error) {
	dir := BackupFolder(s.opt.BackupDir, real)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	name := s.opt.Now().UTC().Format("2006-01-02T15-04-05.000000000Z")
	if tag != "" {
		name += "." + tag
	}
	name += filepath.Ext(real)
	dest := filepath.Join(dir, name)
	if err := store.WriteFileAtomic(s.opt.Writer, dest, data, 0o600); err != nil {
		return "", err
	}
	s.prune(dir)
	return dest, nil
}

// BackupFolder is the folder that holds the versions of the file at real
// (an absolute path, symlinks resolved): the path itself under dir, with
// a Windows volume name turned into a folder name.
func BackupFolder(dir, real string) string {
	vol := filepath.VolumeName(real)
	rest := strings.TrimLeft(real[len(vol):], `/\`)
	if vol != "" {
		vol = strings.NewReplacer(":", "", `\`, "_", "/", "_").Replace(vol)
	}
	return filepath.Join(dir, vol, rest)
}

// prune keeps the newest Keep versions in a backup folder (names sort by
// time).
func (s *Space) prune(dir string) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	var names []string
	for _, de := range des {
		if de.Type().IsRegular() && !strings.HasPrefix(de.Name(), ".") {
			names = append(names, de.Name())
		}
	}
	slices.Sort(names)
	for len(names) > s.opt.Keep {
		os.Remove(filepath.Join(dir, names[0]))
		names = names[1:]
	}
}
