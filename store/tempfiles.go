package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"clawvault-tui/store/lockfile"
)

// Every file clawvault-tui writes goes first to a temp file beside it,
// named .<name>.clawvault-tui-<pid>-<random>.tmp: recognisably ours, and
// saying which process wrote it. A writer killed before its rename leaves
// one behind; the next sweep removes those whose writer is gone
// (RemoveStaleTemps), and only those.

const tempTag = ".clawvault-tui-"

// TempName is the temp file name for base written by pid.
func TempName(base string, pid int, random string) string {
	return "." + base + tempTag + strconv.Itoa(pid) + "-" + random + ".tmp"
}

// tempPattern is os.CreateTemp's pattern for a temp file of base written
// by this process.
func tempPattern(base string) string { return TempName(base, os.Getpid(), "*") }

// TempOwner says whether name is one of our temp names, and whose.
func TempOwner(name string) (pid int, ok bool) {
	rest, ok := strings.CutSuffix(name, ".tmp")
	if !ok || !strings.HasPrefix(rest, ".") {
		return 0, false
	}
	i := strings.LastIndex(rest, tempTag)
	if i < 2 { // "." and at least one byte of the name
		return 0, false
	}
	digits, random, ok := strings.Cut(rest[i+len(tempTag):], "-")
	if !ok || digits == "" || random == "" {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	if err != nil || pid <= 0 || strconv.Itoa(pid) != digits {
		return 0, false
	}
	return pid, true
}

// RemoveStaleTemps removes, under root (symlinks not followed), the temp
// files of ours whose writer no longer runs, and returns their paths.
// Call it holding the lock that keeps our other writers out of root.
func RemoveStaleTemps(w WriteFS, root string) ([]string, error) {
	var removed []string
	var errs []error
	alive := map[int]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable folder: nothing of ours we could see
		}
		if !d.Type().IsRegular() {
			return nil
		}
		pid, ok := TempOwner(d.Name())
		if !ok {
			return nil
		}
		live, seen := alive[pid]
		if !seen {
			live = pid == os.Getpid() || lockfile.ProcessAlive(pid)
			alive[pid] = live
		}
		if live {
			return nil
		}
		if err := w.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			return nil
		}
		removed = append(removed, p)
		return nil
	})
	return removed, errors.Join(err, errors.Join(errs...))
}
