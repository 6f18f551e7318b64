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
	size := n * int(unsafe.Sizeof(model.Entry{}))
	if size+hugePage < processEntriesMin {
		return nil
	}
	b := mapHuge(size)
	if b == nil {
		return nil
	}
	return unsafe.Slice((*model.Entry)(unsafe.Pointer(&b[0])), n)[:0]
}

// processBytes returns an empty buffer of capacity n mapped as
// ProcessEntries maps entries, never freed, or nil: a worker's read
// buffer for an index that lives as long as the process.
func processBytes(n int) []byte {
	if n+hugePage < processEntriesMin {
		return nil
	}
	return mapHuge(n)[:0]
}

// mapHuge maps size bytes apart from the Go heap, with transparent huge
// pages allowed and starting at a huge page's boundary, never to be
// unmapped; nil when mapping fails.
func mapHuge(size int) []byte {
	b, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	// Advice only: without huge pages the mapping works as any other.
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE
	// A huge page covers an aligned 2 MiB: start at the first boundary.
	addr := uintptr(unsafe.Pointer(&b[0]))
	skip := int((addr+hugePage-1)&^(hugePage-1) - addr)
	return b[skip : skip+size : skip+size]
}

// processArena is a tree's memory for an index that lives as long as the
// process (model.Arena): mapped as ProcessEntries maps the entries, handed
// out in order and never returned. Arrays below arenaMin go to the heap.
type processArena struct {
	free []byte
	// region is the size of a mapping: the tree's arrays of the index's
	// entries, about 20 bytes per entry, in one.
	region int
}

// arenaMin is the smallest array an arena hands out (a variable for the
// tests).
var arenaMin = 64 << 10

func newProcessArena(entries int) model.Arena {
	return &processArena{region: max(20*entries, processEntriesMin)}
}

func (a *processArena) bytes(n int) []byte {
	n = (n + 63) &^ 63
	if n < arenaMin {
		return nil
	}
	if len(a.free) < n {
		if a.free = mapHuge(max(n, a.region)); a.free == nil {
			return nil
		}
	}
	b := a.free[:n:n]
	a.free = a.free[n:]
	return b
}

func (a *processArena) Int32s(n int) []int32 {
	if b := a.bytes(4 * n); b != nil {
		return unsafe.Slice((*int32)(unsafe.Pointer(&b[0])), n)
	}
	return nil
}

func (a *processArena) Uint64s(n int) []uint64 {
	if b := a.bytes(8 * n); b != nil {
		return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n)
	}
	return nil
}
