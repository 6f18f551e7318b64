package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"clawvault-tui/store/fileid"
)

// A sweep's commit changes many files that no single rename covers: the
// vault's Markdown files, the raw ledger, the cursors. The journal makes
// them one step. Every new version is first written and synced under a
// temp name beside its file (staged); then the journal, naming each temp
// file and what it replaces, is written atomically; then the renames, the
// ledger's last, then the cursors; then the journal is removed. A sweep
// that finds a journal left behind (a crash, a full disk, a kill) rolls
// the commit forward: it renames what was not renamed yet, completes the
// ledger append, and applies the cursors of the sessions whose ledger
// lines are on disk. The vault then holds exactly what the commit would
// have written, so a rerun ends as a sweep that never failed.

// JournalFile is the journal's path; clawvault-tui's own file, which
// ClawVault never reads.
func JournalFile(vault string) string {
	return filepath.Join(vault, ".clawvault", "clawvault-tui-sweep.journal.json")
}

// Journal is one commit in progress.
type Journal struct {
	Version   int              `json:"version"`
	CreatedAt string           `json:"createdAt"`
	Files     []JournalStaged  `json:"files"`
	Appends   []JournalAppend  `json:"appends"`
	Cursors   []JournalCursor  `json:"cursors"`
	Sessions  []JournalSession `json:"sessions"`
	// SeqCursors are the seq cursors of SQLite-era sessions the commit
	// moves (SeqCursorFile), after ClawVault's cursors.
	SeqCursors []JournalSeqCursor `json:"seqCursors,omitempty"`
}

// JournalStaged is a file the commit replaces: its staged version (Temp),
// and the content it was made from (Base…), by length and CRC-32C, which
// tells "not renamed yet" from "renamed" from "changed by someone else".
type JournalStaged struct {
	Path       string `json:"path"`
	Temp       string `json:"temp"`
	BaseExists bool   `json:"baseExists"`
	BaseSize   int64  `json:"baseSize"`
	BaseCRC32C uint32 `json:"baseCrc32c"`
	Size       int64  `json:"size"`
	CRC32C     uint32 `json:"crc32c"`
}

// JournalStagedOf records a staged file and the content it replaces.
func JournalStagedOf(st *StagedFile, base []byte, baseExists bool) JournalStaged {
	j := JournalStaged{Path: st.Path, Temp: st.Temp, Size: st.Size, CRC32C: st.CRC32C, BaseExists: baseExists}
	if baseExists {
		j.BaseSize, j.BaseCRC32C = int64(len(base)), Checksum(base)
	}
	return j
}

// JournalAppend is one log append: where its bytes will sit, and their
// CRC-32C (to tell our bytes from anything else at that place); the
// prepared temp file (the log's content then ours) and the log it was
// built on.
type JournalAppend struct {
	Path   string `json:"path"`
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
	CRC32C uint32 `json:"crc32c"`
	Temp   string `json:"temp,omitempty"`
	Base   *Stamp `json:"base,omitempty"`
}

// Stamp is a file identity as a journal keeps it.
type Stamp struct {
	Exists  bool   `json:"exists"`
	Dev     uint64 `json:"dev"`
	Inode   uint64 `json:"inode"`
	Size    int64  `json:"size"`
	ModTime string `json:"modTime"`
}

// StampOf records an identity.
func StampOf(id fileid.ID) *Stamp {
	if !id.Exists() {
		return &Stamp{}
	}
	return &Stamp{Exists: true, Dev: id.Dev, Inode: id.Inode, Size: id.Size, ModTime: id.ModTime.UTC().Format(time.RFC3339Nano)}
}

