//go:build !unix

package search

import "os"

// readFile reads the whole of a vault file (see readfile_unix.go for why
// the size is passed).
func readFile(path string, _ int64) ([]byte, error) { return os.ReadFile(path) }
