//go:build linux

package transcript

import (
	"bytes"
	"context"
	"os"
	"syscall"
	"unsafe"
)

// mapChunks maps [from, size) of f and hands out chunks that end on a
// newline, with no copying: reading a 300 MB transcript through read(2)
// costs a core as much time as sniffing half of it. MAP_POPULATE faults the
// pages in with one system call. The mapping is released by unmap, after
// the workers are done. Each worker faults its chunk's pages in with one
// madvise(MADV_POPULATE_READ) (populate), so the page-table work is shared
// among the workers rather than done up front. A file truncated under the
// mapping makes reads fault; workers turn that fault into an error.
func mapChunks(ctx context.Context, f *os.File, from, size int64, out chan<- chunk) (tail []byte, tailBase int64, unmap func(), ok bool) {
	if size-from < 4<<20 {
		return nil, 0, nil, false // small files: read(2) is as fast and simpler
	}
	page := int64(os.Getpagesize())
	start := from / page * page
	data, err := syscall.Mmap(int(f.Fd()), start, int(size-start), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, 0, nil, false
	}
	unmap = func() { _ = syscall.Munmap(data) }
	go func() {
		defer close(out)
		data := data[from-start:]
		base, seq := from, 0
		for len(data) > 0 {
			end := min(len(data), chunkSize)
			nl := bytes.LastIndexByte(data[:end], '\n')
			if nl < 0 {
				if nl = bytes.IndexByte(data[end:], '\n'); nl < 0 {
					break
				}
				nl += end
			}
			select {
			case out <- chunk{seq: seq, base: base, data: data[:nl+1], mapped: true}:
			case <-ctx.Done():
				return
			}
			seq++
			base += int64(nl + 1)
			data = data[nl+1:]
		}
	}()
	// The tail (bytes after the last newline) is found from the end, so the
	// caller has it without waiting for the chunks.
	all := data[from-start:]
	last := bytes.LastIndexByte(all, '\n')
	tail = append([]byte(nil), all[last+1:]...)
	return tail, from + int64(last+1), unmap, true
}

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
