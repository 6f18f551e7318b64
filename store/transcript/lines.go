package transcript

import (
	"bytes"
	"errors"
	"io"
)

// Line is one line handed out by ForEachLine.
type Line struct {
	// Bytes excludes the newline; it is only valid during the callback.
	Bytes      []byte
	Offset     int64
	Terminated bool // false for a last line with no newline
}

// ForEachLine calls fn for every line of r between start and end, in
// order, with a buffer that grows to fit lines of any length. fn returns
// false to stop early.
func ForEachLine(r io.ReaderAt, start, end int64, fn func(Line) bool) error {
	// The buffer starts at the range's size, up to 256 KiB, and grows for a
	// longer line.
	data := make([]byte, max(1, min(256<<10, end-start)))
	lo, hi := 0, 0 // unconsumed bytes are data[lo:hi]
	off := start   // file offset of data[lo]
	pos := start   // next file offset to read
	for {
		if i := bytes.IndexByte(data[lo:hi], '\n'); i >= 0 {
			if !fn(Line{Bytes: data[lo : lo+i], Offset: off, Terminated: true}) {
				return nil
			}
			lo += i + 1
			off += int64(i + 1)
			continue
		}
		if pos >= end {
			if hi > lo {
				fn(Line{Bytes: data[lo:hi], Offset: off})
			}
			return nil
		}
		// Make room: slide the partial line to the front, or grow for a long one.
		if lo > 0 {
			hi = copy(data, data[lo:hi])
			lo = 0
		}
		if hi == len(data) {
			grown := make([]byte, 2*len(data))
			copy(grown, data[:hi])
			data = grown
		}
		want := min(int64(len(data)-hi), end-pos)
		n, err := r.ReadAt(data[hi:hi+int(want)], pos)
		hi += n
		pos += int64(n)
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if int64(n) < want {
			end = pos // the file is shorter than expected (it shrank)
		}
	}
}
