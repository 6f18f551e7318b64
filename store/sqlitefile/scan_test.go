package sqlitefile

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// intValues are integers of every width SQLite stores: 0 and 1 (serial
// types 8 and 9, no bytes), 1, 2, 3, 4, 6 and 8 bytes, each at its edges
// and negated.
var intValues = []int64{
	0, 1, 2, -1, 127, -128, 128, -129,
	32767, -32768, 32768, -32769,
	1<<23 - 1, -1 << 23, 1 << 23, -1<<23 - 1,
	1<<31 - 1, -1 << 31, 1 << 31, -1<<31 - 1,
	1<<47 - 1, -1 << 47, 1 << 47, -1<<47 - 1,
	math.MaxInt64, math.MinInt64, 1234567890123, -987654321,
}

var realValues = []float64{
	0.5, -1.25, 3.0, 1e300, -1e-300, math.MaxFloat64, math.SmallestNonzeroFloat64,
	math.Inf(1), math.Inf(-1), 1 << 62, -(1 << 63), 1e19, 123456.789,
}

var textValues = []string{
	"", "a", "plain ASCII text", "héllo wörld", "日本語のテキスト", "emoji 🙂🚀 and ZWJ 👩‍👩‍👧",
	"line\nbreaks\tand\x00NUL", strings.Repeat("ü", 300),
}

// fill fills the table t(c0, c1, c2, c3) of db, then adds a column c4:
// every storage class and integer width, text and blob payloads from
// empty to many pages around the sizes where a payload starts to spill,
// a thousand-odd rows of filler so the b-tree has three levels or more,
// a stretch of rows deleted in the middle and every seventh row in
// another, negative rowids and the extreme ones. It returns how many
// columns the table has at the end.
func fill(t testing.TB, db *sql.DB, pageSize int, filler int) int {
	rng := rand.New(rand.NewPCG(uint64(pageSize), 7))
	mustExec(t, db, `BEGIN`)
	mustExec(t, db, `CREATE TABLE t(c0, c1, c2, c3)`)
	ins := func(args ...any) {
		t.Helper()
		mustExec(t, db, `INSERT INTO t(c0, c1, c2, c3) VALUES (?, ?, ?, ?)`, args...)
	}
	for i, v := range intValues {
		ins(v, -v, textValues[i%len(textValues)], nil)
	}
	for i, v := range realValues {
		ins(v, nil, int64(i), []byte{byte(i)})
	}
	for _, s := range textValues {
		ins(s, []byte(s), nil, s+s)
	}
	ins([]byte{}, "", nil, nil)
	// Payload sizes around the page's largest local payload and its
	// overflow pages' capacity, and whole pages' worth.
	u := pageSize
	for _, base := range []int{u - 35, u - 4, 2 * (u - 4), (u-12)*32/255 - 23} {
		for d := -12; d <= 12; d += 3 {
			if n := base + d; n >= 0 {
				ins(randBytes(rng, n), nil, int64(n), strings.Repeat("x", n%50))
			}
		}
	}
	for _, n := range []int{3 * u, 7*u + 13, 20 * u} {
		ins(randBytes(rng, n), string(randText(rng, n/2)), randBytes(rng, n/3), nil)
		ins(nil, nil, nil, randBytes(rng, n))
	}
	// Filler: enough rows of about 100 bytes for a tree three levels deep.
	for i := range filler {
		ins(int64(i), randText(rng, rng.IntN(60)), randBytes(rng, 20+rng.IntN(40)), rng.Float64())
	}
	mustExec(t, db, `COMMIT`)

	// A stretch deleted in the middle frees pages and merges leaves; every
	// seventh row of another leaves holes in its leaves.
	var maxID int64
	if err := db.QueryRow(`SELECT max(rowid) FROM t`).Scan(&maxID); err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, `DELETE FROM t WHERE rowid BETWEEN ? AND ?`, maxID/3, maxID/2)
	mustExec(t, db, `DELETE FROM t WHERE rowid > ? AND rowid % 7 = 0`, 2*maxID/3)

	// Rows written before the column was added hold four values; SQLite
	// reads the fifth as its default, NULL.
	mustExec(t, db, `ALTER TABLE t ADD COLUMN c4`)
	for i, v := range intValues {
		mustExec(t, db, `INSERT INTO t(rowid, c0, c4) VALUES (?, ?, ?)`, -int64(i)-1, v, textValues[i%len(textValues)])
	}
	mustExec(t, db, `INSERT INTO t(rowid, c0, c4) VALUES (-1000000000000, 'far', x'00ff')`)
	mustExec(t, db, `INSERT INTO t(rowid, c3, c4) VALUES (?, 'min', 1)`, int64(math.MinInt64))
	mustExec(t, db, `INSERT INTO t(rowid, c3, c4) VALUES (?, 'max', 2)`, int64(math.MaxInt64))
	return 5
}

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// randText is n runes of text mixing one-, two-, three- and four-byte
// UTF-8.
func randText(rng *rand.Rand, n int) string {
	runes := []rune("abcxyz éüß 日本 🙂")
	var b strings.Builder
	for range n {
		b.WriteRune(runes[rng.IntN(len(runes))])
	}
	return b.String()
}

