package sqlitefile

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// fuzzSeeds are small real stores of 512-byte pages: a table on one leaf;
// one with an interior root and values on overflow pages; one three
// levels deep; and one in WAL mode whose table is all in the log (the
// database file and the log), last.
func fuzzSeeds(f *testing.F) (seeds [][2][]byte) {
	dir := f.TempDir()
	read := func(path string) []byte {
		b, err := os.ReadFile(path)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			f.Fatal(err)
		}
		return b
	}
	for i, stmts := range [][]string{
		{`CREATE TABLE t(a, b, c)`,
			`INSERT INTO t VALUES (1, 'one', x'01'), (-300, 2.5, NULL), (70000, 'héllo', ''), (0, 1, 1e100)`},
		{`CREATE TABLE t(a, b)`,
			`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
			 INSERT INTO t SELECT i, CASE WHEN i % 13 = 0 THEN printf('%.*c', 1200, 'v') ELSE 'row ' || i END FROM n`,
			`DELETE FROM t WHERE rowid BETWEEN 20 AND 24`,
			`ALTER TABLE t ADD COLUMN c`,
			`INSERT INTO t(rowid, a, c) VALUES (-9, 'neg', 9)`},
		// Three levels: 2,500 rows of a few bytes.
		{`CREATE TABLE t(a, b, c)`,
			`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
			 INSERT INTO t(rowid, a, b) SELECT i * 1000000 - 5000000, i % 100, i % 7 FROM n`},
	} {
		path := filepath.Join(dir, fmt.Sprint(i))
		db := openDB(f, path, append([]string{`PRAGMA page_size = 512`}, stmts...)...)
		db.Close()
		seeds = append(seeds, [2][]byte{read(path), nil})
	}
	path := filepath.Join(dir, "wal")
	openDB(f, path,
		`PRAGMA page_size = 512`,
		`PRAGMA journal_mode = WAL`,
		`PRAGMA wal_autocheckpoint = 0`,
		`CREATE TABLE t(a, b)`,
		`INSERT INTO t VALUES (1, 'in the log'), (2, printf('%.*c', 700, 'w'))`,
		`UPDATE t SET a = 3 WHERE rowid = 1`)
	// The writer stays open until the fuzz test ends: the log is read
	// before its close checkpoints it. Its salts are random: fixed ones
	// make the seed the same in every process.
	log := read(path + "-wal")
	copy(log[16:24], "saltsalt")
	for at := walHeaderSize; at+frameHeader <= len(log); at += frameHeader + 512 {
		copy(log[at+8:at+16], "saltsalt")
	}
	resignLog(log, 512)
	return append(seeds, [2][]byte{read(path), log})
}

// resignLog recomputes the checksums of a log's header and of its whole
// frames, so that the fuzzer's changes to the frames' pages and headers
// reach the reader instead of ending the log at the first frame.
func resignLog(log []byte, pageSize int) {
	if len(log) < walHeaderSize {
		return
	}
	bigEndian := binary.BigEndian.Uint32(log)&1 == 1
	s1, s2 := walChecksum(bigEndian, log[:24], 0, 0)
	binary.BigEndian.PutUint32(log[24:], s1)
	binary.BigEndian.PutUint32(log[28:], s2)
	size := frameHeader + pageSize
	for at := walHeaderSize; at+size <= len(log); at += size {
		fr := log[at : at+size]
		s1, s2 = walChecksum(bigEndian, fr[:8], s1, s2)
		s1, s2 = walChecksum(bigEndian, fr[frameHeader:], s1, s2)
		binary.BigEndian.PutUint32(fr[16:], s1)
		binary.BigEndian.PutUint32(fr[20:], s2)
	}
}

// headerPageSize is the page size a database header names (1 for 65,536),
// or 512.
func headerPageSize(db []byte) int {
	if len(db) < 18 {
		return 512
	}
	switch ps := int(binary.BigEndian.Uint16(db[16:])); ps {
	case 0:
		return 512
	case 1:
		return 65536
	default:
		return ps
	}
}

// errTooMuch ends a scan that has read more rows than a fuzzed store of a
// few pages can hold many times over.
var errTooMuch = errors.New("too many rows")

