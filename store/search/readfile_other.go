//go:build !unix

package search

import "clawvault-tui/store/regfile"

// readFile reads the whole of a vault file, if it is a regular file (see
// readfile_unix.go for why the size is passed).
func readFile(path string, _ int64) ([]byte, error) { return regfile.ReadFile(path) }
