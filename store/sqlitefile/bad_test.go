package sqlitefile

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// badBase is a store of 512-byte pages whose table t(c0, c1) has a root
// interior page, leaves, and every tenth row's blob on overflow pages.
type badBase struct {
	bytes    []byte
	root     uint32
	leaves   []uint32
	overflow uint32 // the first overflow page of rowid 10
	spilled  int    // the column of rowid 10 that spills
}

func newBadBase(t *testing.T) badBase {
	t.Helper()
	path := filepath.Join(t.TempDir(), "db")
	db := openDB(t, path,
		`PRAGMA page_size = 512`,
		`CREATE TABLE t(c0, c1)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
		 INSERT INTO t(c0, c1) SELECT 'row ' || i, CASE WHEN i % 10 = 0 THEN randomblob(3000) ELSE i END FROM n`)
	b := badBase{root: rootOf(t, db, "t"), spilled: 1}
	db.Close()
	var err error
	if b.bytes, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	f := openFile(t, path)
	if b.leaves, err = f.leavesOf(b.root, math.MinInt64, math.MaxInt64); err != nil || len(b.leaves) < 3 {
		t.Fatalf("leaves %v, %v", b.leaves, err)
	}
	err = f.ScanTable(b.root, 10, 10, func(_ int64, rec *Record) error {
		b.overflow = rec.overflow
		return nil
	})
	if err != nil || b.overflow == 0 {
		t.Fatalf("rowid 10's overflow page %d, %v", b.overflow, err)
	}
	return b
}

// page is a copy of the store's bytes with page n's bytes at off set to
// patch.
func (b badBase) patch(n uint32, off int, patch ...byte) []byte {
	out := append([]byte(nil), b.bytes...)
	copy(out[int(n-1)*512+off:], patch)
	return out
}

// scanAll opens the store of these bytes and reads every column of every
// row of the table at root.
func scanAll(t *testing.T, data []byte, root uint32) error {
	t.Helper()
	path := filepath.Join(t.TempDir(), "db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = fileRows(f, root, 2, math.MinInt64, math.MaxInt64)
	return err
}

func be16(v uint16) []byte { return binary.BigEndian.AppendUint16(nil, v) }
func be32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

// TestBadInput: each kind of damage is an error saying what is wrong,
// never a panic or rows made up.
func TestBadInput(t *testing.T) {
	b := newBadBase(t)
	pages := uint32(len(b.bytes) / 512)
	leaf := b.leaves[1]
	for _, tc := range []struct {
		name string
		data []byte
		root uint32
		// want is a part of the error's text.
		want string
	}{
		{"empty file", nil, 1, "shorter than a database header"},
		{"shorter than the header", b.bytes[:60], 1, "shorter than a database header"},
		{"not a database", []byte(strings.Repeat("this is a text file, not a database\n", 40)), 1, "no SQLite header"},
		{"page size not a power of two", b.patch(1, 16, be16(1000)...), 1, "page size 1000"},
		{"page size 256", b.patch(1, 16, be16(256)...), 1, "page size 256"},
		{"reserved bytes leave too little", b.patch(1, 20, 100), 1, "412 usable bytes"},
		{"root page past the end", b.bytes, pages + 5, "no such page"},
		{"root page 0", b.bytes, 0, "no such page"},
		{"root of another type", b.patch(b.root, 0, 0x0a), b.root, "page type 0xa"},
		{"interior cell pointer past the page", b.patch(b.root, 12, be16(0xffff)...), b.root, "cell 0 at offset 65535"},
		{"interior cell pointer into the header", b.patch(b.root, 12, be16(3)...), b.root, "cell 0 at offset 3"},
		{"interior cell count past the page", b.patch(b.root, 3, be16(5000)...), b.root, "5000 cells do not fit"},
		{"child past the end", b.patch(b.root, 8, be32(pages+100)...), b.root, "no such page"},
		{"child that is the root", b.patch(b.root, 8, be32(b.root)...), b.root, "where a table leaf must be"},
		{"leaf cell pointer past the page", b.patch(leaf, 8, be16(0xfff0)...), b.root, "cell 0 at offset 65520"},
		{"leaf cell count past the page", b.patch(leaf, 3, be16(300)...), b.root, "300 cells do not fit"},
		{"leaf of another type", b.patch(leaf, 0, 0x02), b.root, "page type 0x2"},
		{"overflow chain cut", b.patch(b.overflow, 0, 0, 0, 0, 0), b.root, "overflow chain ends"},
		{"overflow chain past the end", b.patch(b.overflow, 0, be32(pages+1)...), b.root, "no such page"},
		{"file cut before the overflow page", b.bytes[:int(b.overflow-1)*512+10], b.root, "no such page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := scanAll(t, tc.data, tc.root)
			var ce *CorruptError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v, want a CorruptError", err)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "sqlitefile: page ") {
				t.Fatalf("error %q, want one about %q", err, tc.want)
			}
		})
	}
}

// TestBadInputUnsupported: UTF-16 stores are ErrUnsupported (their text
// would be returned as stored); a missing file is the system's error.
func TestBadInputUnsupported(t *testing.T) {
	for _, enc := range []string{"UTF-16le", "UTF-16be"} {
		path := filepath.Join(t.TempDir(), "db")
		db := openDB(t, path, `PRAGMA encoding = '`+enc+`'`, `CREATE TABLE t(c0)`, `INSERT INTO t VALUES ('text')`)
		db.Close()
		if _, err := Open(path); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: error %v, want ErrUnsupported", enc, err)
		}
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: error %v", err)
	}
}

// TestOverflowDamageSparesTheLeaf: with a cut overflow chain, what lies on
// the leaf page still reads (Prefix and the other columns); only the
// spilled value is an error.
func TestOverflowDamageSparesTheLeaf(t *testing.T) {
	b := newBadBase(t)
	path := filepath.Join(t.TempDir(), "db")
	if err := os.WriteFile(path, b.patch(b.overflow, 0, 0, 0, 0, 0), 0o600); err != nil {
		t.Fatal(err)
	}
	f := openFile(t, path)
	err := f.ScanTable(b.root, 10, 10, func(_ int64, rec *Record) error {
		if got, err := rec.Bytes(0); err != nil || string(got) != "row 10" {
			t.Errorf("column 0: %q, %v", got, err)
		}
		if rec.Size(1) != 3000 || len(rec.Prefix(1, 3000)) == 0 {
			t.Errorf("column 1: size %d, prefix of %d bytes", rec.Size(1), len(rec.Prefix(1, 3000)))
		}
		_, err := rec.Bytes(1)
		return err
	})
	var ce *CorruptError
	if !errors.As(err, &ce) || !containsPage(b.leaves, ce.Page) {
		t.Fatalf("error %v, want a CorruptError naming rowid 10's leaf", err)
	}
}

// TestOverflowCycleReadsAsSQLite: an overflow page whose next page is
// itself reads as SQLite reads it (its bytes again until the value's
// length; SQLite's integrity check finds it, not its reads), and ends.
func TestOverflowCycleReadsAsSQLite(t *testing.T) {
	b := newBadBase(t)
	path := filepath.Join(t.TempDir(), "db")
	if err := os.WriteFile(path, b.patch(b.overflow, 0, be32(b.overflow)...), 0o600); err != nil {
		t.Fatal(err)
	}
	agree(t, openDB(t, path), openFile(t, path), "t", 2, math.MinInt64, math.MaxInt64)
}

func containsPage(s []uint32, p uint32) bool {
	for _, x := range s {
		if x == p {
			return true
		}
	}
	return false
}
