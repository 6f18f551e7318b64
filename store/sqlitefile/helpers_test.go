package sqlitefile

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"
)

// value is one column of one row as SQLite returns it or as a Record
// reads it: its storage class and the value of that class.
type value struct {
	kind Kind
	i    int64
	f    float64
	b    string
}

func (v value) String() string {
	switch v.kind {
	case Null:
		return "NULL"
	case Integer:
		return fmt.Sprint(v.i)
	case Real:
		return fmt.Sprintf("%g", v.f)
	case Text:
		return fmt.Sprintf("text %.40q (%d bytes)", v.b, len(v.b))
	}
	return fmt.Sprintf("blob %.40x (%d bytes)", v.b, len(v.b))
}

// row is a rowid and its columns.
type row struct {
	id   int64
	vals []value
}

// openDB opens the database at path on one connection (so that pragmas
// hold for every statement) and runs the statements given.
func openDB(t testing.TB, path string, stmts ...string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	for _, s := range stmts {
		mustExec(t, db, s)
	}
	return db
}

func mustExec(t testing.TB, db *sql.DB, stmt string, args ...any) {
	t.Helper()
	if _, err := db.Exec(stmt, args...); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// rootOf is the root page of the table through SQLite's schema.
func rootOf(t testing.TB, db *sql.DB, table string) uint32 {
	t.Helper()
	var root uint32
	if err := db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = ?`, table).Scan(&root); err != nil {
		t.Fatal(err)
	}
	return root
}

// sqlRows reads the rows with rowids in lo..hi and their columns c0,
// c1... (sqlite_master's own five) through SQLite.
func sqlRows(t testing.TB, db *sql.DB, table string, cols int, lo, hi int64) []row {
	t.Helper()
	names := ""
	for i := range cols {
		names += fmt.Sprintf(", c%d", i)
	}
	if table == "sqlite_master" {
		names = ", type, name, tbl_name, rootpage, sql"
	}
	out, err := queryRows(db, fmt.Sprintf(`SELECT rowid%s FROM %s WHERE rowid BETWEEN ? AND ? ORDER BY rowid`, names, table), cols, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// queryRows runs a query of a rowid and cols columns.
func queryRows(db *sql.DB, query string, cols int, args ...any) ([]row, error) {
	rs, err := db.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []row
	for rs.Next() {
		dest := make([]any, cols+1)
		ptrs := make([]any, cols+1)
		for i := range dest {
			ptrs[i] = &dest[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		id, ok := dest[0].(int64)
		if !ok {
			return nil, fmt.Errorf("rowid %T from SQLite", dest[0])
		}
		r := row{id: id, vals: make([]value, cols)}
		for i, d := range dest[1:] {
			switch d := d.(type) {
			case nil:
				r.vals[i] = value{kind: Null}
			case int64:
				r.vals[i] = value{kind: Integer, i: d}
			case float64:
				r.vals[i] = value{kind: Real, f: d}
			case string:
				r.vals[i] = value{kind: Text, b: d}
			case []byte:
				r.vals[i] = value{kind: Blob, b: string(d)}
			default:
				return nil, fmt.Errorf("column %d: %T from SQLite", i, d)
			}
		}
		out = append(out, r)
	}
	return out, rs.Err()
}

// fileRows reads the same through f, every column with every accessor,
// checking that they agree with each other: Size is the length of Bytes,
// Prefix a prefix of it that stops short only where the value leaves the
// leaf page, Int of a real its truncation.
func fileRows(f *File, root uint32, cols int, lo, hi int64) ([]row, error) {
	var out []row
	var last int64
	err := f.ScanTable(root, lo, hi, func(id int64, rec *Record) error {
		if id < lo || id > hi {
			return fmt.Errorf("rowid %d outside %d..%d", id, lo, hi)
		}
		if len(out) > 0 && id <= last {
			return fmt.Errorf("rowid %d after %d", id, last)
		}
		last = id
		r := row{id: id, vals: make([]value, cols)}
		for i := range cols {
			v, err := readValue(rec, i)
			if err != nil {
				return fmt.Errorf("rowid %d column %d: %w", id, i, err)
			}
			r.vals[i] = v
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// readValue reads column i with every accessor and checks they agree.
func readValue(rec *Record, i int) (value, error) {
	k := rec.Kind(i)
	v := value{kind: k}
	n, err := rec.Int(i)
	if err != nil {
		return v, err
	}
	b, err := rec.Bytes(i)
	if err != nil {
		return v, err
	}
	switch k {
	case Null:
		if n != 0 || b != nil || rec.Size(i) != 0 || rec.Prefix(i, 10) != nil {
			return v, fmt.Errorf("NULL reads as %d, %q, size %d", n, b, rec.Size(i))
		}
	case Integer:
		v.i = n
		if b != nil || rec.Size(i) != 0 {
			return v, fmt.Errorf("integer %d reads as bytes %q, size %d", n, b, rec.Size(i))
		}
	case Real:
		raw, err := rec.value(i, 8)
		if err != nil {
			return v, err
		}
		var bits uint64
		for _, c := range raw {
			bits = bits<<8 | uint64(c)
		}
		v.f = math.Float64frombits(bits)
		if n != realToInt(v.f) {
			return v, fmt.Errorf("real %g reads as integer %d", v.f, n)
		}
	case Text, Blob:
		v.b = string(b)
		if n != 0 || rec.Size(i) != len(b) {
			return v, fmt.Errorf("%d bytes read as integer %d, size %d", len(b), n, rec.Size(i))
		}
		for _, want := range []int{0, 1, 7, 100, 1 << 20} {
			p := rec.Prefix(i, want)
			if !bytes.HasPrefix(b, p) || len(p) > want {
				return v, fmt.Errorf("Prefix(%d) %q is not a prefix of %.40q", want, p, b)
			}
			if len(p) < min(want, len(b)) && rec.offsets[i]+int64(len(p)) < int64(len(rec.local)) {
				return v, fmt.Errorf("Prefix(%d) stops at %d bytes inside the leaf page", want, len(p))
			}
		}
	}
	return v, nil
}

// sameRows reports the first difference between what SQLite read and
// what the File read. realAsInt lists columns of REAL affinity, where
// SQLite stores a real with no fraction as an integer on disk and
// returns it as a real.
func sameRows(want, got []row, realAsInt ...int) error {
	for i := range min(len(want), len(got)) {
		w, g := want[i], got[i]
		if w.id != g.id {
			return fmt.Errorf("row %d: rowid %d, want %d", i, g.id, w.id)
		}
		for c := range w.vals {
			wv, gv := w.vals[c], g.vals[c]
			if wv.kind == Real && gv.kind == Integer && containsInt(realAsInt, c) && float64(gv.i) == wv.f {
				continue
			}
			if wv.kind == Real && gv.kind == Real && math.Float64bits(wv.f) == math.Float64bits(gv.f) {
				continue
			}
			if wv != gv {
				return fmt.Errorf("rowid %d column %d: %v, want %v", w.id, c, gv, wv)
			}
		}
	}
	if len(want) != len(got) {
		return fmt.Errorf("%d rows, want %d", len(got), len(want))
	}
	return nil
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// agree checks that f reads what db does in lo..hi.
func agree(t testing.TB, db *sql.DB, f *File, table string, cols int, lo, hi int64, realAsInt ...int) {
	t.Helper()
	want := sqlRows(t, db, table, cols, lo, hi)
	root := uint32(1)
	if table != "sqlite_master" {
		root = rootOf(t, db, table)
	}
	got, err := fileRows(f, root, cols, lo, hi)
	if err != nil {
		t.Fatalf("%s %d..%d: %v", table, lo, hi, err)
	}
	if err := sameRows(want, got, realAsInt...); err != nil {
		t.Fatalf("%s %d..%d: %v", table, lo, hi, err)
	}
}

func openFile(t testing.TB, path string) *File {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// hashFiles hashes the database and its -wal and -shm files (a missing
// one hashes as missing).
func hashFiles(t testing.TB, path string) string {
	t.Helper()
	h := sha256.New()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		b, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(h, "%s missing\n", filepath.Base(p))
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s %d\n", filepath.Base(p), len(b))
		h.Write(b)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// treeDepth is the number of levels of the b-tree at root (1: the root is
// a leaf), following left-most children.
func treeDepth(t testing.TB, f *File, root uint32) int {
	t.Helper()
	page := make([]byte, f.pageSize)
	depth := 1
	for n := root; ; depth++ {
		if err := f.readPage(n, page); err != nil {
			t.Fatal(err)
		}
		if page[pageHeaderAt(n)] == tableLeaf {
			return depth
		}
		child, err := firstChild(n, page)
		if err != nil {
			t.Fatal(err)
		}
		n = child
	}
}
