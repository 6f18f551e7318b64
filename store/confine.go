package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

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

// OutsideError is a path that leads out of the folder it must stay in.
type OutsideError struct {
	Path, Real, Root string
}

func (e *OutsideError) Error() string {
	return fmt.Sprintf("refusing to write %s: through a symbolic link it leads to %s, outside the vault %s; nothing was written there, remove the link or move what it points at into the vault", e.Path, e.Real, e.Root)
}

// Resolve says where path (inside Dir, as written) really is (see
// RealPath); an *OutsideError when that is not inside the resolved Dir.
func (r *Root) Resolve(path string) (string, error) {
	path = filepath.Clean(path)
	if !within(filepath.Clean(r.Dir), path) {
		return "", &OutsideError{Path: path, Real: path, Root: r.Dir}
	}
	real, err := RealPath(path)
	if err != nil {
		return "", err
	}
	if !r.Contains(real) {
		return "", &OutsideError{Path: path, Real: real, Root: r.Dir}
	}
	return real, nil
}

// Contains reports whether a resolved path (RealPath) is in the folder.
func (r *Root) Contains(real string) bool { return within(r.real, real) }

// RealPath says where path really is: its existing part with every
// symbolic link followed (the last component too; a dangling link, to
// where it points), then the part that does not exist yet.
func RealPath(path string) (string, error) {
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
	real, err := filepath.EvalSymlinks(existing)
	if errors.Is(err, fs.ErrNotExist) {
		real, err = resolveDangling(existing)
	}
	if err != nil {
		return "", err
	}
	return filepath.Join(real, rest), nil
}

// resolveDangling follows a chain of links to the first name that does not
// exist.
func resolveDangling(p string) (string, error) {
	for range 40 {
		target, err := os.Readlink(p)
		if err != nil {
			return filepath.EvalSymlinks(filepath.Dir(p))
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		dir, err := filepath.EvalSymlinks(filepath.Dir(target))
		if err != nil {
			return "", err
		}
		p = filepath.Join(dir, filepath.Base(target))
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", p)
}

// within reports whether p is dir or inside it (both cleaned).
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
