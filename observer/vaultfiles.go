package observer

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"

	"clawvault-tui/store"
	"clawvault-tui/store/fileid"
)

// vaultFiles is a sweep's view of the vault's Markdown files: each is read
// from disk once, changed in memory by replayable operations, and written
// at commit, atomically. Another writer (ClawVault itself, an editor) may
// change a file during the sweep: commit notices (size, mtime, inode) and
// replays the operations on the new content instead of overwriting it.
type vaultFiles struct {
	fsys  store.FS
	files map[string]*vaultFile
	order []string // first-change order: the order of the writes
	// resolve says where a path really is (store.Root.Resolve: symbolic
	// links followed, refused when they lead out of the vault); nil keeps
	// paths as they are.
	resolve func(path string) (string, error)
}

// stampOf is the identity of a stat's file, the zero ID (no file) when
// the stat failed.
func stampOf(fi fs.FileInfo, err error) fileid.ID {
	if err != nil {
		return fileid.ID{}
	}
	return fileid.Of(fi)
}

type vaultFile struct {
	path    string    // as the sweep names it
	real    string    // where it is read and written
	stamp   fileid.ID // of the version read
	base    []byte
	content []byte
	exists  bool
	// ops are the changes since the last commit (see vaultOp): replayed on
	// a version another writer made, and recorded in the sweep journal.
	ops []vaultOp
	// lazy, when set, computes the current content (content is stale): the
	// day file keeps its parsed form and renders only when needed.
	lazy func() ([]byte, bool)
}

func newVaultFiles(fsys store.FS) *vaultFiles {
	return &vaultFiles{fsys: fsys, files: map[string]*vaultFile{}}
}

// get loads a file (once per sweep).
func (v *vaultFiles) get(path string) (*vaultFile, error) {
	if f, ok := v.files[path]; ok {
		return f, nil
	}
	f := &vaultFile{path: path, real: path}
	if v.resolve != nil {
		real, err := v.resolve(path)
		if err != nil {
			return nil, err
		}
		f.real = real
	}
	if err := f.load(v.fsys); err != nil {
		return nil, err
	}
	v.files[path] = f
	return f, nil
}

// load reads the file. Only a missing file is "no content"; any other
// error stops the sweep (a *store.UnreadableError): the sweep would
// otherwise write the file back without what it could not read.
func (f *vaultFile) load(fsys store.FS) error {
	fi, err := fsys.Stat(f.real)
	if errors.Is(err, fs.ErrNotExist) {
		f.stamp, f.base, f.content, f.exists = fileid.ID{}, nil, nil, false
		return nil
	}
	if err != nil {
		return &store.UnreadableError{What: vaultFileKind(f.path), Path: f.path, Err: err}
	}
	if fi.IsDir() {
		return &store.UnreadableError{What: vaultFileKind(f.path), Path: f.path, Err: &fs.PathError{Op: "read", Path: f.path, Err: syscall.EISDIR}}
	}
	if !fi.Mode().IsRegular() {
		return &store.UnreadableError{What: vaultFileKind(f.path), Path: f.path, Err: errors.New("not a regular file")}
	}
	data, err := fsys.ReadFile(f.real)
	if err != nil {
		return &store.UnreadableError{What: vaultFileKind(f.path), Path: f.path, Err: err}
	}
	f.stamp = stampOf(fi, nil)
	f.base, f.content, f.exists = data, data, true
	return nil
}

// vaultFileKind names a vault file for a message.
func vaultFileKind(path string) string {
	dir := filepath.Base(filepath.Dir(path))
	switch {
	case strings.Contains(filepath.ToSlash(path), "/ledger/observations/"), dir == "observations":
		return "the day file"
	case dir == "backlog":
		return "the backlog item"
	case dir == "tasks":
		return "the task"
	}
	return "the vault file"
}

