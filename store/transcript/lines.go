package transcript

import (
	"bytes"
	"errors"
	"io"
)

// DefaultMaxLineBytes is the longest line readers decode by default
// (64 MiB): a longer one is reported and skipped, never loaded whole. The
// config's [transcripts] max_line_mb changes it.
const DefaultMaxLineBytes = 64 << 20

// Line is one line handed out by ForEachLine.
type Line struct {
	// Bytes excludes the newline; it is only valid during the callback,
	// and nil for a line longer than the cap (TooLong).
	Bytes  []byte
	Offset int64
	// Len is the line's length without the newline, also when TooLong.
	Len        int64
	Terminated bool // false for a last line with no newline
	// TooLong: the line is longer than the cap; it was scanned for its
	// end, not kept.
	TooLong bool
}

// measureChunk is the read size while a long line is measured.
const measureChunk = 1 << 20

// ForEachLine calls fn for every line of r between start and end, in
// order. Lines up to maxLine bytes come whole; a longer line comes as
// TooLong, without its bytes. A line that outgrows the buffer is measured
// first (read through in pieces to its newline), then read into a buffer
// of its size, or skipped when it is over the cap: memory stays about the
// longest line under the cap, whatever the file holds, and each byte is
// read at most twice. maxLine <= 0 means no cap. fn returns false to stop
// early.
func ForEachLine(r io.ReaderAt, start, end, maxLine int64, fn func(Line) bool) error {
	if maxLine <= 0 {
		maxLine = max(end-start, 1)
	}
	data := make([]byte, max(1, min(256<<10, end-start, maxLine+1)))
	lo, hi := 0, 0 // unconsumed bytes are data[lo:hi]
	off := start   // file offset of data[lo]
	pos := start   // next file offset to read
	scanned := 0   // data[lo:lo+scanned] holds no newline
	var scratch []byte
	for {
		if i := bytes.IndexByte(data[lo+scanned:hi], '\n'); i >= 0 {
			i += scanned
			if !fn(Line{Bytes: data[lo : lo+i], Offset: off, Len: int64(i), Terminated: true}) {
				return nil
			}
			lo += i + 1
			off += int64(i + 1)
			scanned = 0
			continue
		}
		scanned = hi - lo
		if pos >= end {
			if hi > lo {
				l := Line{Offset: off, Len: int64(hi - lo)}
				if l.Len > maxLine {
					l.TooLong = true
				} else {
					l.Bytes = data[lo:hi]
				}
				fn(l)
			}
			return nil
		}
		if lo > 0 { // slide the partial line to the front
			hi = copy(data, data[lo:hi])
			lo = 0
		}
		if hi == len(data) {
			// The line fills the buffer: measure it before growing.
			if scratch == nil {
				scratch = make([]byte, min(measureChunk, maxLine+1))
			}
			rest, terminated, err := measureLine(r, pos, end, scratch)
			if err != nil {
				return err
			}
			length := int64(hi) + rest
			if length > maxLine {
				if !fn(Line{Offset: off, Len: length, Terminated: terminated, TooLong: true}) || !terminated {
					return nil
				}
				pos += rest + 1
				off = pos
				hi, scanned = 0, 0
				continue
			}
			grown := make([]byte, max(int64(len(data)), length+1))
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

// measureLine reads from pos to the first newline (or end) and says how
// many bytes come before it, and whether there is one. A file shorter than
// end ends the line where it ends.
func measureLine(r io.ReaderAt, pos, end int64, buf []byte) (int64, bool, error) {
	for p := pos; p < end; {
		want := min(int64(len(buf)), end-p)
		n, err := r.ReadAt(buf[:want], p)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return p + int64(i) - pos, true, nil
		}
		p += int64(n)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, false, err
		}
		if int64(n) < want {
			return p - pos, false, nil
		}
	}
	return end - pos, false, nil
}
