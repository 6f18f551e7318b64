package sqlitefile

import (
	"encoding/binary"
	"math"
)

// Kind is a value's storage class.
type Kind uint8

const (
	Null Kind = iota
	Integer
	Real
	Text
	Blob
)

// maxColumns is the most columns a record is read with (SQLite's own limit
// is 2,000 by default; the tables read here have a dozen).
const maxColumns = 64

// Record is one row's payload: its header decoded (each column's type and
// place), its values read on demand. A value past the leaf page is read
// from the row's overflow pages only when asked for.
type Record struct {
	f *File
	// page is the leaf's number, for errors.
	page  uint32
	local []byte
	// size is the whole payload's; overflow is its first overflow page.
	size     int64
	overflow uint32
	columns  int
	types    [maxColumns]uint64
	offsets  [maxColumns + 1]int64
	// spill holds the payload read through the overflow pages.
	spill []byte
}

func (r *Record) reset(page uint32, local []byte, size int64, overflow uint32) error {
	r.page, r.local, r.size, r.overflow, r.spill = page, local, size, overflow, nil
	hsize, k := varint(local)
	// Compared as read (unsigned): a varint of 2^63 or more is no size.
	if k == 0 || hsize > uint64(len(local)) || int64(hsize) > size {
		return corrupt(page, "a record header of %d bytes", hsize)
	}
	at, body := k, int64(hsize)
	r.columns = 0
	for at < int(hsize) {
		t, k := varint(local[at:int(hsize)])
		if k == 0 {
			return corrupt(page, "a record's column type is cut off")
		}
		if r.columns == maxColumns {
			break
		}
		r.types[r.columns] = t
		r.offsets[r.columns] = body
		body += int64(valueSize(t))
		r.columns++
		at += k
	}
	r.offsets[r.columns] = body
	if body > size {
		return corrupt(page, "a record's values run past its %d bytes", size)
	}
	return nil
}

// valueSize is the bytes a value of serial type t takes in the body.
func valueSize(t uint64) int {
	switch {
	case t <= 4:
		return int(t)
	case t == 5:
		return 6
	case t == 6, t == 7:
		return 8
	case t < 12:
		return 0
	case t > 2*math.MaxInt32:
		return math.MaxInt32
	default:
		return int(t-12) / 2
	}
}

// Columns is how many columns the record holds: a row written before a
// column was added holds fewer than its table has (the missing ones read
// as NULL here, as their default is for the tables read).
func (r *Record) Columns() int { return r.columns }

// Kind is column i's storage class as stored; NULL past the record's
// columns. A column of REAL affinity stores a real with no fraction as an
// integer, which SQLite turns back into a real as it reads it: here it is
// an Integer of the same value.
func (r *Record) Kind(i int) Kind {
	if i >= r.columns {
		return Null
	}
	switch t := r.types[i]; {
	case t == 0:
		return Null
	case t == 7:
		return Real
	case t <= 9:
		return Integer
	case t >= 12 && t%2 == 0:
		return Blob
	case t >= 13:
		return Text
	}
	return Null
}

// Size is the length in bytes of column i's text or blob (0 for other
// kinds), from the header alone.
func (r *Record) Size(i int) int {
	if k := r.Kind(i); k != Text && k != Blob {
		return 0
	}
	return valueSize(r.types[i])
}

// Int is column i as an integer (0 for NULL, a text or a blob; a real
// as CAST(x AS INTEGER) gives it: truncated, saturated at int64's ends).
func (r *Record) Int(i int) (int64, error) {
	if i >= r.columns {
		return 0, nil
	}
	t := r.types[i]
	switch t {
	case 8:
		return 0, nil
	case 9:
		return 1, nil
	}
	if t == 0 || t > 7 {
		return 0, nil
	}
	b, err := r.value(i, valueSize(t))
	if err != nil {
		return 0, err
	}
	var v int64
	if b[0]&0x80 != 0 {
		v = -1
	}
	for _, c := range b {
		v = v<<8 | int64(c)
	}
	if t == 7 {
		return realToInt(math.Float64frombits(uint64(v))), nil
	}
	return v, nil
}

