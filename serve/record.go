package serve

import (
	"io"
	"io/fs"
	"sync"
	"time"

	"clawvault-tui/store"
)

// Action is one write being made through the server (a save, a promote, a
// sweep, a retention apply or undo): the file-system seams it writes
// through (WriteFS, MoveFS) record each file it changes, with its hash
// before and after, and End writes the audit line. Every write of the
// store goes through those seams: an atomic write is a temp file renamed
// into place, a move is a link and an unlink.
type Action struct {
	log     *AuditLog
	who     Who
	name    string
	command []string

	mu        sync.Mutex
	ephemeral map[string]bool // temp files and lock files it made
	files     []*AuditFile
	byPath    map[string]*AuditFile
}

// Begin starts recording an action; call End when it is over.
func (l *AuditLog) Begin(who Who, action string, command []string) *Action {
	return &Action{log: l, who: who, name: action, command: command, ephemeral: map[string]bool{}, byPath: map[string]*AuditFile{}}
}

// End writes the action's line to the audit log, with the error it ended
// on, if any. An action that changed no file is still a line: it was
// tried, by that key.
func (a *Action) End(err error) error {
	a.mu.Lock()
	files := make([]AuditFile, 0, len(a.files))
	for _, f := range a.files {
		if f.Before != nil || f.After != nil { // a file made and removed again (a journal)
			files = append(files, *f)
		}
	}
	a.mu.Unlock()
	r := AuditRecord{
		Time: a.log.now().UTC().Format(time.RFC3339Nano), Fingerprint: a.who.Key.Fingerprint,
		Comment: a.who.Key.Comment, Role: a.who.Key.Role.String(), Remote: a.who.Remote,
		Action: a.name, Command: a.command, Files: files,
	}
	if err != nil {
		r.Error = err.Error()
	}
	return a.log.append(r)
}

// touched records path going from before to after, keeping the first
// before of a path the action changes twice.
func (a *Action) touched(path string, before, after *string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if f, ok := a.byPath[path]; ok {
		f.After = after
		return
	}
	f := &AuditFile{Path: path, Before: before, After: after}
	a.byPath[path] = f
	a.files = append(a.files, f)
}

func (a *Action) isEphemeral(path string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ephemeral[path]
}

func (a *Action) markEphemeral(path string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ephemeral[path] = true
}

// rename records a temp file put in place (a write of newpath) or a file
// moved (gone from oldpath, arrived at newpath), then renames.
func (a *Action) rename(do func(string, string) error, oldpath, newpath string) error {
	moved := hashFile(oldpath)
	replaced := hashFile(newpath)
	if err := do(oldpath, newpath); err != nil {
		return err
	}
	if !a.isEphemeral(oldpath) {
		a.touched(oldpath, moved, nil)
	}
	a.touched(newpath, replaced, moved)
	return nil
}

// remove records a file removed, unless it is one of the action's own
// temp or lock files.
func (a *Action) remove(do func(string) error, name string) error {
	if a.isEphemeral(name) {
		return do(name)
	}
	gone := hashFile(name)
	if err := do(name); err != nil {
		return err
	}
	a.touched(name, gone, nil)
	return nil
}

// link records a second name made for a file: a move's first half, or a
// temp file put in place without replacing anything.
func (a *Action) link(do func(string, string) error, oldname, newname string) error {
	h := hashFile(oldname)
	if err := do(oldname, newname); err != nil {
		return err
	}
	a.touched(newname, nil, h)
	return nil
}

// WriteFS is w recording what it changes.
func (a *Action) WriteFS(w store.WriteFS) store.WriteFS { return recordingWriter{w, a} }

// MoveFS is m recording what it changes.
func (a *Action) MoveFS(m store.MoveFS) store.MoveFS { return recordingMover{m, a} }

type recordingWriter struct {
	store.WriteFS
	a *Action
}

func (r recordingWriter) CreateTemp(dir, pattern string) (store.TempFile, error) {
	f, err := r.WriteFS.CreateTemp(dir, pattern)
	if err == nil {
		r.a.markEphemeral(f.Name())
	}
	return f, err
}

func (r recordingWriter) Rename(oldpath, newpath string) error {
	return r.a.rename(r.WriteFS.Rename, oldpath, newpath)
}

func (r recordingWriter) Remove(name string) error { return r.a.remove(r.WriteFS.Remove, name) }

type recordingMover struct {
	store.MoveFS
	a *Action
}

func (r recordingMover) CreateTemp(dir, pattern string) (store.TempFile, error) {
	f, err := r.MoveFS.CreateTemp(dir, pattern)
	if err == nil {
		r.a.markEphemeral(f.Name())
	}
	return f, err
}

func (r recordingMover) Rename(oldpath, newpath string) error {
	return r.a.rename(r.MoveFS.Rename, oldpath, newpath)
}

func (r recordingMover) Remove(name string) error { return r.a.remove(r.MoveFS.Remove, name) }

func (r recordingMover) Link(oldname, newname string) error {
	return r.a.link(r.MoveFS.Link, oldname, newname)
}

// CreateExclusive makes a lock file, which is no change to record.
func (r recordingMover) CreateExclusive(name string, perm fs.FileMode) (io.WriteCloser, error) {
	w, err := r.MoveFS.CreateExclusive(name, perm)
	if err == nil {
		r.a.markEphemeral(name)
	}
	return w, err
}
