//go:build linux

package transcript

import (
	"os"
	"syscall"
	"unsafe"
)

// madvPopulateRead is MADV_POPULATE_READ (Linux 5.14): fault a range in.
const madvPopulateRead = 22

// populate faults in the pages of a mapped chunk before it is scanned; on
// kernels without MADV_POPULATE_READ the scan simply faults them itself.
func populate(c chunk) {
	if c.mapped && len(c.data) > 0 {
		page := uintptr(os.Getpagesize())
		p := uintptr(unsafe.Pointer(&c.data[0]))
		aligned := p &^ (page - 1)
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, aligned, p-aligned+uintptr(len(c.data)), madvPopulateRead)
	}
}
