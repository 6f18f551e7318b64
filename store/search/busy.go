package search

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"clawvault-tui/model"
	"clawvault-tui/store/lockfile"
	"clawvault-tui/store/regfile"
)

// Who may have the index: bolt's lock on its root lets any number of
// processes search it (search opens it read-only until it has something
// to write) or one write to it (the TUI holds it to write). A full build
// (the first, or search --reindex) writes beside the index, in its build
// folder, and holds only the build lock (<folder>.build.lock, naming its
// process) until the new store takes the old one's place: meanwhile the
// index as it was, the last complete one, is searched by whoever opens it.
// A search that finds files changed since then, and cannot write them in
// (a build runs, or another process has the index open), answers from it
// all the same, and says how stale it is (BusyError.Stale).

// BusyError says another process has the index: open, or being built
// again.
type BusyError struct {
	Dir string
	// Building: another process is building the index again (search
	// --reindex).
	Building bool
	// Stale, when not 0, is how many files changed since the index was
	// written, which this process could not write in: it has the index
	// open all the same, and its searches answer from it.
	Stale int
}

func (e *BusyError) Error() string {
	who := fmt.Sprintf("another clawvault-tui has the search index %s open", e.Dir)
	if e.Building {
		who = fmt.Sprintf("another clawvault-tui is building the search index %s again", e.Dir)
	}
	switch {
	case e.Stale > 0:
		return fmt.Sprintf("index busy: %s; this search answers from the last complete index, which misses the changes to %s", who, model.Plural(e.Stale, "file", "files"))
	case e.Building:
		return "index busy: " + who + "; try again when it is done"
	}
	return "index busy: " + who + "; close it (or search from its Search screen) and try again"
}

// ErrBusy matches a *BusyError with errors.Is.
var ErrBusy = errors.New("index busy")

func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// buildLockPath is the build lock's file, beside the index folder.
func (ix *Index) buildLockPath() string { return ix.opt.Dir + ".build.lock" }

// lockBuild takes the build lock, naming this process in it; another
// process building is a *BusyError (stale: the files this run would have
// read). Call release when the built store is in place, or dropped.
func (ix *Index) lockBuild(stale int) (release func(), err error) {
	held, err := lockfile.TryLock(ix.buildLockPath())
	if errors.Is(err, lockfile.ErrBusy) {
		return nil, &BusyError{Dir: ix.opt.Dir, Building: true, Stale: stale}
	}
	if err != nil {
		return nil, fmt.Errorf("cannot lock the search index folder to build it: %w", err)
	}
	if err := held.Write([]byte(strconv.Itoa(os.Getpid()) + "\n")); err != nil {
		held.Remove()
		return nil, fmt.Errorf("cannot lock the search index folder to build it: %w", err)
	}
	return func() { _ = held.Remove() }, nil
}

// buildRunning says whether another process holds the build lock, from
// the process its file names (taking the lock to see would get in a
// builder's way).
func (ix *Index) buildRunning() bool {
	data, err := regfile.ReadFileLimit(ix.buildLockPath(), 64)
	if err != nil {
		return false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	return err == nil && pid > 0 && pid != os.Getpid() && lockfile.ProcessAlive(pid)
}
