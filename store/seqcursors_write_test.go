package store

import (
	"os"
	"path/filepath"

	"clawvault-tui/model"
)

// The whole-file writers the tests use; a sweep writes through
// UpdateSeqCursors.

// MarshalSeqCursors writes the file's content, sessions in id order.
func MarshalSeqCursors(cursors map[string]model.SeqCursor) []byte {
	entries := make(map[string][]byte, len(cursors))
	for id, c := range cursors {
		entries[id] = seqCursorEntryJSON(c)
	}
	return marshalSeqCursorEntries(entries)
}

// SaveSeqCursors writes the seq cursor file atomically (a reader sees the
// old file or the new one, never a part).
func SaveSeqCursors(w WriteFS, vault string, cursors map[string]model.SeqCursor) error {
	path := SeqCursorFile(vault)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return WriteFileAtomic(w, path, MarshalSeqCursors(cursors), 0o644)
}
