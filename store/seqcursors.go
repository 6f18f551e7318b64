package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"time"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
)

// SeqCursorFile is where clawvault-tui keeps its cursors for the sessions of
// OpenClaw's SQLite-era store: beside ClawVault's observe-cursors.json, in a
// file of its own. ClawVault never reads it, so it can never take a seq for
// a byte offset, and never drops it when it rewrites its own cursor file.
func SeqCursorFile(vault string) string {
	return filepath.Join(vault, ".clawvault", model.SeqCursorFileName)
}

// seqCursorFileVersion is the format below; a file of another version is
// reported and read as empty.
const seqCursorFileVersion = 1

// seqCursorDoc is the file:
//
//	{
//	  "version": 1,
//	  "about": "…",
//	  "sessions": {
//	    "<session id>": {"agentId": "ops", "sessionKey": "agent:ops:main",
//	      "lastObservedSeq": 40, "observedBytes": 51046,
//	      "lastObservedAt": "2026-11-21T12:00:00.000Z"}
//	  }
//	}
type seqCursorDoc struct {
	Version  int                        `json:"version"`
	About    string                     `json:"about,omitempty"`
	Sessions map[string]json.RawMessage `json:"sessions"`
}

type seqCursorEntry struct {
	AgentID        string `json:"agentId"`
	SessionKey     string `json:"sessionKey"`
	LastObservedAt string `json:"lastObservedAt"`
	// Pointers tell a missing number from 0.
	LastObservedSeq *int64 `json:"lastObservedSeq"`
	ObservedBytes   *int64 `json:"observedBytes"`
}

const seqCursorAbout = "clawvault-tui's cursors for OpenClaw's SQLite-era sessions: the last observed transcript event (seq) of each session id. ClawVault does not read this file."

// LoadSeqCursors reads the seq cursor file for status and the TUI. A
// missing file is empty; one that does not parse, or has another version,
// loads as empty and says why (Corrupt); one that cannot be read is
// ReadError; an entry that fails validation is ignored and named. A sweep reads it with
// ReadSeqCursors, which refuses such a file instead.
func LoadSeqCursors(fsys FS, vault string) model.SeqCursorState {
	st, err := ReadSeqCursors(fsys, vault)
	if fe, ok := errors.AsType[*SeqCursorFileError](err); ok {
		st.Corrupt = fe.Reason
	} else if err != nil {
		st.ReadError = err // unknown, not corrupt: nothing says what it holds
	}
	return st
}

// ReadSeqCursors reads the seq cursor file as a sweep must: a file that
// cannot be read (an UnreadableError) or does not parse is an error, never
// an empty file, since writing the new cursors alone would drop every other
// one and the next sweep would observe those sessions again from their
// first event. Invalid entries are in Problems: their sessions are not
// observed, and UpdateSeqCursors keeps the entries as they are.
func ReadSeqCursors(fsys FS, vault string) (model.SeqCursorState, error) {
	st := model.SeqCursorState{Path: SeqCursorFile(vault), Cursors: map[string]model.SeqCursor{}, Problems: map[string]string{}}
	if vault == "" {
		st.Missing = true
		return st, nil
	}
	data, err := readFileLimit(fsys, st.Path, maxCursorFile)
	if errors.Is(err, fs.ErrNotExist) {
		st.Missing = true
		return st, nil
	}
	if err != nil {
		return st, &UnreadableError{What: "the seq cursor file", Path: st.Path, Err: err}
	}
	cursors, problems, err := ParseSeqCursors(data)
	if err != nil {
		return st, &SeqCursorFileError{Path: st.Path, Reason: err.Error()}
	}
	st.Cursors, st.Problems = cursors, problems
	return st, nil
}

// SeqCursorFileError is a seq cursor file that does not parse.
type SeqCursorFileError struct {
	Path, Reason string
}

func (e *SeqCursorFileError) Error() string {
	return fmt.Sprintf("the seq cursor file %s does not parse (%s): it was left as it is; restore it (or move it aside to observe every SQLite-era session again from its first event) and run again", e.Path, e.Reason)
}

// ParseSeqCursors reads the file's content.
func ParseSeqCursors(data []byte) (map[string]model.SeqCursor, map[string]string, error) {
	doc, err := parseSeqCursorDoc(data)
	if err != nil {
		return nil, nil, err
	}
	cursors, problems := seqCursorsOf(doc)
	return cursors, problems, nil
}

// seqCursorsOf checks each entry of a parsed file: the valid cursors, and
// a sentence for each invalid entry.
func seqCursorsOf(doc seqCursorDoc) (map[string]model.SeqCursor, map[string]string) {
	cursors := map[string]model.SeqCursor{}
	problems := map[string]string{}
	for id, raw := range doc.Sessions {
		var e seqCursorEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			problems[id] = "the entry is not an object of the expected fields"
			continue
		}
		at, atErr := time.Parse(time.RFC3339Nano, e.LastObservedAt)
		switch {
		case !model.ValidSessionID(id):
			problems[id] = "the session id is not valid"
		case e.LastObservedSeq == nil || *e.LastObservedSeq < 0:
			problems[id] = "lastObservedSeq is missing or negative"
		case e.ObservedBytes == nil || *e.ObservedBytes < 0:
			problems[id] = "observedBytes is missing or negative"
		case atErr != nil:
			problems[id] = "lastObservedAt is not a time"
		default:
			cursors[id] = model.SeqCursor{AgentID: e.AgentID, SessionKey: e.SessionKey, LastSeq: *e.LastObservedSeq,
				ObservedBytes: *e.ObservedBytes, ObservedAt: at.UTC()}
		}
	}
	return cursors, problems
}

