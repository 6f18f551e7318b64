//go:build windows

package lockfile

import (
	"errors"

	"golang.org/x/sys/windows"
)

// stillActive is the exit code GetExitCodeProcess gives a running process
// (STILL_ACTIVE).
const stillActive = 259

// ProcessAlive reports whether a process with this pid runs. A process
// that may not be opened (another user's, ACCESS_DENIED) exists, so it is
// alive; one that cannot be asked for its exit code is taken as alive too.
func ProcessAlive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}