func (s *Stamp) same(id fileid.ID) bool {
	if !s.Exists || !id.Exists() {
		return s.Exists == id.Exists()
	}
	t, err := time.Parse(time.RFC3339Nano, s.ModTime)
	return err == nil && id.Same(fileid.ID{Dev: s.Dev, Inode: s.Inode, Size: s.Size, ModTime: t})
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

// journalVersion 2 adds Files and the appends' temp files; a version 1
// journal (its Markdown files were renamed before it was written) is
// recovered by its cursors alone. Version 3 adds SeqCursors.
const journalVersion = 3

// SaveJournal writes the journal atomically.
func SaveJournal(w WriteFS, vault string, j *Journal) error {
	path := JournalFile(vault)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	j.Version = journalVersion
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

// RollForward completes the renames of the commit a journal describes, as
// far as it can: each staged file not in place yet is renamed over the
// version it was made from; one whose file has changed since (another
// writer, between the crash and now) is dropped with a note; each ledger
// append is renamed into place, or rebuilt on the log's new content when
// the log changed. landed says, per append, whether its bytes are in the
// log now. An error (a file it cannot read or rename) leaves the journal
// for the next attempt.
func RollForward(w WriteFS, fsys FS, j *Journal) (landed []bool, notes []string, err error) {
	for _, f := range j.Files {
		note, err := rollFile(w, fsys, f)
		if err != nil {
			return nil, notes, err
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	landed = make([]bool, len(j.Appends))
	for i, a := range j.Appends {
		ok, note, err := rollAppend(w, fsys, a)
		if err != nil {
			return nil, notes, err
		}
		landed[i] = ok
		if note != "" {
			notes = append(notes, note)
		}
	}
	return landed, notes, nil
}

func rollFile(w WriteFS, fsys FS, f JournalStaged) (string, error) {
	data, err := fsys.ReadFile(f.Path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", &UnreadableError{What: "a file of the interrupted commit", Path: f.Path, Err: err}
	}
	size, crc := int64(len(data)), Checksum(data)
	_, tempErr := w.Stat(f.Temp)
	tempExists := tempErr == nil
	switch {
	case exists && size == f.Size && crc == f.CRC32C: // renamed before the interruption
		if tempExists {
			return "", removeTemp(w, f.Temp)
		}
		return "", nil
	case tempExists && (exists == f.BaseExists && (!exists || size == f.BaseSize && crc == f.BaseCRC32C)):
		if err := w.Rename(f.Temp, f.Path); err != nil {
			return "", err
		}
		return "", w.SyncDir(filepath.Dir(f.Path))
	case tempExists:
		if err := removeTemp(w, f.Temp); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s changed after the interrupted sweep staged its new version; that version was dropped, the file is left as it is", f.Path), nil
	}
	return fmt.Sprintf("the new version of %s the interrupted sweep staged is gone; the file is left as it is", f.Path), nil
}

func rollAppend(w WriteFS, fsys FS, a JournalAppend) (bool, string, error) {
	holds := func() (bool, error) { return RegionHolds(fsys, a.Path, a.Offset, a.Length, a.CRC32C) }
	if a.Temp == "" {
		ok, err := holds()
		return ok, "", err
	}
	if _, err := w.Stat(a.Temp); err != nil {
		ok, err := holds()
		return ok, "", err
	}
	cur, err := stampFile(fsys, a.Path)
	if err != nil {
		return false, "", err
	}
	if a.Base != nil && a.Base.same(cur) {
		if err := w.Rename(a.Temp, a.Path); err != nil {
			return false, "", err
		}
		return true, "", w.SyncDir(filepath.Dir(a.Path))
	}
	if ok, err := holds(); err != nil || ok {
		if err == nil {
			err = removeTemp(w, a.Temp)
		}
		return ok, "", err
	}
	// The log changed since the temp file was built on it: append our
	// bytes to its new content.
	p, err := BeginAppend(w, fsys, a.Path)
	if err != nil {
		return false, "", err
	}
	src, err := fsys.Open(a.Temp)
	if err == nil {
		_, err = io.Copy(p, io.NewSectionReader(src, a.Offset, a.Length))
		src.Close()
	}
	if err == nil {
		err = p.Prepare()
	}
	if err == nil {
		err = p.Commit()
	}
	if err != nil {
		_ = p.Abort()
		return false, "", err
	}
	return true, fmt.Sprintf("%s changed after the interrupted sweep; its lines were appended to the new version", a.Path), removeTemp(w, a.Temp)
}

func removeTemp(w WriteFS, temp string) error {
	if err := w.Remove(temp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
