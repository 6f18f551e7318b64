//go:build (!unix || aix) && !windows

package lockfile

import (
	"errors"
	"fmt"
	"os"
	"runtime"
)

// Systems without flock(2) or LockFileEx have no lock here: clawvault-tui
// is built and tested for Linux, and built for macOS and Windows.
func lock(*os.File, bool) error {
	return fmt.Errorf("file locks on %s: %w", runtime.GOOS, errors.ErrUnsupported)
}

func unlock(*os.File) error { return nil }

func removeAndRelease(f *os.File, path string) error {
	f.Close()
	return os.Remove(path)
}
