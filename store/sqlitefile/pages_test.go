package sqlitefile

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// PageCount agrees with SQLite's dbstat on every b-tree of a database
// with small and large rows (overflow chains in table leaves and in index
// pages, interior and leaf), at 512- and 4096-byte pages, in rollback and
// WAL mode (with frames not checkpointed), and after deletes (free pages
// are in no tree).
func TestPageCountIsDbstats(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		pageSize int
		wal      bool
	}{{512, false}, {4096, false}, {4096, true}, {1024, true}} {
		t.Run(fmt.Sprintf("%d-wal-%v", tt.pageSize, tt.wal), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "db.sqlite")
			stmts := []string{fmt.Sprintf("PRAGMA page_size = %d", tt.pageSize)}
			if tt.wal {
				stmts = append(stmts, "PRAGMA journal_mode = WAL", "PRAGMA wal_autocheckpoint = 0")
			}
			stmts = append(stmts,
				"CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT, v BLOB)",
				"CREATE INDEX t_k ON t (k)",
				"CREATE TABLE w (a TEXT, b TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID",
				"CREATE TABLE e (x)")
			db := openDB(t, path, append(stmts, "PRAGMA synchronous = OFF")...)
			mustExec(t, db, "BEGIN")
			for i := range 160 {
				k := strings.Repeat(fmt.Sprintf("key %d ", i), 1+i%60)
				mustExec(t, db, "INSERT INTO t (k, v) VALUES (?, ?)", k, make([]byte, (i*97)%9000))
				mustExec(t, db, "INSERT INTO w VALUES (?, ?)", k, strings.Repeat("b", i%700))
			}
			mustExec(t, db, "COMMIT")
			mustExec(t, db, "DELETE FROM t WHERE id % 7 = 0")
			want := map[string]int64{}
			rows, err := db.Query(fmt.Sprintf("SELECT name, pgsize / %d FROM dbstat WHERE aggregate = TRUE", tt.pageSize))
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var name string
				var n int64
				rows.Scan(&name, &n)
				want[name] = n
			}
			rows.Close()
			roots := map[string]uint32{"sqlite_schema": 1}
			for _, name := range []string{"t", "t_k", "w", "e"} {
				roots[name] = rootOf(t, db, name)
			}
			f := openFile(t, path)
			for name, root := range roots {
				got, err := f.PageCount(root)
				if err != nil || got != want[name] {
					t.Errorf("%s (root %d): %d pages, %v; dbstat says %d", name, root, got, err, want[name])
				}
				if shallow, err := f.InteriorPageCount(root); err != nil || shallow > got || name == "e" && shallow != got {
					t.Errorf("%s: %d pages without reading the leaves, %v; %d in all", name, shallow, err, got)
				}
			}
			// The table's rows are its leaves' cells: the pages read
			// with the leaves are those without and the rows' overflow.
			var overflow int64
			if err := f.ScanTable(roots["t"], math.MinInt64, math.MaxInt64, func(_ int64, rec *Record) error {
				overflow += rec.OverflowPages()
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			shallow, err := f.InteriorPageCount(roots["t"])
			if err != nil || overflow == 0 || shallow+overflow != want["t"] {
				t.Errorf("t: %d pages without the leaves' overflow, %d overflow pages, %v; dbstat says %d", shallow, overflow, err, want["t"])
			}
		})
	}
}
