package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A sweep commits in two steps that no single rename covers: the raw
// ledger's new lines, then the cursors. The journal bridges them. It is
// written (atomically) before the ledger is renamed and removed after the
// cursors are saved; a sweep that finds one left behind applies the cursors
// of exactly those sessions whose ledger lines made it to disk, so a crash
// between the two steps neither loses observations nor records them twice.

// JournalFile is the journal's path; clawvault-tui's own file, which
// ClawVault never reads.
func JournalFile(vault string) string {
	return filepath.Join(vault, ".clawvault", "clawvault-tui-sweep.journal.json")
}

// Journal is one commit in progress.
type Journal struct {
	Version   int              `json:"version"`
	CreatedAt string           `json:"createdAt"`
	Appends   []JournalAppend  `json:"appends"`
	Cursors   []JournalCursor  `json:"cursors"`
	Sessions  []JournalSession `json:"sessions"`
}

// JournalAppend is one log append: where its bytes will sit, and their
// CRC-32C (to tell our bytes from anything else at that place).
type JournalAppend struct {
	Path   string `json:"path"`
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
	CRC32C uint32 `json:"crc32c"`
}

// JournalCursor is a cursor the commit moves.
type JournalCursor struct {
	SessionID          string  `json:"sessionId"`
	LastObservedOffset float64 `json:"lastObservedOffset"`
	LastObservedAt     string  `json:"lastObservedAt"`
	SessionKey         string  `json:"sessionKey"`
	LastFileSize       float64 `json:"lastFileSize"`
	Truncated          bool    `json:"truncated,omitempty"`
	// Append indexes Appends: the ledger lines this cursor depends on; -1
	// when the session wrote none.
	Append int `json:"append"`
}

// JournalSession names a session of the commit, for the report.
type JournalSession struct {
	SessionID  string `json:"sessionId"`
	SessionKey string `json:"sessionKey"`
}

// SaveJournal writes the journal atomically.
func SaveJournal(w WriteFS, vault string, j *Journal) error {
	path := JournalFile(vault)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(w, path, append(data, '\n'), 0o644)
}

// LoadJournal reads a journal left by an interrupted commit; nil when
// there is none.
func LoadJournal(fsys FS, vault string) (*Journal, error) {
	data, err := fsys.ReadFile(JournalFile(vault))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var j Journal
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("the sweep journal %s does not parse (%v): move it aside to continue", JournalFile(vault), err)
	}
	return &j, nil
}

// RemoveJournal deletes the journal and syncs its folder.
func RemoveJournal(w WriteFS, vault string) error {
	path := JournalFile(vault)
	if err := w.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return w.SyncDir(filepath.Dir(path))
}
