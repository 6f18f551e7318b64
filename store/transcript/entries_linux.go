//go:build linux

package transcript

import (
	"syscall"
	"unsafe"

	"clawvault-tui/model"
)

// hugePage is the size of a transparent huge page on amd64 and arm64.
const hugePage = 2 << 20

// processEntriesMin is the smallest mapping worth making (a variable for
// the tests).
var processEntriesMin = 4 * hugePage

// ProcessEntries returns an empty slice with room for n entries in memory
// mapped apart from the Go heap, with transparent huge pages allowed, or
// nil when mapping fails. The memory is never unmapped: it is for an index
// that lives as long as the process (Options.ProcessLifetime). Entries
// hold no pointers, so the collector need not see them. Below a few huge
// pages' worth it returns nil: a small index is not worth a mapping.
func ProcessEntries(n int) []model.Entry {
	size := n*int(unsafe.Sizeof(model.Entry{})) + hugePage
	if size < processEntriesMin {
		return nil
	}
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	// Advice only: without huge pages the mapping works as any other.
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE
	// A huge page covers an aligned 2 MiB: start at the first boundary.
	addr := uintptr(unsafe.Pointer(&b[0]))
	skip := int((addr+hugePage-1)&^(hugePage-1) - addr)
	return unsafe.Slice((*model.Entry)(unsafe.Pointer(&b[skip])), n)[:0]
}
