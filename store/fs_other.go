//go:build !windows

package store

import (
	"errors"
	"os"
	"syscall"
)

// syncDir fsyncs a folder, which makes the renames and links in it durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// crossDevice reports whether a link failed because its two names are on
// different file systems.
func crossDevice(err error) bool { return errors.Is(err, syscall.EXDEV) }
