package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store/jsonscan"
)

// StoreResult is a loaded sessions.json.
type StoreResult struct {
	Rows    []model.ScanRow
	Missing bool
	// Problem says why the file could not be read as a whole; Rows is empty then.
	Problem string
	// RowProblems name rows with a field of the wrong type (kept best-effort).
	RowProblems map[string]string
}

// LoadSessionStore reads sessions.json for a scan: every row, with the
// fields status, discovery and the Sessions screen read (statusField);
// the others are validated and skipped, and Entry.Raw is not kept. It
// streams the file, so memory follows the rows, not the file's bytes. A
// missing or corrupt store is reported, never fatal: ClawVault treats
// both as {} and so do we. Rows come in JavaScript's property order,
// which ClawVault's stable sort relies on.
func LoadSessionStore(fsys FS, path string) StoreResult {
	f, err := fsys.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return StoreResult{Missing: true}
	}
	if err != nil {
		return StoreResult{Problem: fmt.Sprintf("cannot read %s: %v", path, err)}
	}
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	rows, rowProblems, err := readSessionStore(f, size)
	f.Close()
	if err == nil {
		return StoreResult{Rows: rows, RowProblems: rowProblems}
	}
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return StoreResult{Problem: fmt.Sprintf("cannot read %s: %v", path, err)}
	}
	// The stream says only that the file is not one valid object: read it
	// whole to say how, unless it is too big for that.
	data, rerr := readFileLimit(fsys, path, maxConfigFile*4)
	if rerr == nil {
		if _, _, perr := parseSessionStore(data); perr != nil {
			err = perr
		}
	}
	return StoreResult{Problem: fmt.Sprintf("%s does not parse: %v", path, err)}
}

// splitMin is the smallest sessions.json decoded in two halves at once.
const splitMin = 4 << 20

// readSessionStore streams sessions.json with the lean row decoder. A
// large one (42 MB for 50,000 rows, the longest single piece of a scan) is
// decoded in two halves at once, each streamed (readSessionStoreCut).
func readSessionStore(r sectionReader, size int64) ([]model.ScanRow, map[string]string, error) {
	if size >= splitMin {
		if cut, memberSize := jsonscan.FindCut(r, size); cut > 0 {
			return readSessionStoreCut(r, size, cut, memberSize)
		}
	}
	c := storeRows[model.StatusEntry]{sizeHint: size, decode: decodeStatusEntry}
	err := jsonscan.ReadObject(r, func(rawKey, value []byte) bool {
		c.add(rawKey, value)
		return true
	})
	if err != nil {
		return nil, nil, err
	}
	return c.finish(), c.problems, nil
}

type sectionReader interface {
	io.Reader
	io.ReaderAt
}

// readSessionStoreCut decodes the rows before cut and the rows after it
// on two goroutines. The cut is FindCut's guess: when the head's walk
// finds that no row ends there (the guess was inside a row), the head has
// decoded the whole file itself and the tail's rows are dropped.
//
// Both halves decode into one slice, sized from memberSize (about a row's
// bytes): the head's rows from its start, the tail's from where the head's
// should end, so that joining them moves the tail's rows down by the slack
// between, not into memory of their own. A half that outgrows its part
// moves to a slice of its own (append), and the join copies.
func readSessionStoreCut(r io.ReaderAt, size, cut int64, memberSize int) ([]model.ScanRow, map[string]string, error) {
	per := int64(max(memberSize, 1))
	headN, tailN := rowsHint(cut, per)+sizeSample, rowsHint(size-cut, per)+sizeSample
	shared := make([]model.ScanRow, 0, headN+tailN)
	head := storeRows[model.StatusEntry]{rows: shared[:0:headN], keys: make([]string, 0, headN), byKey: *model.NewKeyIndex(headN), decode: decodeStatusEntry}
	tail := storeRows[model.StatusEntry]{rows: shared[headN : headN : headN+tailN], keys: make([]string, 0, tailN), byKey: *model.NewKeyIndex(tailN), decode: decodeStatusEntry}
	reached, err := jsonscan.ReadObjectHalves(r, size, cut,
		func(rawKey, value []byte) bool { head.add(rawKey, value); return true },
		func(rawKey, value []byte) bool { tail.add(rawKey, value); return true })
	if err != nil {
		return nil, nil, err
	}
	if reached {
		if len(head.rows) > 0 && cap(head.rows) == headN && &head.rows[0] == &shared[:1][0] {
			// The head's rows are still shared's: the join may write
			// past headN, over tail rows it has already read.
			head.rows = shared[:len(head.rows)]
		}
		head.join(&tail)
	}
	if len(head.rows) == 0 {
		head.rows = nil // as one walk gives
	}
	return head.finish(), head.problems, nil
}

