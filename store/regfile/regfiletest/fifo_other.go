//go:build !unix

package regfiletest

import "testing"

// FIFO skips the test: these systems name no FIFO in the file system.
func FIFO(t testing.TB, path string) {
	t.Helper()
	t.Skip("no FIFOs on this system")
}