// FuzzScanTable: any database file and log open without panicking or
// fail with a CorruptError or ErrUnsupported; the schema table and every
// table it names scan (between any two rowids), every column read with
// every accessor, with the same outcome, and the accessors agree with
// each other; a scan ends.
func FuzzScanTable(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s[0], s[1], s[1] != nil, int64(math.MinInt64), int64(math.MaxInt64))
		f.Add(s[0], s[1], false, int64(2), int64(30))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, db, log []byte, resign bool, lo, hi int64) {
		path := filepath.Join(dir, "db")
		if err := os.WriteFile(path, db, 0o600); err != nil {
			t.Fatal(err)
		}
		os.Remove(path + "-wal")
		if len(log) > 0 {
			if resign {
				resignLog(log, headerPageSize(db))
			}
			if err := os.WriteFile(path+"-wal", log, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		file, err := Open(path)
		if err != nil {
			expected(t, err)
			return
		}
		defer file.Close()
		rows := 0
		scan := func(root uint32, lo, hi int64, each func(*Record) error) error {
			return file.ScanTable(root, lo, hi, func(id int64, rec *Record) error {
				if id < lo || id > hi {
					t.Fatalf("rowid %d outside %d..%d", id, lo, hi)
				}
				if rows++; rows > 1<<20 {
					return errTooMuch
				}
				if rec.Columns() < 0 || rec.Columns() > maxColumns {
					t.Fatalf("%d columns", rec.Columns())
				}
				for i := range rec.Columns() + 1 {
					if _, err := readValue(rec, i); err != nil {
						var ce *CorruptError
						if !errors.As(err, &ce) {
							t.Fatalf("rowid %d column %d: %v", id, i, err)
						}
						return err
					}
				}
				if each != nil {
					return each(rec)
				}
				return nil
			})
		}
		var roots []uint32
		err = scan(1, math.MinInt64, math.MaxInt64, func(rec *Record) error {
			kind, err := rec.Bytes(0)
			if err != nil {
				return err
			}
			root, err := rec.Int(3)
			if err != nil {
				return err
			}
			if string(kind) == "table" && len(roots) < 4 && root > 0 && root <= math.MaxUint32 {
				roots = append(roots, uint32(root))
			}
			return nil
		})
		if err != nil && err != errTooMuch {
			expected(t, err)
		}
		for _, root := range append(roots, 1) {
			if err := scan(root, lo, hi, nil); err != nil && err != errTooMuch {
				expected(t, err)
			}
			// Counting pages reads every page of the tree, once.
			if n, err := file.PageCount(root); err != nil {
				expected(t, err)
			} else if n < 1 {
				t.Fatalf("root %d: %d pages", root, n)
			}
			// Counting them without the leaves reads fewer.
			if n, err := file.InteriorPageCount(root); err != nil {
				expected(t, err)
			} else if n < 1 {
				t.Fatalf("root %d: %d pages without the leaves", root, n)
			}
		}
	})
}

// expected fails the test on an error other than those the package
// promises for a damaged file.
func expected(t *testing.T, err error) {
	t.Helper()
	var ce *CorruptError
	if !errors.As(err, &ce) && !errors.Is(err, ErrUnsupported) {
		t.Fatalf("error %v (%T), want a CorruptError or ErrUnsupported", err, err)
	}
}

// FuzzScanTableAgrees: a seed store (database file and log) with bytes
// changed that SQLite's quick_check finds intact is read by the File as
// SQLite's SELECT reads it, value by value: the schema table, and the
// tables whose schema is a seed's own (a column default or a REAL column
// changes what SQLite reads, not what is stored). The changes are up to
// three bytes set at offsets (three bytes each: offset, value), the log's
// checksums recomputed after: stores SQLite still reads, where raw
// mutations would mostly be files SQLite does not open.
func FuzzScanTableAgrees(f *testing.F) {
	seeds := fuzzSeeds(f)
	for i := range seeds {
		f.Add(uint8(i), []byte{})
	}
	f.Add(uint8(0), []byte{0x03, 0xf0, 0x41})
	f.Add(uint8(2), []byte{0x02, 0x30, 0x07, 0x04, 0x10, 0x00})
	dir := f.TempDir()
	seedSchemas := map[string]int{`CREATE TABLE t(a, b, c)`: 3, `CREATE TABLE t(a, b)`: 2}
	f.Fuzz(func(t *testing.T, seed uint8, patches []byte) {
		s := seeds[int(seed)%len(seeds)]
		data := append([]byte(nil), s[0]...)
		log := append([]byte(nil), s[1]...)
		// A few bytes: SQLite finds most stores with more damaged.
		for n := 0; n < 3 && len(patches) >= 3; n, patches = n+1, patches[3:] {
			at := int(binary.BigEndian.Uint16(patches)) % (len(data) + len(log))
			if at < len(data) {
				data[at] = patches[2]
			} else {
				log[at-len(data)] = patches[2]
			}
		}
		resignLog(log, 512)
		// The File reads one copy; SQLite another, which it recovers and
		// checkpoints.
		path := filepath.Join(dir, "db")
		for _, p := range []string{path, path + ".sqlite"} {
			os.Remove(p + "-wal")
			os.Remove(p + "-shm")
			if err := os.WriteFile(p, data, 0o600); err != nil {
				t.Fatal(err)
			}
			if len(log) == 0 {
				continue
			}
			if err := os.WriteFile(p+"-wal", log, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		db, err := sql.Open("sqlite", "file:"+path+".sqlite")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		db.SetMaxOpenConns(1)
		var check string
		if db.QueryRow(`PRAGMA quick_check`).Scan(&check) != nil || check != "ok" {
			return
		}
		tables := map[string]int{"sqlite_master": 5}
		roots := map[string]uint32{"sqlite_master": 1}
		rs, err := db.Query(`SELECT name, sql, rootpage FROM sqlite_master WHERE type = 'table'`)
		if err != nil {
			return
		}
		for rs.Next() {
			var name, schema string
			var root uint32
			if rs.Scan(&name, &schema, &root) == nil && seedSchemas[schema] > 0 {
				tables[name], roots[name] = seedSchemas[schema], root
			}
		}
		if rs.Close(); rs.Err() != nil || len(tables) == 1 {
			// SQLite reads an empty or short file as a database of no
			// tables: nothing to compare.
			return
		}
		// The File may refuse what SQLite reads (a database file whose
		// page 1 is damaged where the log holds a good one, which SQLite
		// reads instead), with a CorruptError or ErrUnsupported; it never
		// reads other rows.
		file, err := Open(path)
		if err != nil {
			expected(t, err)
			return
		}
		defer file.Close()
		for name, cols := range tables {
			want, err := queryRows(db, fmt.Sprintf(`SELECT rowid, * FROM "%s" ORDER BY rowid`, name), cols)
			if err != nil {
				continue
			}
			got, err := fileRows(file, roots[name], cols, math.MinInt64, math.MaxInt64)
			if err != nil {
				expected(t, err)
				continue
			}
			if err := sameRows(want, got); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	})
}
