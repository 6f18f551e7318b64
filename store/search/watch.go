package search

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"

	"clawvault-tui/store"
)

// WatchReport says what one round of file events did to the index.
type WatchReport struct {
	// Paths are the files and folders the events named.
	Paths []string
	Stats Stats
	// Err is set when the update failed; the watch goes on.
	Err error
}

// Watch keeps the index in step with the files until ctx is done: it
// watches every folder of the roots (new folders too), and after each
// burst of events re-indexes the paths they named. It first syncs, so that
// changes made before the watches were in place are not missed. report is
// called from the watching goroutine after every round (it must not block
// for long); Watch returns nil when ctx ends, or an error if it cannot
// watch at all.
func (ix *Index) Watch(ctx context.Context, report func(WatchReport)) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	for i := range ix.opt.Roots {
		ix.watchTree(w, &ix.opt.Roots[i], ix.opt.Roots[i].Dir)
	}
	st, err := ix.Sync(ctx, nil)
	if ctx.Err() != nil {
		return nil
	}
	report(WatchReport{Stats: st, Err: err})
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			paths := ix.drain(w, ev)
			if len(paths) == 0 {
				continue
			}
			st, err := ix.Update(ctx, paths...)
			if errors.Is(err, ErrOutside) {
				err = nil // an event for a folder's own entry, or a link out
			}
			if ctx.Err() != nil {
				return nil
			}
			report(WatchReport{Paths: paths, Stats: st, Err: err})
		case _, ok := <-w.Errors:
			if !ok {
				return nil
			}
			// Events may have been lost (the kernel's queue overflowed, a
			// watch vanished with its folder): look at everything again.
			// The watcher's own error says nothing the user can act on.
			st, err := ix.Sync(ctx, nil)
			if ctx.Err() != nil {
				return nil
			}
			report(WatchReport{Stats: st, Err: err})
		}
	}
}

// drain takes the event at hand and every event already queued behind it
// (a save is several: create, write, chmod, rename), adds watches for new
// folders, and returns the distinct paths named.
func (ix *Index) drain(w *fsnotify.Watcher, ev fsnotify.Event) []string {
	seen := map[string]bool{}
	var paths []string
	for {
		// A SQLite store's -shm file is where every reader (this index
		// too) keeps its read marks: it changes on reads, not on writes.
		if !seen[ev.Name] && !strings.HasSuffix(ev.Name, "-shm") {
			seen[ev.Name] = true
			paths = append(paths, ev.Name)
		}
		if ev.Has(fsnotify.Rename) || ev.Has(fsnotify.Remove) {
			// A folder moved away keeps its watches under its old name:
			// drop them, and the folder's new name is watched afresh.
			for _, p := range w.WatchList() {
				if store.Within(ev.Name, p) {
					_ = w.Remove(p)
				}
			}
		}
		if ev.Has(fsnotify.Create) {
			if root, _, err := ix.opt.locate(ev.Name); err == nil {
				ix.watchTree(w, root, ev.Name)
			}
		}
		select {
		case ev = <-w.Events:
			continue
		default:
		}
		return paths
	}
}

// watchTree watches dir and the folders under it that the root reads. A
// folder that cannot be watched is left out (its files are still read by
// the next sync).
func (ix *Index) watchTree(w *fsnotify.Watcher, root *Root, dir string) {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return
	}
	switch root.Kind {
	case SessionsRoot, SQLiteRoot:
		_ = w.Add(dir)
		return
	case WorkspaceRoot:
		// MEMORY.md and DREAMS.md in the workspace itself; memory/ below.
		if dir == root.Dir {
			_ = w.Add(dir)
			dir = filepath.Join(root.Dir, "memory")
		} else if !store.Within(filepath.Join(root.Dir, "memory"), dir) {
			return
		}
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if root.Kind == VaultRoot {
			rel := filepath.ToSlash(strings.TrimPrefix(strings.TrimPrefix(p, root.Dir), string(filepath.Separator)))
			if rel != "" && !ix.opt.includedDir(rel) {
				return fs.SkipDir
			}
		}
		_ = w.Add(p)
		return nil
	})
}
