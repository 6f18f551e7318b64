//go:build unix

package lockfile

import (
	"errors"

	"golang.org/x/sys/unix"
)

// ProcessAlive reports whether a process with this pid runs: signal 0
// tests it without disturbing it, and a process of another user answers
// EPERM, which is alive too. A zombie answers as well, but it has exited
// (its files are closed, its locks gone; only its parent has not reaped
// it yet): it is not alive.
func ProcessAlive(pid int) bool {
	err := unix.Kill(pid, 0)
	return (err == nil || errors.Is(err, unix.EPERM)) && !zombie(pid)
}