// read returns a file's current content in the sweep.
func (v *vaultFiles) read(path string) ([]byte, bool, error) {
	f, err := v.get(path)
	if err != nil {
		return nil, false, err
	}
	f.materialize()
	return f.content, f.exists, nil
}

func (f *vaultFile) materialize() {
	if f.lazy != nil {
		f.content, f.exists = f.lazy()
		f.lazy = nil
	}
}

// apply changes a file and records the change for commit. opErr says the
// operation could not apply to the file as it is (nothing changed).
func (v *vaultFiles) apply(path string, op vaultOp) (opErr, err error) {
	f, err := v.get(path)
	if err != nil {
		return nil, err
	}
	f.materialize()
	content, exists, opErr := op.apply(f.content, f.exists)
	if opErr != nil || exists == f.exists && bytes.Equal(content, f.content) {
		return opErr, nil
	}
	v.record(path, f, op)
	f.content, f.exists = content, exists
	return nil, nil
}

// applyLazy records an operation whose result forward computes, when the
// content is next needed, from state the caller keeps.
func (v *vaultFiles) applyLazy(path string, op vaultOp, forward func() ([]byte, bool)) error {
	f, err := v.get(path)
	if err != nil {
		return err
	}
	v.record(path, f, op)
	f.lazy = forward
	return nil
}

func (v *vaultFiles) record(path string, f *vaultFile, op vaultOp) {
	if len(f.ops) == 0 {
		v.order = append(v.order, path)
	}
	f.ops = append(f.ops, op)
}

// dirty lists the files with changes not yet committed, in the order they
// were first changed.
func (v *vaultFiles) dirty() []string {
	var out []string
	for _, p := range v.order {
		if f, ok := v.files[p]; ok && len(f.ops) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// stage writes one changed file's new version under a temp name beside
// it (store.StageFile), for the commit to record in its journal and rename.
// When the file on disk is no longer the version read, the operations are
// replayed on it first. staged is nil when there is nothing to write.
func (v *vaultFiles) stage(w store.WriteFS, path string) (staged *store.StagedFile, journal store.JournalStaged, replayed bool, err error) {
	f := v.files[path]
	f.materialize()
	now := stampOf(v.fsys.Stat(f.real))
	if !now.Same(f.stamp) {
		fresh := &vaultFile{path: path, real: f.real}
		if err := fresh.load(v.fsys); err != nil {
			return nil, journal, false, err
		}
		content, exists := fresh.content, fresh.exists
		for _, op := range f.ops {
			content, exists, _ = op.apply(content, exists)
		}
		f.stamp, f.base, f.content, f.exists = fresh.stamp, fresh.base, content, exists
		replayed = true
	}
	if !f.exists {
		return nil, journal, replayed, nil // the observer never deletes
	}
	if err := w.MkdirAll(filepath.Dir(f.real), 0o755); err != nil {
		return nil, journal, replayed, err
	}
	// Encoded here, on the commit's staging workers: the journal copies
	// them as they are.
	ops, err := json.Marshal(f.ops)
	if err != nil {
		return nil, journal, replayed, err
	}
	st, err := store.StageFile(w, f.real, f.content, 0o644)
	if err != nil {
		return nil, journal, replayed, err
	}
	journal = store.JournalStagedOf(st, f.base, f.stamp.Exists())
	journal.Ops = ops
	return st, journal, replayed, nil
}

// placed records that a staged version is in place.
func (v *vaultFiles) placed(path string) {
	f := v.files[path]
	f.stamp = stampOf(v.fsys.Stat(f.real))
	f.base, f.ops = f.content, nil
}

// committed ends a commit: every change is on disk.
func (v *vaultFiles) committed() { v.order = nil }

// discard forgets every uncommitted change, after a failed commit: the
// next read sees the files as they are on disk.
func (v *vaultFiles) discard() {
	for _, p := range v.order {
		if f, ok := v.files[p]; ok && len(f.ops) > 0 {
			delete(v.files, p)
		}
	}
	v.order = nil
}
