package sqlitefile

import (
	"encoding/binary"
	"sync"
)

// Page types of a table b-tree.
const (
	tableInterior = 0x05
	tableLeaf     = 0x0d
)

// maxDepth bounds a b-tree's depth: a real one of 2^32 pages is a few
// levels deep; a cycle in a corrupt file is not endless.
const maxDepth = 20

// ScanTable calls fn for each row of the table whose b-tree's root is page
// root with a rowid in lo..hi, in rowid order. rec is valid only until fn
// returns; an error from fn stops the scan and is returned.
//
// The leaf pages are found through the interior pages alone and read in
// runs: leaves that follow each other in the file a few pages apart are
// read in one call, with the pages between (a table appended to, as a
// transcript is, keeps its leaves mostly in order). The system call per
// page that SQLite makes is most of what a scan of a large table costs.
func (f *File) ScanTable(root uint32, lo, hi int64, fn func(rowid int64, rec *Record) error) error {
	if lo > hi {
		return nil
	}
	leaves, err := f.leavesOf(root, lo, hi)
	if err != nil {
		return err
	}
	buf := runBuffers.Get().(*[]byte)
	defer runBuffers.Put(buf)
	if len(*buf) < runPages*f.pageSize {
		*buf = make([]byte, runPages*f.pageSize)
	}
	s := scanner{f: f, buf: *buf, rec: Record{f: f}}
	for len(leaves) > 0 {
		n, err := s.run(leaves)
		if err != nil {
			return err
		}
		for _, leaf := range leaves[:n] {
			at := int(leaf-leaves[0]) * f.pageSize
			if err := s.leaf(leaf, s.buf[at:at+f.pageSize], lo, hi, fn); err != nil {
				return err
			}
		}
		leaves = leaves[n:]
	}
	return nil
}

// runPages is the most pages one read takes (a megabyte of 4 KiB pages);
// gapPages how many pages apart two leaves may be and still be read in one
// call.
const (
	runPages = 256
	gapPages = 8
)

// runBuffers keeps the buffers of runs between scans: a fresh megabyte
// costs the kernel's zeroing of it.
var runBuffers = sync.Pool{New: func() any { return new([]byte) }}

// leavesOf returns the leaf pages of the b-tree at root that may hold rowids
// in lo..hi, in key order, reading only interior pages. The root is a leaf
// in a small table.
func (f *File) leavesOf(root uint32, lo, hi int64) ([]uint32, error) {
	buf := make([]byte, f.pageSize)
	if err := f.readPage(root, buf); err != nil {
		return nil, err
	}
	// depth is that of the leaves below root: every leaf of a b-tree is as
	// deep as every other, so the leftmost path gives it.
	depth := 0
	page := buf
	for n := root; ; {
		h := pageHeaderAt(n)
		if page[h] == tableLeaf {
			break
		}
		if page[h] != tableInterior {
			return nil, corrupt(n, "page type %#x in a table b-tree", page[h])
		}
		if depth++; depth > maxDepth {
			return nil, corrupt(root, "a b-tree deeper than %d", maxDepth)
		}
		child, err := firstChild(n, page)
		if err != nil {
			return nil, err
		}
		if depth == 1 {
			page = make([]byte, f.pageSize)
		}
		if err := f.readPage(child, page); err != nil {
			return nil, err
		}
		n = child
	}
	if depth == 0 {
		return []uint32{root}, nil
	}
	var leaves []uint32
	if err := f.collect(root, buf, depth, lo, hi, &leaves); err != nil {
		return nil, err
	}
	return leaves, nil
}

// collect appends the children of the interior page n (in page) whose keys
// may hold rowids in lo..hi: leaves when depth is 1, else the leaves below.
func (f *File) collect(n uint32, page []byte, depth int, lo, hi int64, leaves *[]uint32) error {
	h := pageHeaderAt(n)
	if page[h] != tableInterior {
		return corrupt(n, "page type %#x where an interior page must be", page[h])
	}
	cells, err := cellPointers(n, page, h+12)
	if err != nil {
		return err
	}
	var below []byte
	visit := func(child uint32) error {
		if depth == 1 {
			if len(*leaves) >= int(f.pages) {
				return corrupt(n, "more leaves than the database has pages")
			}
			*leaves = append(*leaves, child)
			return nil
		}
		if below == nil {
			below = make([]byte, f.pageSize)
		}
		if err := f.readPage(child, below); err != nil {
			return err
		}
		return f.collect(child, below, depth-1, lo, hi, leaves)
	}
	// Cell i's child holds the rowids after cell i-1's key up to its own
	// key; the right-most child those after the last key. The children
	// past the first key at or after hi hold none in lo..hi.
	for _, off := range cells {
		child, key, err := interiorCell(n, page, off)
		if err != nil {
			return err
		}
		if key >= lo {
			if err := visit(child); err != nil {
				return err
			}
		}
		if key >= hi {
			return nil
		}
	}
	return visit(binary.BigEndian.Uint32(page[h+8:]))
}

// firstChild is the left-most child of an interior page.
func firstChild(n uint32, page []byte) (uint32, error) {
	h := pageHeaderAt(n)
	cells, err := cellPointers(n, page, h+12)
	if err != nil {
		return 0, err
	}
	if len(cells) == 0 {
		return binary.BigEndian.Uint32(page[h+8:]), nil
	}
	child, _, err := interiorCell(n, page, cells[0])
	return child, err
}

