package sqlitefile

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const walCols = 3

// openWriter opens a store in WAL mode that is never checkpointed but
// when a test says so: the writer stays open to the test's end, so its
// log is not checkpointed on close either.
func openWriter(t testing.TB, path string) *sql.DB {
	return openDB(t, path,
		`PRAGMA page_size = 512`,
		`PRAGMA journal_mode = WAL`,
		`PRAGMA wal_autocheckpoint = 0`)
}

// everything reads the whole table t through db.
func everything(t testing.TB, db *sql.DB) []row {
	t.Helper()
	return sqlRows(t, db, "t", walCols, math.MinInt64, math.MaxInt64)
}

// transactions are the changes the log tests commit one by one: inserts,
// updates that move rows onto overflow pages and back, deletes, a
// negative rowid, and a last one that rewrites many pages (a transaction
// of many frames).
var transactions = []string{
	`CREATE TABLE t(c0, c1, c2);
	 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
	 INSERT INTO t(c0, c1, c2) SELECT i, 'row ' || i, randomblob(i % 90) FROM n`,
	`UPDATE t SET c1 = printf('%.*c', 1500, 'u') WHERE rowid % 25 = 0`,
	`INSERT INTO t(rowid, c0, c1, c2) VALUES (-5, 'negative', NULL, x'01'), (1000, 1000, 'after', 2.5)`,
	`DELETE FROM t WHERE rowid BETWEEN 100 AND 180`,
	`UPDATE t SET c1 = 'short again' WHERE rowid = 50; UPDATE t SET c2 = -7 WHERE rowid = 3`,
	`UPDATE t SET c0 = c0 * 2, c2 = randomblob(60) WHERE rowid % 2 = 1`,
}

// commitAll commits transactions on w and returns the table after each.
func commitAll(t testing.TB, w *sql.DB) [][]row {
	t.Helper()
	var states [][]row
	for _, tx := range transactions {
		mustExec(t, w, `BEGIN`)
		for _, s := range strings.Split(tx, ";") {
			mustExec(t, w, s)
		}
		mustExec(t, w, `COMMIT`)
		states = append(states, everything(t, w))
	}
	return states
}

// fileAgrees reads the whole table t of the store at path through a new
// File and compares it with want, checking that the read changed none of
// the store's files.
func fileAgrees(t testing.TB, path string, root uint32, want []row) {
	t.Helper()
	before := hashFiles(t, path)
	f := openFile(t, path)
	got, err := fileRows(f, root, walCols, math.MinInt64, math.MaxInt64)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameRows(want, got); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if hashFiles(t, path) != before {
		t.Fatal("reading changed the store's files")
	}
}

// TestScanTableReadsTheLog: after each transaction committed to the log
// (none checkpointed), a new File reads what a new SQLite connection does,
// and writes nothing.
func TestScanTableReadsTheLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	w := openWriter(t, path)
	mustExec(t, w, `CREATE TABLE other(x)`)
	mustExec(t, w, `PRAGMA wal_checkpoint(TRUNCATE)`)
	reader := openDB(t, path)
	for i, tx := range transactions {
		mustExec(t, w, `BEGIN`)
		for _, s := range strings.Split(tx, ";") {
			mustExec(t, w, s)
		}
		mustExec(t, w, `COMMIT`)
		if i == 2 {
			// From here on the table is part in the database file, part
			// in the log.
			mustExec(t, w, `PRAGMA wal_checkpoint(TRUNCATE)`)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			fileAgrees(t, path, rootOf(t, w, "t"), everything(t, reader))
		})
	}
	if st, err := os.Stat(path + "-wal"); err != nil || st.Size() < 20*512 {
		t.Fatalf("the log: %v, %v; want many frames", st, err)
	}
}

// walFrame is the offset of frame i of a log of pages of ps bytes.
func walFrame(i, ps int) int { return walHeaderSize + i*(frameHeader+ps) }

// commitFrames are the numbers of the log's frames that commit a
// transaction.
func commitFrames(t testing.TB, log []byte, ps int) []int {
	t.Helper()
	var out []int
	for i := 0; walFrame(i+1, ps) <= len(log); i++ {
		if binary.BigEndian.Uint32(log[walFrame(i, ps)+4:]) != 0 {
			out = append(out, i)
		}
	}
	return out
}

