//go:build unix

package transcript

import (
	"bytes"
	"context"
	"os"
	"syscall"
)

// mapChunks maps [from, size) of f and hands out chunks that end on a
// newline, with no copying: reading a 300 MB transcript through read(2)
// costs a core as much time as sniffing half of it. The mapping is
// released by unmap, after the workers are done. On Linux each worker
// faults its chunk's pages in with one madvise(MADV_POPULATE_READ)
// (populate), so the page-table work is shared among the workers rather
// than done up front. A file truncated under the mapping makes reads fault
// (SIGBUS); workers turn that fault into an error.
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