// TestScanTableAgreesWithSQLite reads a table built through SQLite, whole
// and in many random rowid ranges, and compares every value of every row
// with what SQLite's SELECT returns.
func TestScanTableAgreesWithSQLite(t *testing.T) {
	for _, tc := range []struct {
		pageSize, filler, depth int
	}{
		{512, 1200, 3},
		{4096, 2400, 3},
	} {
		t.Run(fmt.Sprint(tc.pageSize), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "db")
			db := openDB(t, path, fmt.Sprintf(`PRAGMA page_size = %d`, tc.pageSize), `PRAGMA synchronous = OFF`)
			cols := fill(t, db, tc.pageSize, tc.filler)
			if tc.pageSize == 4096 {
				// Larger rows deepen the tree of the larger page.
				mustExec(t, db, `UPDATE t SET c3 = randomblob(1500) WHERE typeof(c3) = 'real'`)
			}
			before := hashFiles(t, path)
			f := openFile(t, path)
			if f.PageSize() != tc.pageSize {
				t.Fatalf("page size %d, want %d", f.PageSize(), tc.pageSize)
			}
			root := rootOf(t, db, "t")
			if d := treeDepth(t, f, root); d < tc.depth {
				t.Fatalf("the b-tree is %d levels deep, want %d or more", d, tc.depth)
			}
			agree(t, db, f, "t", cols, math.MinInt64, math.MaxInt64)

			var ids []int64
			if err := f.ScanTable(root, math.MinInt64, math.MaxInt64, func(id int64, _ *Record) error {
				ids = append(ids, id)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, uint64(tc.pageSize)))
			pick := func() int64 {
				switch rng.IntN(6) {
				case 0:
					return int64(rng.Uint64())
				case 1:
					return ids[rng.IntN(len(ids))] + int64(rng.IntN(5)) - 2
				default:
					return ids[rng.IntN(len(ids))]
				}
			}
			// Mostly short ranges (a few leaves, edges anywhere), some
			// long, some empty or reversed.
			for i := range 300 {
				lo, hi := pick(), pick()
				switch {
				case i%10 == 0:
				case i%10 < 3 && lo > hi:
					lo, hi = hi, lo
				default:
					at := rng.IntN(len(ids))
					lo = ids[at] + int64(rng.IntN(3)) - 1
					hi = ids[min(at+rng.IntN(40), len(ids)-1)] + int64(rng.IntN(3)) - 1
				}
				agree(t, db, f, "t", cols, lo, hi)
			}
			if after := hashFiles(t, path); after != before {
				t.Fatal("reading changed the database's files")
			}
		})
	}
}

