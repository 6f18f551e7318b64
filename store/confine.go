package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Every path clawvault-tui writes, edits or reads in a user's folders is
// confined here, one way: RealPath says where the path really is (every
// symbolic link followed, the last component and a dangling link too),
// Within says whether that is inside a folder itself resolved, and a path
// that is not is refused with an *OutsideError before anything is read,
// created or written through it.

// Root confines writes to a folder: a path in it is written only where it
// really is after symbolic links are followed, and only when that is still
// inside the folder (itself resolved). A link to elsewhere in the folder
// is followed; a link that leads out is refused before anything is read,
// created or written through it.
type Root struct {
	Dir  string // as given
	real string // symlinks resolved
}

// NewRoot resolves dir.
func NewRoot(dir string) (*Root, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	return &Root{Dir: dir, real: real}, nil
}

// Real is the folder with symbolic links resolved.
func (r *Root) Real() string { return r.real }

// Resolve says where path (inside Dir, as written) really is (see
// RealPath); an *OutsideError (OpWrite) when that is not inside the
// resolved Dir.
func (r *Root) Resolve(path string) (string, error) {
	path = filepath.Clean(path)
	place := "the vault " + r.Dir
	if !Within(filepath.Clean(r.Dir), path) {
		return "", &OutsideError{Op: OpWrite, Path: path, Place: place}
	}
	real, err := RealPath(path)
	if err != nil {
		return "", err
	}
	if !r.Contains(real) {
		return "", &OutsideError{Op: OpWrite, Path: path, Real: real, Place: place}
	}
	return real, nil
}

// Contains reports whether a resolved path (RealPath) is in the folder.
func (r *Root) Contains(real string) bool { return Within(r.real, real) }

// ErrOutside is what every *OutsideError is (errors.Is).
var ErrOutside = errors.New("outside the folders clawvault-tui may use")

// Op is what an OutsideError refused to do.
type Op uint8

const (
	// OpWrite is a file a sweep writes (ledger, day file, category file,
	// backlog, cursors, lock, journal).
	OpWrite Op = iota
	// OpEdit is a memory file the Vault screen, the editor or promote
	// reads to show or change.
	OpEdit
)

// OutsideError is a path refused because, with its symbolic links
// followed, it is not in the place it must stay in. Nothing was read,
// created or written through it.
type OutsideError struct {
	Op    Op
	Path  string // as given
	Real  string // where it leads, symbolic links followed ("" when it was refused as written)
	Place string // where it must stay, as a user names it: "the vault /v"
}

// Error puts the reason first (a footer cut to the terminal's width keeps
// it), then the path and where it leads, then what was done about it.
func (e *OutsideError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "not in %s: %s", e.Place, e.Path)
	if e.Real != "" && e.Real != e.Path {
		fmt.Fprintf(&b, " (which leads to %s)", e.Real)
	}
	switch {
	case e.Op == OpWrite && e.Real != "" && e.Real != e.Path:
		b.WriteString("; nothing was written outside the vault: remove the link or move what it points at into the vault")
	case e.Op == OpWrite:
		b.WriteString("; nothing was written outside the vault")
	case e.Op == OpEdit:
		b.WriteString("; it is neither shown nor changed here")
	}
	return b.String()
}

func (e *OutsideError) Unwrap() error { return ErrOutside }

// maxLinks is how many symbolic links RealPath follows through dangling
// ones before it gives up, as the kernel's ELOOP does.
const maxLinks = 40

// RealPath says where path really is: its existing part with every
// symbolic link followed (the last component too; a dangling link, to
// where it points, however much of that is missing), then the part that
// does not exist yet. A file about to be created, or a deleted one, still
// resolves through its folder.
//
// A folder removed while it is being resolved (a watcher resolving the
// paths of a burst of events, say) is looked at again, a few times:
// realPath handles missing parts, so "does not exist" can only mean that
// a part vanished between its Lstat and the links being followed.
func RealPath(path string) (string, error) {
	var err error
	for range vanishedRetries {
		var real string
		if real, err = realPath(path, 0); !errors.Is(err, fs.ErrNotExist) {
			return real, err
		}
	}
	return "", err
}

// evalSymlinks is filepath.EvalSymlinks; tests remove a folder inside it.
var evalSymlinks = filepath.EvalSymlinks

// vanishedRetries bounds RealPath's new looks when parts keep vanishing.
const vanishedRetries = 4

func realPath(path string, links int) (string, error) {
	path = filepath.Clean(path)
	existing, rest := path, ""
	for {
		_, err := os.Lstat(existing)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	real, err := evalSymlinks(existing)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.As(err, new(*fs.PathError)) {
		// EvalSymlinks says "too many links" of a loop, naming no path.
		err = &fs.PathError{Op: "resolve", Path: path, Err: syscall.ELOOP}
	}
	if errors.Is(err, fs.ErrNotExist) {
		// existing is there (Lstat) but leads nowhere: a dangling link,
		// whose target is resolved in turn from the link's real folder.
		if links >= maxLinks {
			return "", fmt.Errorf("%s: too many levels of symbolic links", path)
		}
		var dir, target string
		if dir, err = filepath.EvalSymlinks(filepath.Dir(existing)); err != nil {
			return "", err
		}
		if target, err = os.Readlink(existing); err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		real, err = realPath(target, links+1)
	}
	if err != nil {
		return "", err
	}
	return filepath.Join(real, rest), nil
}

// Within reports whether p is dir or inside it (both clean and absolute,
// symbolic links already resolved: RealPath).
func Within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
