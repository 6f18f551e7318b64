package store

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"strconv"

	"clawvault-tui/model"
	"clawvault-tui/store/jsonscan"
)

// CursorFile is where ClawVault keeps the observer's byte cursors.
func CursorFile(vault string) string {
	return filepath.Join(vault, ".clawvault", "observe-cursors.json")
}

// LoadCursors reads the vault's cursor file with ClawVault's validation. A
// missing file is an empty store; a corrupt one loads as empty too, as in
// ClawVault, and says why. A file that cannot be read (permissions, an I/O
// error, a directory in its place) is not corrupt: ReadError says why, and
// a sweep refuses to run (it would replace every cursor with its own).
func LoadCursors(fsys FS, vault string) model.CursorState {
	st := model.CursorState{Path: CursorFile(vault), Store: model.NewCursorStore(), Problems: map[string]string{}}
	if vault == "" {
		st.Missing = true
		return st
	}
	data, err := readFileLimit(fsys, st.Path, maxCursorFile)
	if errors.Is(err, fs.ErrNotExist) {
		st.Missing = true
		return st
	}
	if err != nil {
		st.ReadError = &UnreadableError{What: "the cursor file", Path: st.Path, Err: err}
		return st
	}
	store, problems, err := ParseCursorStore(data)
	if err != nil {
		st.Corrupt = err.Error()
		return st
	}
	st.Store = store
	for _, p := range problems {
		st.Problems[p.SessionID] = p.Reason
	}
	return st
}

// SaveCursors writes the store exactly as ClawVault writes it, but
// atomically: ClawVault may read it at any moment.
func SaveCursors(w WriteFS, vault string, store *model.CursorStore) error {
	path := CursorFile(vault)
	if err := w.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return WriteFileAtomic(w, path, model.MarshalCursorStore(store), 0o644)
}

// ParseCursorStore reads a cursor file with ClawVault's validation
// (parseCursorStore): entries with a bad id, a non-finite or negative
// number, or an empty string field are dropped and reported. An error means
// the file does not parse as a JSON object at all; ClawVault then loads {}.
// A repeated id keeps its first position and its last value, as JSON.parse.
//
// A large file (7 MB for 35,000 cursors) is parsed in two halves at once
// (see readSessionStoreCut).
func ParseCursorStore(data []byte) (*model.CursorStore, []model.CursorProblem, error) {
	var c cursorEntries
	parsed := false
	if len(data) >= cursorSplitMin {
		if cut, _ := jsonscan.FindCut(bytes.NewReader(data), int64(len(data))); cut > 0 {
			c, parsed = parseCursorsCut(data, cut)
		}
	}
	if !parsed {
		// In one walk, which says what is wrong with a file that does
		// not parse.
		c = newCursorEntries(len(data))
		end, ok := jsonscan.Object(data, 0, func(key, value []byte) bool {
			c.add(key, value)
			return true
		})
		switch {
		case !ok && jsonscan.Valid(data):
			return model.NewCursorStore(), nil, errors.New("the top level is not a JSON object")
		case !ok:
			return model.NewCursorStore(), nil, errors.New("it is not valid JSON (truncated or damaged)")
		case jsonscan.SkipWS(data, end) != len(data):
			return model.NewCursorStore(), nil, errors.New("there is data after the top-level object")
		}
	}
	store := model.NewCursorStoreSized(len(c.ids))
	var problems []model.CursorProblem
	for i, id := range c.ids {
		cur, reason := model.ValidateCursor(id, c.raws[i])
		if reason != "" {
			problems = append(problems, model.CursorProblem{SessionID: id, Reason: reason})
			continue
		}
		store.SetParsed(id, cur)
	}
	store.FinishParsed()
	return store, problems, nil
}

// cursorSplitMin is the smallest cursor file parsed in two halves.
const cursorSplitMin = 2 << 20

// cursorEntries are a cursor file's entries in file order, as JSON.parse
// keeps them: a repeated id keeps its first position and its last value.
type cursorEntries struct {
	ids   []string
	raws  []model.RawCursor
	pos   *model.KeyIndex
	alloc cursorAlloc
}

// newCursorEntries is sized for a file of size bytes (ClawVault writes
// about 220 bytes a cursor): 30,000 cursors are not copied at every
// doubling.
func newCursorEntries(size int) cursorEntries {
	hint := size / 220
	return cursorEntries{ids: make([]string, 0, hint), raws: make([]model.RawCursor, 0, hint), pos: model.NewKeyIndex(hint)}
}

func (c *cursorEntries) add(key, value []byte) {
	id, raw := jsonscan.Unquote(key), rawCursor(value, &c.alloc)
	if i := c.pos.Find(id, c.ids); i >= 0 {
		c.raws[i] = raw
		return
	}
	c.ids = append(c.ids, id)
	c.raws = append(c.raws, raw)
	c.pos.Add(len(c.ids)-1, c.ids)
}

// parseCursorsCut parses the entries before cut and those after it on two
// goroutines, as readSessionStoreCut reads sessions.json; false when the
// file does not parse (the caller's single walk then says why).
func parseCursorsCut(data []byte, cut int64) (cursorEntries, bool) {
	head, tail := newCursorEntries(len(data)), newCursorEntries(len(data)-int(cut))
	reached, err := jsonscan.ReadObjectHalves(bytes.NewReader(data), int64(len(data)), cut,
		func(key, value []byte) bool { head.add(key, value); return true },
		func(key, value []byte) bool { tail.add(key, value); return true })
	if err != nil {
		return cursorEntries{}, false
	}
	if reached {
		for j, id := range tail.ids {
			if i := head.pos.Find(id, head.ids); i >= 0 {
				head.raws[i] = tail.raws[j]
				continue
			}
			head.ids = append(head.ids, id)
			head.raws = append(head.raws, tail.raws[j])
		}
	}
	return head, true
}

func rawCursor(value []byte, alloc *cursorAlloc) model.RawCursor {
	var rc model.RawCursor
	_, rc.Object = jsonscan.Object(value, 0, func(key, v []byte) bool {
		num := func(dst **float64, text *string) {
			*dst, *text = nil, string(v)
			if len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9') {
				// Out of range parses to ±Inf, which validation rejects as JS would.
				f, _ := strconv.ParseFloat(string(v), 64)
				*dst = fromBlock(&alloc.floats, f)
			}
		}
		str := func(dst **string) {
			*dst = nil
			if len(v) > 0 && v[0] == '"' {
				*dst = fromBlock(&alloc.strings, jsonscan.Unquote(v))
			}
		}
		name := key[1 : len(key)-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			name = []byte(jsonscan.Unquote(key))
		}
		switch string(name) {
		case "lastObservedOffset":
			num(&rc.Offset, &rc.OffsetText)
		case "lastFileSize":
			num(&rc.FileSize, &rc.FileSizeText)
		case "lastObservedAt":
			str(&rc.ObservedAt)
		case "sessionKey":
			str(&rc.SessionKey)
		}
		return true
	})
	return rc
}

// cursorAlloc hands out what the entries of one cursor file point at from
// blocks (see entryAlloc): four small allocations a cursor were a tenth of
// reading 35,000 of them.
type cursorAlloc struct {
	floats  []float64
	strings []string
}