func parseSeqCursorDoc(data []byte) (seqCursorDoc, error) {
	var doc seqCursorDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return doc, fmt.Errorf("it is not the JSON of a seq cursor file (%v)", err)
	}
	if doc.Version != seqCursorFileVersion {
		return doc, fmt.Errorf("it has version %d; this build reads version %d", doc.Version, seqCursorFileVersion)
	}
	if doc.Sessions == nil {
		doc.Sessions = map[string]json.RawMessage{}
	}
	return doc, nil
}

// seqCursorEntryJSON is one session's entry, on one line.
func seqCursorEntryJSON(c model.SeqCursor) []byte {
	return fmt.Appendf(nil, "{\"agentId\": %s, \"sessionKey\": %s, \"lastObservedSeq\": %d, \"observedBytes\": %d, \"lastObservedAt\": %s}",
		quoteJSON(c.AgentID), quoteJSON(c.SessionKey), c.LastSeq, c.ObservedBytes,
		quoteJSON(jscompat.FormatISOTime(c.ObservedAt)))
}

// marshalSeqCursorEntries writes the file around entries given as JSON.
func marshalSeqCursorEntries(entries map[string][]byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"version\": %d,\n  \"about\": %s,\n  \"sessions\": {", seqCursorFileVersion, quoteJSON(seqCursorAbout))
	ids := make([]string, 0, len(entries))
	for id := range entries {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n    %s: %s", quoteJSON(id), entries[id])
	}
	if len(ids) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("}\n}\n")
	return b.Bytes()
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// SeqCursorUpdate moves one session's seq cursor.
type SeqCursorUpdate struct {
	SessionID string
	Cursor    model.SeqCursor
}

// UpdateSeqCursors writes the updates into the seq cursor file, atomically
// (a reader sees the old file or the new one). The file is read again
// first, as the sweep's own copy may be older than the file (a sweep holds
// the vault's lock, but a user may have edited it): every entry the updates
// do not name is kept, an invalid one as it is (compacted onto one line).
// A file that cannot be read or does not parse is an error, and is left as
// it is.
func UpdateSeqCursors(w WriteFS, fsys FS, vault string, updates []SeqCursorUpdate) error {
	if len(updates) == 0 {
		return nil
	}
	path := SeqCursorFile(vault)
	entries := map[string][]byte{}
	data, err := readFileLimit(fsys, path, maxCursorFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return &UnreadableError{What: "the seq cursor file", Path: path, Err: err}
	default:
		doc, err := parseSeqCursorDoc(data)
		if err != nil {
			return &SeqCursorFileError{Path: path, Reason: err.Error()}
		}
		valid, _ := seqCursorsOf(doc)
		for id, raw := range doc.Sessions {
			if c, ok := valid[id]; ok {
				entries[id] = seqCursorEntryJSON(c)
				continue
			}
			var b bytes.Buffer
			if err := json.Compact(&b, raw); err != nil {
				return &SeqCursorFileError{Path: path, Reason: err.Error()}
			}
			entries[id] = b.Bytes()
		}
	}
	for _, u := range updates {
		entries[u.SessionID] = seqCursorEntryJSON(u.Cursor)
	}
	if err := w.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := WriteFileAtomic(w, path, marshalSeqCursorEntries(entries), 0o644); err != nil {
		return fmt.Errorf("cannot write the seq cursor file: %w", err)
	}
	return nil
}

// JournalSeqCursor is a seq cursor a sweep's commit moves, as its journal
// keeps it.
type JournalSeqCursor struct {
	SessionID       string `json:"sessionId"`
	AgentID         string `json:"agentId"`
	SessionKey      string `json:"sessionKey"`
	LastObservedSeq int64  `json:"lastObservedSeq"`
	ObservedBytes   int64  `json:"observedBytes"`
	LastObservedAt  string `json:"lastObservedAt"`
	// Append indexes the journal's Appends: the ledger lines this cursor
	// depends on; -1 when the session wrote none.
	Append int `json:"append"`
}

// JournalSeqCursorOf records an update for the journal.
func JournalSeqCursorOf(u SeqCursorUpdate, appendIndex int) JournalSeqCursor {
	c := u.Cursor
	return JournalSeqCursor{SessionID: u.SessionID, AgentID: c.AgentID, SessionKey: c.SessionKey, LastObservedSeq: c.LastSeq,
		ObservedBytes: c.ObservedBytes, LastObservedAt: c.ObservedAt.UTC().Format(time.RFC3339Nano), Append: appendIndex}
}

// Update is the update a journal entry records.
func (j JournalSeqCursor) Update() (SeqCursorUpdate, error) {
	at, err := time.Parse(time.RFC3339Nano, j.LastObservedAt)
	if err != nil || !model.ValidSessionID(j.SessionID) || j.LastObservedSeq < 0 || j.ObservedBytes < 0 {
		return SeqCursorUpdate{}, fmt.Errorf("its seq cursor for %q is not valid: move the journal aside to continue", j.SessionID)
	}
	return SeqCursorUpdate{SessionID: j.SessionID, Cursor: model.SeqCursor{AgentID: j.AgentID, SessionKey: j.SessionKey,
		LastSeq: j.LastObservedSeq, ObservedBytes: j.ObservedBytes, ObservedAt: at.UTC()}}, nil
}
