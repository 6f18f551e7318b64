//go:build !linux

package cli

// reserveHugeHeap does nothing where transparent huge pages are not
// Linux's (see hugeheap_linux.go).
func reserveHugeHeap(int64) {}
