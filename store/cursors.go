package store

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
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
	data, err := fsys.ReadFile(st.Path)
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
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return WriteFileAtomic(w, path, model.MarshalCursorStore(store), 0o644)
}

// ParseCursorStore reads a cursor file with ClawVault's validation
// (parseCursorStore): entries with a bad id, a non-finite or negative
// number, or an empty string field are dropped and reported. An error means
// the file does not parse as a JSON object at all; ClawVault then loads {}.
// A repeated id keeps its first position and its last value, as JSON.parse.
func ParseCursorStore(data []byte) (*model.CursorStore, []model.CursorProblem, error) {
	// Sized from the file (ClawVault writes about 220 bytes a cursor):
	// 30,000 cursors are not copied at every doubling.
	hint := len(data) / 220
	ids := make([]string, 0, hint)
	raws := make([]model.RawCursor, 0, hint)
	pos := model.NewKeyIndex(hint)
	var alloc cursorAlloc
	end, ok := jsonscan.Object(data, 0, func(key, value []byte) bool {
		id, raw := jsonscan.Unquote(key), rawCursor(value, &alloc)
		if i := pos.Find(id, ids); i >= 0 {
			raws[i] = raw
			return true
		}
		ids = append(ids, id)
		raws = append(raws, raw)
		pos.Add(len(ids)-1, ids)
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
	store := model.NewCursorStoreSized(len(ids))
	var problems []model.CursorProblem
	for i, id := range ids {
		c, reason := model.ValidateCursor(id, raws[i])
		if reason != "" {
			problems = append(problems, model.CursorProblem{SessionID: id, Reason: reason})
			continue
		}
		store.SetParsed(id, c)
	}
	store.FinishParsed()
	return store, problems, nil
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
