package store

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
)

// Within reports whether p is dir or inside it (both clean and absolute,
// symlinks already resolved).
func Within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// ResolveExisting resolves symlinks in the longest existing prefix of p
// (a file about to be created, or a deleted one, still resolves through its
// folder) and keeps the rest as is.
func ResolveExisting(p string) (string, error) {
	var missing []string
	for {
		resolved, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{resolved}, missing...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		missing = append([]string{filepath.Base(p)}, missing...)
		p = parent
	}
}

// ResolveIn resolves p (absolute or relative to the working folder) with
// ResolveExisting and reports whether it lies inside one of dirs, which
// must be absolute with their symlinks resolved. The resolved path is the
// one to write to: a symlink swapped in afterwards cannot redirect it.
func ResolveIn(p string, dirs ...string) (real string, inside bool, err error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", false, err
	}
	if real, err = ResolveExisting(abs); err != nil {
		return "", false, err
	}
	for _, d := range dirs {
		if d != "" && Within(d, real) {
			return real, true, nil
		}
	}
	return real, false, nil
}
