package hugeheap

import (
	"runtime"
	"runtime/debug"
	"syscall"
)

// reserve grows the heap by n bytes advised MADV_HUGEPAGE, free for the
// heap's next allocations. The collector is held off while the object
// lives (its size alone would start a cycle), then one cycle frees it.
func reserve(n int) {
	gcPercent := debug.SetGCPercent(-1)
	b := make([]byte, n)
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE
	b = nil
	runtime.GC()
	debug.SetGCPercent(gcPercent)
}
