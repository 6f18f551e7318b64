// Package hugeheap, imported for its effect, gives `status`, `tree` and
// `search --reindex` a heap on transparent huge pages.
//
// The Go runtime maps its heap a few MiB at a time without asking for
// huge pages, and where transparent huge pages are madvise-only (the
// default of many distributions) every 4 KiB page a process touches for
// the first time is a page fault; on a VM each costs microseconds. status
// over 50,000 sessions touched 31,000 pages, a fifth of its CPU time; the
// tree of a 713,000-event SQLite session, about 16,000 (half its faults);
// a full index build at scale 100, 55,000, and on huge pages it also
// spends 8% less CPU in user space (fewer TLB misses).
//
// So, when the command is `status`, `tree` or `search --reindex`, this
// package's init allocates one large object (Reserve bytes), advises it
// MADV_HUGEPAGE and frees it: the heap's next allocations reuse those
// addresses, faulted in 2 MiB at a time. Untouched pages are never
// resident, so the peak memory stays what the heap uses. It runs at init, before the other packages' init has
// freed any memory: a large object that began on freed pages would be
// zeroed by the runtime, touching all of it at 4 KiB a fault. Elsewhere
// than Linux it does nothing.
package hugeheap

import (
	"os"
	"slices"
)

func init() {
	if wanted(os.Args[1:]) {
		reserve(Reserve)
	}
}

// Reserve is the address space reserved: about what status uses over
// 100,000 sessions. Only what the heap touches becomes memory.
const Reserve = 256 << 20

// Commands are the tool's command words. The first of them on the
// command line is the command; a later one is an argument (`search
// status` searches for the word). A flag's value before the command
// (`--state-dir /x status`) is no command word, so it is passed over.
var Commands = []string{"config", "demo", "observe", "promote", "retention", "search", "status", "tree", "help", "completion"}

// wanted: the command line's command is status or tree, or a search
// that rebuilds its index (--reindex).
func wanted(args []string) bool {
	for i, a := range args {
		if a == "--" {
			return false
		}
		if slices.Contains(Commands, a) {
			return a == "status" || a == "tree" || a == "search" && (slices.Contains(args[i+1:], "--reindex") || slices.Contains(args[i+1:], "--reindex=true"))
		}
	}
	return false
}
