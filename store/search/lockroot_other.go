//go:build !unix

package search

// lockStoreRoot: elsewhere (Windows) a folder whose files another process
// has open cannot be renamed, which keeps the same promise.
func lockStoreRoot(string) (release func(), err error) { return func() {}, nil }