// TestRecordHoldsEverySerialType makes sure the table of the agreement
// test exercises every serial type, and that rows written before ALTER
// TABLE ADD COLUMN hold one column fewer.
func TestRecordHoldsEverySerialType(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	db := openDB(t, path, `PRAGMA page_size = 512`)
	fill(t, db, 512, 10)
	f := openFile(t, path)
	seen := map[uint64]bool{}
	columns := map[int]int{}
	overflowed := 0
	err := f.ScanTable(rootOf(t, db, "t"), math.MinInt64, math.MaxInt64, func(id int64, rec *Record) error {
		for i := range rec.Columns() {
			switch st := rec.types[i]; {
			case st >= 12:
				seen[12+st%2] = true
			default:
				seen[st] = true
			}
		}
		columns[rec.Columns()]++
		if rec.overflow != 0 {
			overflowed++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for st := uint64(0); st <= 13; st++ {
		if !seen[st] && st != 10 && st != 11 {
			t.Errorf("no value of serial type %d", st)
		}
	}
	if columns[4] == 0 || columns[5] == 0 {
		t.Errorf("rows by column count %v, want rows of 4 and of 5", columns)
	}
	if overflowed < 10 {
		t.Errorf("%d rows with overflow pages", overflowed)
	}
}

// TestScanTableTypedColumns: columns with a declared type. A REAL column
// stores a real with no fraction as an integer on disk and SQLite turns it
// back into a real as it reads it; the File reads what is stored (the same
// number as an integer). Other types read as SQLite returns them.
func TestScanTableTypedColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	db := openDB(t, path,
		`PRAGMA page_size = 512`,
		`CREATE TABLE typed(c0 INTEGER, c1 REAL, c2 TEXT, c3 BLOB, c4 INTEGER PRIMARY KEY)`)
	for i, v := range intValues {
		r := realValues[i%len(realValues)]
		if i%3 == 0 {
			r = float64(v % (1 << 40))
		}
		mustExec(t, db, `INSERT INTO typed(c0, c1, c2, c3) VALUES (?, ?, ?, ?)`, v, r, v, textValues[i%len(textValues)])
	}
	mustExec(t, db, `INSERT INTO typed(c0, c1, c2, c3) VALUES ('12', '2.5', 3, 4.5)`)
	f := openFile(t, path)
	// c4 is the rowid: the record holds NULL in its place, SQLite reads the
	// rowid. Compare the rest.
	agree(t, db, f, "typed", 4, math.MinInt64, math.MaxInt64, 1)
	err := f.ScanTable(rootOf(t, db, "typed"), math.MinInt64, math.MaxInt64, func(id int64, rec *Record) error {
		if rec.Kind(4) != Null {
			return fmt.Errorf("rowid %d: the INTEGER PRIMARY KEY column is stored as %v, want NULL", id, rec.Kind(4))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestScanTableSmallAndEmpty: an empty table (a root leaf with no cell), a
// table of one row, lo > hi, a range with no rows, and an error from the
// callback stopping the scan.
func TestScanTableSmallAndEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	db := openDB(t, path,
		`CREATE TABLE empty(c0)`,
		`CREATE TABLE one(c0, c1)`,
		`INSERT INTO one(rowid, c0, c1) VALUES (5, 'five', 5)`,
		`CREATE TABLE many(c0)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) INSERT INTO many(c0) SELECT i FROM n`)
	f := openFile(t, path)
	agree(t, db, f, "empty", 1, math.MinInt64, math.MaxInt64)
	agree(t, db, f, "one", 2, math.MinInt64, math.MaxInt64)
	agree(t, db, f, "one", 2, 5, 5)
	agree(t, db, f, "one", 2, 6, 100)
	agree(t, db, f, "one", 2, 5, 4)
	agree(t, db, f, "many", 1, 100, 99)
	agree(t, db, f, "many", 1, 499, 1000)

	stop := errors.New("stop")
	var seen []int64
	err := f.ScanTable(rootOf(t, db, "many"), 10, 400, func(id int64, _ *Record) error {
		seen = append(seen, id)
		if id == 250 {
			return stop
		}
		return nil
	})
	if err != stop || len(seen) != 241 || seen[0] != 10 || seen[len(seen)-1] != 250 {
		t.Fatalf("error %v after rowids %d..%d (%d), want stop after 10..250", err, seen[0], seen[len(seen)-1], len(seen))
	}
	if !slices.IsSorted(seen) {
		t.Fatal("rowids out of order")
	}
}

// TestIntOfRealIsSQLiteCast: Int of a real is what CAST(x AS INTEGER)
// gives in SQLite: truncated toward zero, saturated at the ends of int64
// for a real beyond them or infinite.
func TestIntOfRealIsSQLiteCast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	db := openDB(t, path, `CREATE TABLE r(c0)`)
	for _, v := range append(realValues, -2.5, 2.999, -1e19, 9.2233720368547e18, -9.2233720368547e18, 1<<63) {
		mustExec(t, db, `INSERT INTO r VALUES (?)`, v)
	}
	f := openFile(t, path)
	rows, err := db.Query(`SELECT rowid, CAST(c0 AS INTEGER), c0 FROM r ORDER BY rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := map[int64]int64{}
	for rows.Next() {
		var id, n int64
		var v float64
		if err := rows.Scan(&id, &n, &v); err != nil {
			t.Fatal(err)
		}
		want[id] = n
	}
	err = f.ScanTable(rootOf(t, db, "r"), math.MinInt64, math.MaxInt64, func(id int64, rec *Record) error {
		n, err := rec.Int(0)
		if err != nil {
			return err
		}
		if rec.Kind(0) != Real || n != want[id] {
			v, _ := rec.value(0, 8)
			return fmt.Errorf("rowid %d (%x, %v): Int %d, CAST gives %d", id, v, rec.Kind(0), n, want[id])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestScanTableConcurrent: one File scanned from several goroutines at
// once (run with -race) reads the same rows as alone.
func TestScanTableConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	db := openDB(t, path, `PRAGMA page_size = 512`, `PRAGMA synchronous = OFF`)
	cols := fill(t, db, 512, 300)
	root := rootOf(t, db, "t")
	f := openFile(t, path)
	all, err := fileRows(f, root, cols, math.MinInt64, math.MaxInt64)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for g := range 4 {
		go func() {
			rng := rand.New(rand.NewPCG(uint64(g), 3))
			for range 20 {
				a, b := rng.IntN(len(all)), rng.IntN(len(all))
				lo, hi := all[min(a, b)].id, all[max(a, b)].id
				got, err := fileRows(f, root, cols, lo, hi)
				if err == nil {
					err = sameRows(all[min(a, b):max(a, b)+1], got)
				}
				if err != nil {
					errs <- fmt.Errorf("%d..%d: %w", lo, hi, err)
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestScanTableSchemaAndLargePages: the schema table, whose root is page
// 1 (its b-tree header after the database header), spread over many
// pages so that page 1 is an interior page; and a store of 65,536-byte
// pages (stored as 1 in the header) in WAL mode, with a value spilling
// over several of them.
func TestScanTableSchemaAndLargePages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	db := openDB(t, path, `PRAGMA page_size = 512`)
	mustExec(t, db, `BEGIN`)
	for i := range 80 {
		mustExec(t, db, fmt.Sprintf(`CREATE TABLE table_with_a_long_name_%d(column_with_a_long_name_%d TEXT, second_column_%d BLOB)`, i, i, i))
	}
	mustExec(t, db, `COMMIT`)
	mustExec(t, db, `DROP TABLE table_with_a_long_name_40`)
	f := openFile(t, path)
	if d := treeDepth(t, f, 1); d < 2 {
		t.Fatalf("the schema's b-tree is %d levels deep", d)
	}
	agree(t, db, f, "sqlite_master", 5, math.MinInt64, math.MaxInt64)
	agree(t, db, f, "sqlite_master", 5, 10, 30)

	path = filepath.Join(t.TempDir(), "db")
	db = openDB(t, path,
		`PRAGMA page_size = 65536`,
		`PRAGMA journal_mode = WAL`,
		`PRAGMA wal_autocheckpoint = 0`,
		`CREATE TABLE t(c0, c1)`,
		`INSERT INTO t VALUES (1, randomblob(300000)), ('two', printf('%.*c', 70000, 'z')), (NULL, x'')`,
		`PRAGMA wal_checkpoint(TRUNCATE)`,
		`INSERT INTO t VALUES (4, randomblob(65500)), (5, 'five')`,
		`DELETE FROM t WHERE rowid = 2`)
	f = openFile(t, path)
	if f.PageSize() != 65536 || len(f.frames) == 0 {
		t.Fatalf("page size %d, %d pages in the log", f.PageSize(), len(f.frames))
	}
	agree(t, db, f, "t", 2, math.MinInt64, math.MaxInt64)
}
