//go:build !unix

package search

import "testing"

// mkfifo: no FIFOs in a file system path here (Windows).
func mkfifo(t *testing.T, _ string) {
	t.Helper()
	t.Skip("no FIFOs here")
}
