package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"clawvault-tui/model"
)

// CursorFile is where ClawVault keeps the observer's byte cursors.
func CursorFile(vault string) string {
	return filepath.Join(vault, ".clawvault", "observe-cursors.json")
}

// LoadCursors reads the vault's cursor file with ClawVault's validation. A
// missing file is an empty store; a corrupt one loads as empty too, as in
// ClawVault, and says why.
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
		st.Corrupt = err.Error()
		return st
	}
	store, problems, err := model.ParseCursorStore(data)
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
