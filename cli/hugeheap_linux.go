package cli

import (
	"runtime"
	"syscall"
)

// hugeHeapMin is the smallest heap worth reserving.
const hugeHeapMin = 16 << 20

// hugeHeapMax bounds the reservation: address space, not memory (only the
// pages the heap touches become resident), but a hint is only a hint.
const hugeHeapMax = 1 << 30

// reserveHugeHeap grows the Go heap by about n bytes in one mapping that
// the kernel may back with transparent huge pages, for a one-shot command
// about to allocate that much. The runtime maps its heap in small pieces
// without asking for huge pages, and on a VM each 4 KiB page's first touch
// is a fault that costs microseconds: status over 50,000 sessions took
// 31,000 of them, a fifth of its CPU time. A large object is allocated
// (fresh memory, not touched), advised MADV_HUGEPAGE, and freed; the heap
// then reuses its addresses, each 2 MiB faulted in at once. Only touched
// pages become resident, so the peak memory stays what the heap uses.
// Where huge pages are off, the advice does nothing.
func reserveHugeHeap(n int64) {
	if n < hugeHeapMin {
		return
	}
	b := make([]byte, min(n, hugeHeapMax))
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE
	b = nil
	runtime.GC() // frees b's pages for the heap's next allocations
}
