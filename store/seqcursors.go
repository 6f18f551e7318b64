package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

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

// LoadSeqCursors reads the seq cursor file. A missing file is empty; one
// that does not parse, or has another version, loads as empty and says why;
// an entry that fails validation is ignored and named.
func LoadSeqCursors(fsys FS, vault string) model.SeqCursorState {
	st := model.SeqCursorState{Path: SeqCursorFile(vault), Cursors: map[string]model.SeqCursor{}, Problems: map[string]string{}}
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
		st.ReadError = &UnreadableError{What: "the seq cursor file", Path: st.Path, Err: err}
		return st
	}
	cursors, problems, err := ParseSeqCursors(data)
	if err != nil {
		st.Corrupt = err.Error()
		return st
	}
	st.Cursors, st.Problems = cursors, problems
	return st
}

// ParseSeqCursors reads the file's content.
func ParseSeqCursors(data []byte) (map[string]model.SeqCursor, map[string]string, error) {
	var doc seqCursorDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("it is not the JSON of a seq cursor file (%v)", err)
	}
	if doc.Version != seqCursorFileVersion {
		return nil, nil, fmt.Errorf("it has version %d; this build reads version %d", doc.Version, seqCursorFileVersion)
	}
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
	return cursors, problems, nil
}
