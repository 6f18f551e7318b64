package vaultfs

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Entry is a file or folder of the memory tree.
type Entry struct {
	Root *Root
	// Rel is slash-separated, relative to the root ("" is the root itself).
	Rel     string
	Path    string // Root.Dir joined with Rel
	Dir     bool
	Size    int64
	ModTime time.Time
}

// Name is the last element of Rel, or the root's label.
func (e Entry) Name() string {
	if e.Rel == "" {
		return e.Root.Label()
	}
	return path.Base(e.Rel)
}

// Depth is how many folders down from the root the entry is (the root 0).
func (e Entry) Depth() int {
	if e.Rel == "" {
		return 0
	}
	return strings.Count(e.Rel, "/") + 1
}

// List walks every root and returns its entries in tree order: each root,
// then its folders and files, folders first, by name. It stats only.
// Symlinks are not followed (nor listed): what one points at is either
// listed in its own place or outside what may be edited. Folders that
// cannot be read are named in problems and skipped.
func (s *Space) List(ctx context.Context) (entries []Entry, problems []string, err error) {
	for _, r := range s.Roots {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		fi, statErr := os.Stat(r.Dir)
		if statErr != nil || !fi.IsDir() {
			continue
		}
		entries = append(entries, Entry{Root: r, Path: r.Dir, Dir: true, ModTime: fi.ModTime()})
		switch r.Kind {
		case VaultRoot:
			entries, problems, err = walk(ctx, r, "", entries, problems)
		case WorkspaceRoot:
			entries, problems, err = listWorkspace(ctx, r, entries, problems)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return entries, problems, nil
}

// walk appends the entries under rel (slash-separated) of a vault.
func walk(ctx context.Context, r *Root, rel string, out []Entry, problems []string) ([]Entry, []string, error) {
	if err := ctx.Err(); err != nil {
		return out, problems, err
	}
	dir := filepath.Join(r.Dir, filepath.FromSlash(rel))
	des, err := os.ReadDir(dir)
	if err != nil {
		return out, append(problems, err.Error()), nil
	}
	sortEntries(des)
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") || de.Type()&fs.ModeSymlink != 0 {
			continue
		}
		child := name
		if rel != "" {
			child = rel + "/" + name
		}
		fi, err := de.Info()
		if err != nil {
			continue // gone since the folder was read
		}
		e := Entry{Root: r, Rel: child, Path: filepath.Join(dir, name), Dir: de.IsDir(), ModTime: fi.ModTime()}
		if de.IsDir() {
			out = append(out, e)
			if out, problems, err = walk(ctx, r, child, out, problems); err != nil {
				return out, problems, err
			}
			continue
		}
		if !de.Type().IsRegular() {
			continue
		}
		e.Size = fi.Size()
		out = append(out, e)
	}
	return out, problems, nil
}

// sortEntries puts folders first, then files, each by name.
func sortEntries(des []os.DirEntry) {
	slices.SortFunc(des, func(a, b os.DirEntry) int {
		if a.IsDir() != b.IsDir() {
			if a.IsDir() {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name(), b.Name())
	})
}

// listWorkspace appends a workspace's memory: the top-level memory files
// (MemoryNames), then memory/ as a tree.
func listWorkspace(ctx context.Context, r *Root, out []Entry, problems []string) ([]Entry, []string, error) {
	for _, name := range MemoryNames {
		fi, err := os.Lstat(filepath.Join(r.Dir, name))
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if name == "memory.md" && slices.ContainsFunc(out, func(e Entry) bool { return e.Root == r && e.Rel == "MEMORY.md" }) {
			continue // OpenClaw reads memory.md only when there is no MEMORY.md
		}
		out = append(out, Entry{Root: r, Rel: name, Path: filepath.Join(r.Dir, name), Size: fi.Size(), ModTime: fi.ModTime()})
	}
	fi, err := os.Lstat(filepath.Join(r.Dir, "memory"))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return out, problems, nil
	case err != nil:
		return out, append(problems, err.Error()), nil
	case !fi.IsDir():
		return out, problems, nil
	}
	out = append(out, Entry{Root: r, Rel: "memory", Path: filepath.Join(r.Dir, "memory"), Dir: true, ModTime: fi.ModTime()})
	return walk(ctx, r, "memory", out, problems)
}

// MemoryFile is the path of an agent's MEMORY.md (memory.md when only that
// exists, as OpenClaw reads it), whether or not it exists yet.
func (s *Space) MemoryFile(agent string) (string, error) {
	r, ok := s.Workspace(agent)
	if !ok {
		return "", errors.New("agent " + agent + " has no workspace folder (OpenClaw's agents.list names none, and the default is missing)")
	}
	upper := filepath.Join(r.Dir, "MEMORY.md")
	if _, err := os.Lstat(upper); err != nil {
		lower := filepath.Join(r.Dir, "memory.md")
		if fi, err := os.Lstat(lower); err == nil && fi.Mode().IsRegular() {
			return lower, nil
		}
	}
	return upper, nil
}
