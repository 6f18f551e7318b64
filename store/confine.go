package store

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// Confinement: the files clawvault-tui writes for a user (edits, promotes)
// and the paths it indexes must lie inside the vault or an agent's
// workspace once every symlink is resolved, so that a link inside the
// vault cannot lead a write to ~/.ssh.

// ErrOutside is returned (wrapped in an *OutsideError) for a path in none
// of the allowed folders.
var ErrOutside = errors.New("not in the vault or an agent's workspace memory")

// OutsideError names the refused path and where it really leads.
type OutsideError struct {
	Path     string // as given
	Resolved string // with symlinks resolved
}

// Error puts the reason first: a footer cut to the terminal's width keeps it.
func (e *OutsideError) Error() string {
	if e.Resolved != "" && e.Resolved != e.Path {
		return fmt.Sprintf("%v, the only files clawvault-tui edits: %s (which leads to %s)", ErrOutside, e.Path, e.Resolved)
	}
	return fmt.Sprintf("%v, the only files clawvault-tui edits: %s", ErrOutside, e.Path)
}

func (e *OutsideError) Unwrap() error { return ErrOutside }

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

// Confine resolves p (absolute or relative to the working folder) and
// returns it when it lies inside one of dirs, which must be absolute with
// their symlinks resolved; otherwise an *OutsideError. The returned path is
// the resolved one: write to it, not to p, so that a symlink swapped in
// afterwards cannot redirect the write.
func Confine(p string, dirs ...string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	resolved, err := ResolveExisting(abs)
	if err != nil {
		return "", err
	}
	for _, d := range dirs {
		if d != "" && Within(d, resolved) {
			return resolved, nil
		}
	}
	return "", &OutsideError{Path: p, Resolved: resolved}
}
