//go:build !linux

package hugeheap

// reserve does nothing where transparent huge pages are not Linux's.
func reserve(int) {}
