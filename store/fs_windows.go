//go:build windows

package store

import (
	"errors"
	"syscall"

	"golang.org/x/sys/windows"
)

// syncDir does nothing on Windows: a folder cannot be flushed there
// (FlushFileBuffers needs a handle open for writing, which a folder opened
// through os.Open is not, so it is refused). NTFS writes changes to its
// folders through its own journal: after a crash a rename is there or not,
// never half done, though the newest may be lost.
func syncDir(string) error { return nil }

// crossDevice reports whether a link failed because its two names are on
// different volumes (EXDEV is what a test's fake file system may say).
func crossDevice(err error) bool {
	return errors.Is(err, windows.ERROR_NOT_SAME_DEVICE) || errors.Is(err, syscall.EXDEV)
}
