package store

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"clawvault-tui/model"
	"clawvault-tui/store/jsonscan"
)

// StoreResult is a loaded sessions.json.
type StoreResult struct {
	Rows    []model.StoreRow
	Missing bool
	// Problem says why the file could not be read as a whole; Rows is empty then.
	Problem string
	// RowProblems name rows with a field of the wrong type (kept best-effort).
	RowProblems map[string]string
}

// LoadSessionStore reads sessions.json. A missing or corrupt store is
// reported, never fatal: ClawVault treats both as {} and so do we. Rows come
// in JavaScript's property order, which ClawVault's stable sort relies on.
func LoadSessionStore(fsys FS, path string) StoreResult {
	data, err := fsys.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return StoreResult{Missing: true}
	}
	if err != nil {
		return StoreResult{Problem: fmt.Sprintf("cannot read %s: %v", path, err)}
	}
	rows, rowProblems, err := parseSessionStore(data)
	if err != nil {
		return StoreResult{Problem: fmt.Sprintf("%s does not parse: %v", path, err)}
	}
	return StoreResult{Rows: rows, RowProblems: rowProblems}
}

func parseSessionStore(data []byte) ([]model.StoreRow, map[string]string, error) {
	var keys []string
	byKey := map[string]int{}
	var rows []model.StoreRow
	var problems map[string]string
	end, ok := jsonscan.Object(data, 0, func(rawKey, value []byte) bool {
		key := jsonscan.Unquote(rawKey)
		entry, problem := decodeSessionEntry(value)
		entry.Problem = problem
		if problem != "" {
			if problems == nil {
				problems = map[string]string{}
			}
			problems[key] = problem
		}
		if i, dup := byKey[key]; dup {
			rows[i].Entry = entry // JSON.parse: the last value wins, the first position stays
			return true
		}
		byKey[key] = len(rows)
		keys = append(keys, key)
		rows = append(rows, model.StoreRow{Key: key, Entry: entry})
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
	if slices.ContainsFunc(keys, model.IsArrayIndexKey) {
		sorted := make([]model.StoreRow, len(rows))
		for i, k := range model.JSPropertyOrder(keys) {
			sorted[i] = rows[byKey[k]]
		}
		rows = sorted
	}
	return rows, problems, nil
}