// interiorCell reads the cell at off of an interior page: its left child
// and its key, the highest rowid under that child.
func interiorCell(n uint32, page []byte, off uint16) (child uint32, key int64, err error) {
	at := int(off)
	if at+4 > len(page) {
		return 0, 0, corrupt(n, "a cell past the page's end")
	}
	v, k := varint(page[at+4:])
	if k == 0 {
		return 0, 0, corrupt(n, "a cell's key is cut off")
	}
	return binary.BigEndian.Uint32(page[at:]), int64(v), nil
}

// pageHeaderAt is where page n's b-tree header starts: after the database
// header on page 1.
func pageHeaderAt(n uint32) int {
	if n == 1 {
		return headerSize
	}
	return 0
}

// cellPointers returns the offsets of the page's cells, from the pointer
// array at at.
func cellPointers(n uint32, page []byte, at int) ([]uint16, error) {
	h := pageHeaderAt(n)
	if h+8 > len(page) {
		return nil, corrupt(n, "no page header")
	}
	count := int(binary.BigEndian.Uint16(page[h+3:]))
	if at+2*count > len(page) {
		return nil, corrupt(n, "%d cells do not fit the page", count)
	}
	out := make([]uint16, count)
	for i := range out {
		out[i] = binary.BigEndian.Uint16(page[at+2*i:])
		if int(out[i]) < at+2*count || int(out[i]) >= len(page) {
			return nil, corrupt(n, "cell %d at offset %d", i, out[i])
		}
	}
	return out, nil
}

// scanner reads runs of leaves into one buffer.
type scanner struct {
	f   *File
	buf []byte
	rec Record
}

// run reads the first leaves that one read can take (at least the first)
// into the buffer, each at its page's distance from the first's, and
// returns how many.
func (s *scanner) run(leaves []uint32) (int, error) {
	f := s.f
	first := leaves[0]
	if f.inLog(first) {
		return 1, f.readPage(first, s.buf[:f.pageSize])
	}
	n, last := 1, first
	for n < len(leaves) {
		next := leaves[n]
		if next <= last || next-last > gapPages || next-first >= runPages || f.inLog(next) {
			break
		}
		n, last = n+1, next
	}
	if last > f.pages {
		return 0, corrupt(last, "no such page (the database has %d)", f.pages)
	}
	return n, f.readRun(first, s.buf[:int(last-first+1)*f.pageSize])
}

// leaf scans one leaf page's cells.
func (s *scanner) leaf(n uint32, page []byte, lo, hi int64, fn func(int64, *Record) error) error {
	h := pageHeaderAt(n)
	if page[h] != tableLeaf {
		return corrupt(n, "page type %#x where a table leaf must be", page[h])
	}
	cells, err := cellPointers(n, page, h+8)
	if err != nil {
		return err
	}
	f := s.f
	for _, c := range cells {
		cell := page[c:]
		size, k := varint(cell)
		if k == 0 {
			return corrupt(n, "a cell's size is cut off")
		}
		// No payload is larger than the database: a size past it is
		// damage, not an allocation of that size when a value past the
		// leaf page is read.
		if size > uint64(f.pages)*uint64(f.pageSize) {
			return corrupt(n, "a cell's payload of %d bytes is larger than the database", size)
		}
		rowid, k2 := varint(cell[k:])
		if k2 == 0 {
			return corrupt(n, "a cell's rowid is cut off")
		}
		id := int64(rowid)
		if id < lo || id > hi {
			continue
		}
		cell = cell[k+k2:]
		local := f.localPayload(size)
		var overflow uint32
		if uint64(local) < size {
			if local+4 > len(cell) {
				return corrupt(n, "a cell's payload runs past the page")
			}
			overflow = binary.BigEndian.Uint32(cell[local:])
		} else if uint64(len(cell)) < size {
			return corrupt(n, "a cell's payload runs past the page")
		}
		if err := s.rec.reset(n, cell[:local], int64(size), overflow); err != nil {
			return err
		}
		if err := fn(id, &s.rec); err != nil {
			return err
		}
	}
	return nil
}

// localPayload is how much of a table leaf cell's payload of size bytes is
// on the leaf page itself; the rest is in overflow pages.
func (f *File) localPayload(size uint64) int { return f.local(size, f.usable-35) }

// local is SQLite's rule for how much of a payload of size bytes stays on
// its page, when at most maxLocal bytes may.
func (f *File) local(size uint64, maxLocal int) int {
	u := f.usable
	if size <= uint64(maxLocal) {
		return int(size)
	}
	minLocal := (u-12)*32/255 - 23
	k := minLocal + int((size-uint64(minLocal))%uint64(u-4))
	if k <= maxLocal {
		return k
	}
	return minLocal
}

// varint decodes SQLite's big-endian variable-length integer from b; k is
// its length, 0 when b ends first.
func varint(b []byte) (v uint64, k int) {
	for i := 0; i < 8; i++ {
		if i >= len(b) {
			return 0, 0
		}
		c := b[i]
		v = v<<7 | uint64(c&0x7f)
		if c < 0x80 {
			return v, i + 1
		}
	}
	if len(b) < 9 {
		return 0, 0
	}
	return v<<8 | uint64(b[8]), 9
}