// parseSessionStore decodes a whole sessions.json in memory, every field
// of every row, Entry.Raw included (retention plans rewrite rows whole).
func parseSessionStore(data []byte) ([]model.StoreRow, map[string]string, error) {
	c := storeRows[model.SessionEntry]{decode: decodeSessionEntry}
	end, ok := jsonscan.Object(data, 0, func(rawKey, value []byte) bool {
		c.add(rawKey, value)
		return true
	})
	if !ok {
		if jsonscan.Valid(data) {
			return nil, nil, errors.New("the top level is not a JSON object")
		}
		return nil, nil, errors.New("it is not valid JSON (truncated or damaged)")
	}
	if jsonscan.SkipWS(data, end) != len(data) {
		return nil, nil, errors.New("there is data after the top-level object")
	}
	return c.finish(), c.problems, nil
}

// storeRows collects rows as JSON.parse builds the object: a repeated key
// keeps its first position and takes its last value.
type storeRows[E any] struct {
	// decode reads a row's value into its entry (the whole row, or what a
	// scan keeps).
	decode   func(raw []byte, e *E, alloc *entryAlloc) (problem string)
	rows     []model.StoreRowOf[E]
	keys     []string
	byKey    model.KeyIndex // over keys
	problems map[string]string
	// sizeHint is the file's size: after the first rows, the slice is
	// sized for all of them from their average size, so that 50,000 rows
	// of half a KiB each are not copied at every doubling.
	sizeHint int64
	seen     int64
	alloc    entryAlloc
	// unindexed: keys were added (join) that byKey does not hold.
	unindexed bool
}

const sizeSample = 64

// rowsHint is how many rows of per bytes size bytes hold, with a tenth
// more, but no more than maxRowsHint: the file's size is only a hint (a
// planted sparse file of a terabyte must not size a slice of billions of
// rows), and a bigger store grows its slices as it goes.
func rowsHint(size, per int64) int {
	return int(min(size/max(per, 1)*11/10, maxRowsHint))
}

// maxRowsHint is ten times the largest store measured (50,000 rows).
const maxRowsHint = 500_000

func (c *storeRows[E]) add(rawKey, value []byte) {
	key := jsonscan.Unquote(rawKey)
	i := c.byKey.Find(key, c.keys)
	dup := i >= 0
	if !dup {
		if len(c.rows) == sizeSample && c.sizeHint > 0 {
			n := rowsHint(c.sizeHint, c.seen/sizeSample)
			c.rows = slices.Grow(c.rows, n)
			c.keys = slices.Grow(c.keys, n)
			c.byKey = *model.NewKeyIndex(n)
			c.byKey.Rebuild(c.keys)
		}
		c.seen += int64(len(rawKey) + len(value))
		i = len(c.rows)
		c.keys = append(c.keys, key)
		c.rows = append(c.rows, model.StoreRowOf[E]{Key: key})
		c.byKey.Add(i, c.keys)
	}
	// JSON.parse: the last value wins, the first position stays.
	e := &c.rows[i].Entry
	var zero E
	*e = zero
	if problem := c.decode(value, e, &c.alloc); problem != "" {
		if c.problems == nil {
			c.problems = map[string]string{}
		}
		c.problems[key] = problem
	} else if dup {
		delete(c.problems, key)
	}
}

// join adds the rows of the part of the file after c's, as if c had
// read them: a key c has keeps its position and takes the later value.
func (c *storeRows[E]) join(t *storeRows[E]) {
	for j, key := range t.keys {
		i := c.byKey.Find(key, c.keys)
		if i >= 0 {
			c.rows[i].Entry = t.rows[j].Entry
		} else {
			c.rows = append(c.rows, t.rows[j])
			c.keys = append(c.keys, key)
			// The index is not needed again unless finish sorts.
			c.unindexed = true
		}
		if problem, ok := t.problems[key]; ok {
			if c.problems == nil {
				c.problems = map[string]string{}
			}
			c.problems[key] = problem
		} else if i >= 0 {
			delete(c.problems, key)
		}
	}
}

func (c *storeRows[E]) finish() []model.StoreRowOf[E] {
	if !slices.ContainsFunc(c.keys, jscompat.IsArrayIndexKey) {
		return c.rows
	}
	if c.unindexed {
		c.byKey.Rebuild(c.keys)
	}
	sorted := make([]model.StoreRowOf[E], len(c.rows))
	for i, k := range jscompat.JSPropertyOrder(c.keys) {
		sorted[i] = c.rows[c.byKey.Find(k, c.keys)]
	}
	return sorted
}