// realToInt converts as SQLite's CAST(x AS INTEGER) does: toward zero,
// saturating at the ends of int64. Go's own conversion of a real out of
// range is the machine's (the smallest int64 on amd64, 1e300 included).
// A NaN, which SQLite stores as NULL, is 0.
func realToInt(r float64) int64 {
	switch {
	case r != r:
		return 0
	case r <= math.MinInt64:
		return math.MinInt64
	case r >= math.MaxInt64:
		return math.MaxInt64
	}
	return int64(r)
}

// Bytes is column i's text or blob as stored (nil for NULL; other kinds
// are not read as bytes: nil). It is valid until the scan moves on.
func (r *Record) Bytes(i int) ([]byte, error) {
	if k := r.Kind(i); k != Text && k != Blob {
		return nil, nil
	}
	return r.value(i, valueSize(r.types[i]))
}

// OnPage says whether column i's value lies wholly on the leaf page (read
// without a page of the overflow chain).
func (r *Record) OnPage(i int) bool {
	return i >= r.columns || r.offsets[i]+int64(valueSize(r.types[i])) <= int64(len(r.local))
}

// Prefix is up to n bytes of the start of column i's text or blob, taken
// from the leaf page alone (it may be shorter than n, or empty, when the
// value continues on overflow pages).
func (r *Record) Prefix(i, n int) []byte {
	if k := r.Kind(i); k != Text && k != Blob {
		return nil
	}
	start := r.offsets[i]
	end := min(start+int64(min(n, valueSize(r.types[i]))), int64(len(r.local)))
	if start >= end {
		return nil
	}
	return r.local[start:end]
}

// value is the n bytes of column i, from the leaf page or, past it, from
// the overflow pages (read once per row, whole).
func (r *Record) value(i, n int) ([]byte, error) {
	start := r.offsets[i]
	end := start + int64(n)
	if end <= int64(len(r.local)) {
		return r.local[start:end], nil
	}
	if r.spill == nil {
		if err := r.readOverflow(); err != nil {
			return nil, err
		}
	}
	if end > int64(len(r.spill)) {
		return nil, corrupt(r.page, "a value past its record's end")
	}
	return r.spill[start:end], nil
}

// readOverflow reads the whole payload: the local part and its chain of
// overflow pages, each a next page's number and up to a page less four
// bytes of payload.
func (r *Record) readOverflow() error {
	f := r.f
	spill := make([]byte, 0, r.size)
	spill = append(spill, r.local...)
	per := int64(f.usable - 4)
	// A chain's pages mostly follow each other in the file: the pages it
	// still needs are read at once from its next page on, and followed in
	// that buffer while they do.
	var buf []byte
	var first, have uint32
	for next, hops := r.overflow, 0; int64(len(spill)) < r.size; hops++ {
		if next == 0 || hops > int(f.pages) {
			return corrupt(r.page, "an overflow chain ends %d bytes short", r.size-int64(len(spill)))
		}
		if next < first || next >= first+have {
			want := min((r.size-int64(len(spill))+per-1)/per, runPages)
			n := uint32(1)
			for int64(n) < want && next+n <= f.pages && !f.inLog(next) && !f.inLog(next+n) {
				n++
			}
			if need := int(n) * f.pageSize; len(buf) < need {
				buf = make([]byte, need)
			}
			var err error
			if n == 1 {
				err = f.readPage(next, buf[:f.pageSize])
			} else {
				err = f.readRun(next, buf[:int(n)*f.pageSize])
			}
			if err != nil {
				return err
			}
			first, have = next, n
		}
		page := buf[int(next-first)*f.pageSize:][:f.pageSize]
		take := min(per, r.size-int64(len(spill)))
		spill = append(spill, page[4:4+take]...)
		next = binary.BigEndian.Uint32(page)
	}
	r.spill = spill
	return nil
}

// OverflowPages is how many overflow pages the row's payload takes.
func (r *Record) OverflowPages() int64 { return r.f.overflowPages(uint64(r.size), true) }
