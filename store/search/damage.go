package search

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A damaged index is a cache gone bad, never a reason to stop: it is
// found (checkStore before bleve opens it; a manifest that does not
// decode; a panic of bleve's, zap's or bolt's, recovered where we call
// them), set aside (its folder renamed beside it, not deleted, for
// whoever wants to look), and built again, with one sentence saying so.

// ErrDamaged matches a *DamagedError with errors.Is.
var ErrDamaged = errors.New("search index damaged")

// DamagedError says the index on disk was found damaged, why, and where
// it was set aside (empty until it is: a search that finds the damage
// leaves that to the next sync).
type DamagedError struct {
	Dir, Reason, SetAside string
}

func (e *DamagedError) Error() string {
	if e.SetAside == "" {
		return fmt.Sprintf("the search index in %s is damaged (%s): it is set aside and built again by the next sync", e.Dir, e.Reason)
	}
	// What happened first, then where: the Search screen's status line
	// shows what fits of it.
	return fmt.Sprintf("the search index was damaged (%s): it was set aside as %s and is built again", e.Reason, e.SetAside)
}

func (e *DamagedError) Is(target error) bool { return target == ErrDamaged }

// keepSetAside is how many set-aside indexes of one folder are kept: an
// index damaged again and again does not fill the disk.
const keepSetAside = 3

// setAside renames the index folder to <folder>.damaged-<time>, once no
// other process has the index open (the lock bolt holds on its root), and
// removes all but the newest keepSetAside such folders. The caller holds
// the folder's lock (lockOpen) and has closed its own index.
func (ix *Index) setAside(reason string) (*DamagedError, error) {
	reason = oneLine(reason)
	ix.dropManifestMap()
	release, err := lockStoreRoot(filepath.Join(ix.storePath(), "root.bolt"))
	if err != nil {
		return nil, &BusyError{Dir: ix.opt.Dir}
	}
	defer release()
	stamp := time.Now().UTC().Format("20060102T150405.000Z")
	aside := ix.opt.Dir + ".damaged-" + stamp
	if err := os.Rename(ix.opt.Dir, aside); err != nil {
		return nil, fmt.Errorf("the search index in %s is damaged (%s) and cannot be set aside: %w", ix.opt.Dir, reason, err)
	}
	pruneSetAside(ix.opt.Dir)
	return &DamagedError{Dir: ix.opt.Dir, Reason: reason, SetAside: aside}, nil
}

// oneLine is a reason as one line (the library's errors hold line
// breaks).
func oneLine(reason string) string { return strings.Join(strings.Fields(reason), " ") }

// pruneSetAside removes the set-aside copies of dir but the newest
// keepSetAside (their names sort by time).
func pruneSetAside(dir string) {
	old, _ := filepath.Glob(dir + ".damaged-*")
	slices.Sort(old)
	for _, p := range old[:max(0, len(old)-keepSetAside)] {
		os.RemoveAll(p)
	}
}

// safely runs fn, a panic of the search library's an error: for the
// goroutines of a full build, where no recover of the caller's reaches.
func safely(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the search library failed: %v", r)
		}
	}()
	return fn()
}

// damagedBy records a panic recovered from the search library as damage
// to the index, for the next sync to act on, and returns it as an error.
func (ix *Index) damagedBy(r any) error {
	reason := oneLine(fmt.Sprintf("the search library failed on it: %v", r))
	ix.damage.Store(&reason)
	return &DamagedError{Dir: ix.opt.Dir, Reason: reason}
}

// damageFound is the reason recorded by damagedBy, "" if none.
func (ix *Index) damageFound() string {
	if r := ix.damage.Load(); r != nil {
		return *r
	}
	return ""
}

// replaceDamaged sets the open index aside and opens an empty one in its
// place. Called with mu held.
func (ix *Index) replaceDamaged(reason string) (*DamagedError, error) {
	var d *DamagedError
	err := ix.reopen(func() error {
		var err error
		if d, err = ix.setAside(reason); err != nil {
			return err
		}
		return ix.create()
	})
	if err == nil {
		ix.damage.Store(nil)
	}
	return d, err
}
