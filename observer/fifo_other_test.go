//go:build !unix

package observer

import "errors"

// mkfifo: no named pipes in a folder here; the tests that plant one skip.
func mkfifo(string) error { return errors.ErrUnsupported }
