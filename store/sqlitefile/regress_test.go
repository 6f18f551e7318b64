package sqlitefile

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenStoreCreatedInWALMode: a store created in WAL mode whose log
// was never checkpointed keeps in its database file the page 1 written
// when the mode was set, before the first table set the text encoding
// (0 there). The encoding is page 1's in the log.
func TestOpenStoreCreatedInWALMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	w := openDB(t, path,
		`PRAGMA journal_mode = WAL`,
		`PRAGMA wal_autocheckpoint = 0`,
		`CREATE TABLE t(c0)`,
		`INSERT INTO t VALUES ('in the log')`)
	f := openFile(t, path)
	agree(t, w, f, "t", 1, math.MinInt64, math.MaxInt64)
}

// craftedStore is a store of 512-byte pages whose page 1 is a real
// schema naming table t at root page 2, and whose pages from 2 on are
// the ones given (built by hand); the header's page count is pages (0:
// the file's).
func craftedStore(t *testing.T, pageCount uint32, pages ...[]byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "db")
	db := openDB(t, path, `PRAGMA page_size = 512`, `CREATE TABLE t(c0)`)
	if root := rootOf(t, db, "t"); root != 2 {
		t.Fatalf("root %d", root)
	}
	db.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = data[:512]
	for _, p := range pages {
		data = append(data, make([]byte, 512)...)
		copy(data[len(data)-512:], p)
	}
	if pageCount == 0 {
		pageCount = uint32(len(data) / 512)
	}
	binary.BigEndian.PutUint32(data[28:], pageCount)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// interiorPage is a table interior page whose cells all point at child,
// with keys 1..cells, and whose right-most child is child too.
func interiorPage(cells int, child uint32) []byte {
	p := make([]byte, 512)
	p[0] = tableInterior
	binary.BigEndian.PutUint16(p[3:], uint16(cells))
	binary.BigEndian.PutUint32(p[8:], child)
	at := 512
	for i := range cells {
		at -= 5
		binary.BigEndian.PutUint32(p[at:], child)
		p[at+4] = byte(i + 1)
		binary.BigEndian.PutUint16(p[12+2*i:], uint16(at))
	}
	binary.BigEndian.PutUint16(p[5:], uint16(at))
	return p
}

// leafPage is a table leaf page of one cell with these bytes.
func leafPage(cell []byte) []byte {
	p := make([]byte, 512)
	p[0] = tableLeaf
	binary.BigEndian.PutUint16(p[3:], 1)
	at := 512 - len(cell)
	binary.BigEndian.PutUint16(p[5:], uint16(at))
	binary.BigEndian.PutUint16(p[8:], uint16(at))
	copy(p[at:], cell)
	return p
}

// putVarint appends SQLite's variable-length integer of v.
func putVarint(b []byte, v uint64) []byte {
	if v>>56 != 0 {
		var out [9]byte
		out[8] = byte(v)
		v >>= 8
		for i := 7; i >= 0; i-- {
			out[i] = byte(v&0x7f) | 0x80
			v >>= 7
		}
		return append(b, out[:]...)
	}
	var rev []byte
	for first := true; first || v != 0; first = false {
		c := byte(v & 0x7f)
		if !first {
			c |= 0x80
		}
		rev = append(rev, c)
		v >>= 7
	}
	for i := len(rev) - 1; i >= 0; i-- {
		b = append(b, rev[i])
	}
	return b
}

func TestPutVarint(t *testing.T) {
	for _, v := range []uint64{0, 1, 127, 128, 16383, 16384, 1 << 40, 1<<56 - 1, 1 << 56, math.MaxUint64} {
		got, k := varint(putVarint(nil, v))
		if got != v || k != len(putVarint(nil, v)) {
			t.Errorf("%d: %d in %d bytes", v, got, k)
		}
	}
}

// scanCrafted opens the store and reads every column of every row of t.
func scanCrafted(t *testing.T, path string) error {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = fileRows(f, 2, 1, math.MinInt64, math.MaxInt64)
	return err
}

func wantCorrupt(t *testing.T, err error) {
	t.Helper()
	var ce *CorruptError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v, want a CorruptError", err)
	}
}

// TestHugePayloadSize: a cell whose payload size says 2^40 bytes, on a
// store of four pages, is damage, not an allocation of that size when a
// value past the leaf page is read.
func TestHugePayloadSize(t *testing.T) {
	const size = 1 << 40
	local := (&File{usable: 512}).localPayload(size)
	cell := putVarint(nil, size)
	cell = putVarint(cell, 1)
	// The record: a header of 3 bytes naming one blob of 1,000 bytes.
	rec := putVarint([]byte{3}, 12+2*1000)
	rec = append(rec, make([]byte, local-len(rec))...)
	cell = append(cell, rec...)
	cell = binary.BigEndian.AppendUint32(cell, 3)
	overflow := make([]byte, 512)
	wantCorrupt(t, scanCrafted(t, craftedStore(t, 0, leafPage(cell), overflow, overflow)))
}

// TestHugeRecordHeader: a record header whose size is a varint of 2^63 or
// more is damage, not a record of no columns.
func TestHugeRecordHeader(t *testing.T) {
	cell := putVarint(nil, 20)
	cell = putVarint(cell, 1)
	rec := putVarint(nil, math.MaxUint64-5)
	cell = append(cell, rec...)
	cell = append(cell, make([]byte, 20-len(rec))...)
	wantCorrupt(t, scanCrafted(t, craftedStore(t, 0, leafPage(cell))))
}

// TestInteriorPagesSharingChildren: interior pages ten levels deep whose
// forty cells all point at the same page below, in a store whose header
// says it has 2^32-1 pages: the scan would visit 40^10 leaves; it ends
// with an error after as many leaves as the file has pages.
func TestInteriorPagesSharingChildren(t *testing.T) {
	var pages [][]byte
	for n := uint32(2); n < 12; n++ {
		pages = append(pages, interiorPage(40, n+1))
	}
	pages = append(pages, leafPage([]byte{3, 1, 2, 1, 9}))
	wantCorrupt(t, scanCrafted(t, craftedStore(t, math.MaxUint32, pages...)))
}
