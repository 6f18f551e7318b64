package observer

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

// Candidate is a session the next sweep would observe, with ClawVault's
// numbers (observe --active --dry-run).
type Candidate struct {
	Agent          string `json:"agent"`
	SessionKey     string `json:"sessionKey"`
	SessionID      string `json:"sessionId"`
	Source         string `json:"source"`
	File           string `json:"file"`
	StartOffset    int64  `json:"startOffset"`
	FileSize       int64  `json:"fileSize"`
	NewBytes       int64  `json:"newBytes"`
	ThresholdBytes int64  `json:"thresholdBytes"`
	// CursorID is the cursor key: the session id, or for a reset archive
	// (--include-resets) its file name.
	CursorID     string `json:"cursorId"`
	ResetArchive bool   `json:"resetArchive,omitempty"`
	// PastEOF: the cursor lies past the end of the file (it was truncated
	// or rotated), so the read starts over at 0.
	PastEOF bool `json:"pastEof,omitempty"`
	// Seq is set for a session of OpenClaw's SQLite-era store (File is the
	// store; StartOffset, FileSize and NewBytes count its events as JSONL
	// bytes): the events it reads.
	Seq *SeqRange `json:"seq,omitempty"`
	// fractionalOffset is the cursor offset as written when it is not a
	// whole number: ClawVault lists the session, then fails it.
	fractionalOffset string
}

// Selection is one agent's dry run.
type Selection struct {
	Agent      string
	Checked    int
	Candidates []Candidate
	// SQLite are the sessions of the agent's SQLite-era store over their
	// threshold, of SQLiteChecked (SelectWithSQLite): ClawVault cannot read
	// that store, so they are not in its numbers above.
	SQLite        []Candidate
	SQLiteChecked int
}

// NewBytes totals the candidates' new bytes.
func (s Selection) NewBytes() int64 {
	var n int64
	for _, c := range s.Candidates {
		n += c.NewBytes
	}
	return n
}

// Select runs ClawVault 3.5.2's discovery and candidate selection for one
// agent of a snapshot: descriptors in discovery order, each stat'ed size
// against its cursor and threshold.
func Select(snap *store.Snapshot, agentID string, minNewBytes int64) Selection {
	sel := Selection{Agent: agentID}
	for _, a := range snap.Agents {
		if a.AgentID != agentID {
			continue
		}
		var rows []model.IndexRow
		for _, r := range a.Rows {
			rows = append(rows, r.Entry.IndexRow(r.Key))
		}
		files := map[string]model.DirFile{}
		for _, f := range a.Files {
			files[f.Name] = f
		}
		descriptors := model.Discover(agentID, rows, a.Files)
		sel.Checked = len(descriptors)
		inStore := verifiedImports(a)
		for _, d := range descriptors {
			f := files[d.FileName]
			if f.Outside != "" || inStore[filepath.Join(a.SessionsDir, d.FileName)] {
				continue // a link out of the state dir (never read), or every entry is in the store (observed there)
			}
			var cursor *model.Cursor
			if c, ok := snap.Cursors.Store.Get(d.SessionID); ok {
				cursor = &c
			}
			s := model.Select(f.Size, cursor, minNewBytes)
			if !s.Candidate {
				continue
			}
			c := Candidate{
				Agent:          agentID,
				SessionKey:     d.SessionKey,
				SessionID:      d.SessionID,
				Source:         model.SourceLabel(d.SessionKey),
				File:           filepath.Join(a.SessionsDir, d.FileName),
				StartOffset:    s.StartOffset,
				FileSize:       f.Size,
				NewBytes:       s.NewBytes,
				ThresholdBytes: s.ThresholdBytes,
				CursorID:       d.SessionID,
				PastEOF:        s.PastEOF,
			}
			if cursor != nil && !cursor.WholeOffset() {
				c.fractionalOffset = cursor.OffsetText()
			}
			sel.Candidates = append(sel.Candidates, c)
		}
	}
	return sel
}

// WriteDryRun prints a selection exactly as `clawvault observe --active
// --dry-run` prints it.
func WriteDryRun(w io.Writer, sel Selection) error {
	var b strings.Builder
	if len(sel.Candidates) == 0 {
		fmt.Fprintf(&b, "No active sessions crossed threshold (%d checked).\n", sel.Checked)
	} else {
		// ClawVault's words, (s) and all: scripts compare the two.
		fmt.Fprintf(&b, "Dry run: %d session(s) would be observed (%d new bytes).\n", len(sel.Candidates), sel.NewBytes())
		for _, c := range sel.Candidates {
			// As ClawVault prints it, but for the characters of a key that
			// would act on the terminal (model.EscapeControls).
			fmt.Fprintf(&b, "- %s [%s] \u0394%dB (threshold %dB)\n", model.EscapeControls(c.SessionKey), model.EscapeControls(c.Source), c.NewBytes, c.ThresholdBytes)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// verifiedImports are the transcripts of an agent's sessions folder whose
// every entry is in its SQLite store (import-verified): a sweep observes
// the store's session, not the file, which would observe it twice.
func verifiedImports(a model.AgentSnapshot) map[string]bool {
	out := map[string]bool{}
	for _, ch := range a.Imports {
		if ch.Verdict == model.CodeImportVerified && ch.Err == "" {
			out[ch.File] = true
		}
	}
	return out
}
