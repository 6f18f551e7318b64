package store

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// MemoryFile is one Markdown file of an agent's workspace memory.
type MemoryFile struct {
	Path    string // absolute
	Rel     string // relative to the workspace
	Size    int64
	ModTime time.Time
	// Daily marks memory/YYYY-MM-DD.md notes.
	Daily bool
}

// WorkspaceMemory lists an agent's workspace memory as OpenClaw's
// memory-core reads it: MEMORY.md (or memory.md), DREAMS.md and
// memory/**/*.md. Symlinks are skipped, as memory-core skips them. A
// missing workspace is an empty list.
func WorkspaceMemory(fsys FS, workspace string) ([]MemoryFile, error) {
	if workspace == "" {
		return nil, nil
	}
	var out []MemoryFile
	add := func(rel string, fi fs.FileInfo) {
		out = append(out, MemoryFile{
			Path: filepath.Join(workspace, rel), Rel: rel, Size: fi.Size(), ModTime: fi.ModTime(),
			Daily: isDailyNote(rel),
		})
	}
	regular := func(name string) (fs.FileInfo, bool) {
		fi, err := fsys.Lstat(filepath.Join(workspace, name))
		return fi, err == nil && fi.Mode().IsRegular()
	}
	if fi, ok := regular("MEMORY.md"); ok {
		add("MEMORY.md", fi)
	} else if fi, ok := regular("memory.md"); ok { // only the fallback name
		add("memory.md", fi)
	}
	if fi, ok := regular("DREAMS.md"); ok {
		add("DREAMS.md", fi)
	}
	var walk func(rel string) error
	walk = func(rel string) error {
		entries, err := fsys.ReadDir(filepath.Join(workspace, rel))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			child := filepath.Join(rel, e.Name())
			switch {
			case e.Type()&fs.ModeSymlink != 0:
			case e.IsDir():
				if err := walk(child); err != nil {
					return err
				}
			case strings.HasSuffix(e.Name(), ".md") && e.Type().IsRegular():
				if fi, err := e.Info(); err == nil {
					add(child, fi)
				}
			}
		}
		return nil
	}
	if err := walk("memory"); err != nil {
		return out, err
	}
	slices.SortFunc(out, func(a, b MemoryFile) int { return strings.Compare(a.Rel, b.Rel) })
	return out, nil
}

// isDailyNote matches memory/YYYY-MM-DD.md.
func isDailyNote(rel string) bool {
	name, ok := strings.CutPrefix(filepath.ToSlash(rel), "memory/")
	if !ok || len(name) != len("2006-01-02.md") || !strings.HasSuffix(name, ".md") {
		return false
	}
	_, err := time.Parse("2006-01-02", strings.TrimSuffix(name, ".md"))
	return err == nil
}