// TestScanTableReadsOnlyCommittedFrames: a log whose last transaction is
// cut short, has a frame whose checksum fails, or a frame with another
// salt (left from before the log restarted) is read up to its last whole
// transaction before that frame, as SQLite recovers it.
func TestScanTableReadsOnlyCommittedFrames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "db")
	w := openWriter(t, path)
	states := commitAll(t, w)
	root := rootOf(t, w, "t")
	db, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	const ps = 512
	commits := commitFrames(t, log, ps)
	if len(commits) != len(transactions) {
		t.Fatalf("%d commit frames, want %d", len(commits), len(transactions))
	}
	last := len(commits) - 1
	firstOfLast := commits[last-1] + 1
	if commits[last]-firstOfLast < 3 {
		t.Fatalf("the last transaction has %d frames, want several", commits[last]-firstOfLast+1)
	}
	if err := sameRows(states[last-1], states[last]); err == nil {
		t.Fatal("the last transaction changes nothing")
	}
	flip := func(b []byte, at int) []byte {
		b = append([]byte(nil), b...)
		b[at] ^= 0x40
		return b
	}
	// The same log as a big-endian machine writes it.
	bigEndian := append([]byte(nil), log...)
	bigEndian[3] |= 1
	resignLog(bigEndian, ps)
	// A frame of the last transaction names page 0, its checksum and
	// those after it recomputed.
	pageZero := append([]byte(nil), log...)
	binary.BigEndian.PutUint32(pageZero[walFrame(firstOfLast+1, ps):], 0)
	resignLog(pageZero, ps)
	for _, tc := range []struct {
		name  string
		log   []byte
		state int
	}{
		{"whole", log, last},
		{"checksums in big-endian order", bigEndian, last},
		{"big-endian, commit frame's checksum", flip(bigEndian, walFrame(commits[last], ps)+20), last - 1},
		{"cut after a frame that commits nothing", log[:walFrame(firstOfLast+1, ps)], last - 1},
		{"cut inside the commit frame", log[:walFrame(commits[last], ps)+300], last - 1},
		{"cut after the last commit frame", log[:walFrame(commits[last]+1, ps)], last},
		{"commit frame's checksum", flip(log, walFrame(commits[last], ps)+16), last - 1},
		{"commit frame's page", flip(log, walFrame(commits[last], ps)+frameHeader+100), last - 1},
		{"page of a frame of the last transaction", flip(log, walFrame(firstOfLast+1, ps)+frameHeader+7), last - 1},
		{"stale salt in the last transaction", flip(log, walFrame(firstOfLast, ps)+9), last - 1},
		{"stale salt in the third transaction", flip(log, walFrame(commits[1]+1, ps)+13), 1},
		{"a frame of page 0, checksums good", pageZero, last - 1},
		{"header checksum", flip(log, 25), -1},
		{"header only", log[:walHeaderSize], -1},
		{"empty", nil, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The store as the File reads it, and a copy for SQLite, which
			// recovers the log and checkpoints it as it closes.
			dir := t.TempDir()
			path := filepath.Join(dir, "db")
			for _, p := range []string{path, path + ".sqlite"} {
				if err := os.WriteFile(p, db, 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p+"-wal", tc.log, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			sqlite := openDB(t, path+".sqlite")
			var want []row
			if tc.state >= 0 {
				want = states[tc.state]
				if err := sameRows(want, everything(t, sqlite)); err != nil {
					t.Fatalf("SQLite itself reads another state: %v", err)
				}
				fileAgrees(t, path, root, want)
				return
			}
			// The log holds nothing: the database file alone, as it was
			// before the table was created, which SQLite does not know.
			var n int
			if err := sqlite.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 't'`).Scan(&n); err != nil || n != 0 {
				t.Fatalf("SQLite reads table t (%d, %v)", n, err)
			}
			f := openFile(t, path)
			err := f.ScanTable(root, math.MinInt64, math.MaxInt64, func(int64, *Record) error { return nil })
			if err == nil {
				t.Fatal("the table's root page read without the log that holds it")
			}
		})
	}
}

// TestScanTableSkipsStaleFramesAfterRestart: a checkpoint that restarts
// the log leaves the old frames after the new ones, under the old salt;
// the File reads only the new ones.
func TestScanTableSkipsStaleFramesAfterRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	w := openWriter(t, path)
	commitAll(t, w)
	mustExec(t, w, `PRAGMA wal_checkpoint(RESTART)`)
	mustExec(t, w, `UPDATE t SET c1 = 'restarted' WHERE rowid = 7`)
	log, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	commits := commitFrames(t, log, 512)
	if len(commits) < 2 || binary.BigEndian.Uint32(log[16:]) == binary.BigEndian.Uint32(log[walFrame(commits[len(commits)-1], 512)+8:]) {
		t.Fatalf("the log holds no stale frames after the new ones (commits at frames %v)", commits)
	}
	reader := openDB(t, path)
	want := everything(t, reader)
	if want[7].id != 7 || want[7].vals[1].b != "restarted" {
		t.Fatalf("SQLite reads row %v", want[7])
	}
	fileAgrees(t, path, rootOf(t, w, "t"), want)
}

// TestScanTableLogRestartedWhileOpen: a File opened on a log that is then
// checkpointed and restarted by new transactions reads the state it was
// opened on where the frames it indexed are still there, and ErrChanged
// where they are not, never the new rows in the place of the old.
func TestScanTableLogRestartedWhileOpen(t *testing.T) {
	for _, tc := range []struct {
		name       string
		checkpoint string
		after      int
		changed    bool
	}{
		// The log is emptied and one small transaction written: the
		// frames of the table's pages are past its end or hold others.
		{"truncate then one", "TRUNCATE", 1, true},
		// More new frames than old: every old frame is overwritten.
		{"truncate then many", "TRUNCATE", 40, true},
		// The log keeps its length: the first frames are new, the rest
		// the old ones, still under the old salt.
		{"restart then one", "RESTART", 1, false},
		{"restart then many", "RESTART", 40, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "db")
			w := openWriter(t, path)
			states := commitAll(t, w)
			want := states[len(states)-1]
			root := rootOf(t, w, "t")
			f := openFile(t, path)

			mustExec(t, w, fmt.Sprintf(`PRAGMA wal_checkpoint(%s)`, tc.checkpoint))
			for i := range tc.after {
				mustExec(t, w, `UPDATE t SET c1 = ?, c2 = randomblob(70) WHERE rowid % 40 = ?`, fmt.Sprint("new ", i), i%40)
			}
			var log [walHeaderSize]byte
			lf, err := os.Open(path + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			lf.ReadAt(log[:], 0)
			lf.Close()
			if [8]byte(log[16:24]) == f.salt {
				t.Fatal("the log was not restarted")
			}

			got, err := fileRows(f, root, walCols, math.MinInt64, math.MaxInt64)
			if err != nil && !errors.Is(err, ErrChanged) {
				t.Fatalf("error %v, want ErrChanged or none", err)
			}
			if (err != nil) != tc.changed {
				t.Errorf("error %v, want ErrChanged %v", err, tc.changed)
			}
			// What was read before the error is the old state.
			if err != nil && len(got) < len(want) {
				want = want[:len(got)]
			}
			if err := sameRows(want, got); err != nil {
				t.Fatalf("rows read after the restart: %v", err)
			}
		})
	}
}

// TestScanTableUnderAReadTransaction: the use the package is made for. A
// File opened while an SQLite connection holds a read transaction reads
// that transaction's state while the writer commits more and checkpoints
// what it may (SQLite copies no frame newer than the reader's snapshot
// into the database file).
func TestScanTableUnderAReadTransaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	w := openWriter(t, path)
	commitAll(t, w)
	reader := openDB(t, path)
	tx, err := reader.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	want := everything(t, w)
	f := openFile(t, path)
	for i := range 3 {
		mustExec(t, w, `UPDATE t SET c1 = ?, c2 = randomblob(40) WHERE rowid % 3 = ?`, fmt.Sprint("later ", i), i)
		mustExec(t, w, `INSERT INTO t(c0) VALUES (?)`, i)
		mustExec(t, w, `DELETE FROM t WHERE rowid BETWEEN ? AND ?`, 200+10*i, 205+10*i)
		var busy, logFrames, copied int
		if err := w.QueryRow(`PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logFrames, &copied); err != nil {
			t.Fatal(err)
		}
		if copied == 0 || copied == logFrames {
			t.Fatalf("the checkpoint copied %d frames of %d: want those up to the reader's", copied, logFrames)
		}
	}
	if err := sameRows(want, everything(t, w)); err == nil {
		t.Fatal("the writer changed nothing")
	}
	got, err := fileRows(f, rootOf(t, w, "t"), walCols, math.MinInt64, math.MaxInt64)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameRows(want, got); err != nil {
		t.Fatal(err)
	}
	if n != len(want) {
		t.Fatalf("the reader counts %d rows, the File %d", n, len(got))
	}
}
