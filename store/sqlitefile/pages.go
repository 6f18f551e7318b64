package sqlitefile

import (
	"encoding/binary"
	"slices"
)

// Page types of an index b-tree.
const (
	indexInterior = 0x02
	indexLeaf     = 0x0a
)

// PageCount counts the pages of the b-tree (a table's or an index's) whose
// root is page root, as SQLite's dbstat counts them: its interior and leaf
// pages, and the overflow pages of its cells. The overflow pages are
// counted from each cell's payload size (SQLite's rule for how much of a
// payload stays on its page), never read: the pages read are the tree's
// own, level by level, in runs of the file's order. A page reached twice
// (a damaged tree) is a CorruptError.
func (f *File) PageCount(root uint32) (int64, error) { return f.pageCount(root, -1) }

// InteriorPageCount is PageCount without reading the tree's leaves: they
// are counted from their parents' child pointers, their cells' overflow
// pages not at all (so it is PageCount when no leaf cell overflows). Every
// leaf of a b-tree is at the same depth, which the leftmost path down from
// the root gives.
func (f *File) InteriorPageCount(root uint32) (int64, error) {
	height, n := 0, root
	buf := make([]byte, f.pageSize)
	for ; ; height++ {
		if height > maxDepth {
			return 0, corrupt(root, "a b-tree deeper than %d", maxDepth)
		}
		if n == 0 || n > f.pages {
			return 0, corrupt(n, "no such page (the database has %d)", f.pages)
		}
		if err := f.readPage(n, buf); err != nil {
			return 0, err
		}
		h := pageHeaderAt(n)
		if h >= len(buf) {
			return 0, corrupt(n, "no page header")
		}
		if typ := buf[h]; typ != tableInterior && typ != indexInterior {
			break
		}
		child, err := firstChild(n, buf)
		if err != nil {
			return 0, err
		}
		n = child
	}
	return f.pageCount(root, height)
}

// pageCount is PageCount reading levels 0..leaves-1 only (every level when
// leaves is negative): the pages of level leaves are counted, not read.
func (f *File) pageCount(root uint32, leaves int) (int64, error) {
	seen := make([]uint64, (int(f.pages)+64)/64)
	visit := func(n uint32) error {
		if n == 0 || n > f.pages {
			return corrupt(n, "no such page (the database has %d)", f.pages)
		}
		if seen[n/64]&(1<<(n%64)) != 0 {
			return corrupt(n, "a page reached twice in one b-tree")
		}
		seen[n/64] |= 1 << (n % 64)
		return nil
	}
	if err := visit(root); err != nil {
		return 0, err
	}
	buf := runBuffers.Get().(*[]byte)
	defer runBuffers.Put(buf)
	if len(*buf) < runPages*f.pageSize {
		*buf = make([]byte, runPages*f.pageSize)
	}
	var count int64
	level := []uint32{root}
	for depth := 0; len(level) > 0; depth++ {
		if depth > maxDepth {
			return 0, corrupt(root, "a b-tree deeper than %d", maxDepth)
		}
		if depth == leaves {
			count += int64(len(level))
			break
		}
		slices.Sort(level)
		var next []uint32
		err := f.eachPage(level, *buf, func(n uint32, page []byte) error {
			count++
			children, overflow, err := f.pageCells(n, page)
			if err == nil && leaves > depth && len(children) == 0 {
				return corrupt(n, "a leaf above the tree's leaves")
			}
			count += overflow
			for _, c := range children {
				if err := visit(c); err != nil {
					return err
				}
			}
			next = append(next, children...)
			return err
		})
		if err != nil {
			return 0, err
		}
		level = next
	}
	return count, nil
}

// eachPage reads the pages (sorted) in runs and calls fn with each.
func (f *File) eachPage(pages []uint32, buf []byte, fn func(n uint32, page []byte) error) error {
	s := scanner{f: f, buf: buf}
	for len(pages) > 0 {
		k, err := s.run(pages)
		if err != nil {
			return err
		}
		for _, n := range pages[:k] {
			at := int(n-pages[0]) * f.pageSize
			if err := fn(n, buf[at:at+f.pageSize]); err != nil {
				return err
			}
		}
		pages = pages[k:]
	}
	return nil
}

// pageCells reads one b-tree page: the children of an interior page, and
// how many overflow pages its cells' payloads take.
func (f *File) pageCells(n uint32, page []byte) (children []uint32, overflow int64, err error) {
	h := pageHeaderAt(n)
	if h >= len(page) {
		return nil, 0, corrupt(n, "no page header")
	}
	typ := page[h]
	interior := typ == tableInterior || typ == indexInterior
	if !interior && typ != tableLeaf && typ != indexLeaf {
		return nil, 0, corrupt(n, "page type %#x in a b-tree", typ)
	}
	at := h + 8
	if interior {
		at = h + 12
	}
	cells, err := cellPointers(n, page, at)
	if err != nil {
		return nil, 0, err
	}
	for _, c := range cells {
		cell := page[c:]
		if interior {
			if len(cell) < 4 {
				return nil, 0, corrupt(n, "a cell past the page's end")
			}
			children = append(children, binary.BigEndian.Uint32(cell))
			cell = cell[4:]
		}
		if typ == tableInterior {
			continue // a rowid, no payload
		}
		size, k := varint(cell)
		if k == 0 {
			return nil, 0, corrupt(n, "a cell's size is cut off")
		}
		if size > uint64(f.pages)*uint64(f.pageSize) {
			return nil, 0, corrupt(n, "a cell's payload of %d bytes is larger than the database", size)
		}
		overflow += f.overflowPages(size, typ == tableLeaf)
	}
	if interior {
		children = append(children, binary.BigEndian.Uint32(page[h+8:]))
	}
	return children, overflow, nil
}

// overflowPages is how many overflow pages a payload of size bytes takes,
// in a table leaf or an index page.
func (f *File) overflowPages(size uint64, tableLeaf bool) int64 {
	local := uint64(f.localPayload(size))
	if !tableLeaf {
		local = uint64(f.indexLocalPayload(size))
	}
	if size <= local {
		return 0
	}
	per := uint64(f.usable - 4)
	return int64((size - local + per - 1) / per)
}

// indexLocalPayload is localPayload for an index page's cell, whose most
// on the page is less than a table leaf's.
func (f *File) indexLocalPayload(size uint64) int { return f.local(size, (f.usable-12)*64/255-23) }

// Pages describes the snapshot the file shows: its size in pages, how many
// of them are free (on the freelist, trunks and leaves), and whether the
// database keeps pointer-map pages (auto_vacuum or incremental_vacuum),
// from the database header as it stands in that snapshot.
func (f *File) Pages() (pages, free int64, ptrmaps bool, err error) {
	page := make([]byte, f.pageSize)
	if err := f.readPage(1, page); err != nil {
		return 0, 0, false, err
	}
	return int64(f.pages), int64(binary.BigEndian.Uint32(page[36:])), binary.BigEndian.Uint32(page[52:]) != 0, nil
}

// LockBytePage is the page that holds SQLite's lock bytes (the first page
// at or past offset 2^30), which no b-tree uses; 0 when the database does
// not reach it.
func (f *File) LockBytePage() int64 {
	n := int64(1<<30)/int64(f.pageSize) + 1
	if n > int64(f.pages) {
		return 0
	}
	return n
}
