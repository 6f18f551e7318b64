package observer

import (
	"path/filepath"
	"strings"
	"time"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store"
)

// ClawVault 3.5.2 never reads <id>.jsonl.reset.<ts> archives, so what a
// session said between the last observation and /new is never observed.
// --include-resets observes that content. Its cursors are keyed by the
// archive's file name ("<id>.jsonl.reset.2026-11-20T10-00-00.000Z"):
//   - the name passes ClawVault's cursor validation (^[a-zA-Z0-9._-]{1,200}$),
//     so ClawVault keeps the entry when it rewrites the file;
//   - ClawVault's discovery only ever yields ids of files named <id>.jsonl
//     or sessions.json ids with such a file, and no transcript is named
//     "<…>.jsonl.reset.<ts>.jsonl": the key can never be a session of its;
//   - its staleness check looks for <key>.jsonl, finds nothing, and skips
//     the entry.

// SelectResets lists the reset archives of one agent with content never
// observed: from our cursor for the archive when there is one, else from
// the cursor ClawVault wrote while the file was the live <id>.jsonl (if that
// cursor predates the reset), else from the start. Archives never grow, so
// any unobserved byte qualifies (or --min-new, when given).
func SelectResets(snap *store.Snapshot, agentID string, minNewBytes int64) []Candidate {
	var out []Candidate
	for _, a := range snap.Agents {
		if a.AgentID != agentID {
			continue
		}
		live := map[string]bool{}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, ".jsonl") {
				live[strings.TrimSuffix(f.Name, ".jsonl")] = true
			}
		}
		for _, f := range a.Files {
			name := model.ClassifyFileName(f.Name)
			if name.Kind != model.FileResetArchive || name.Compressed || !f.IsFile || f.Outside != "" {
				continue
			}
			id := model.ResetCursorID(f.Name)
			if !model.ValidSessionID(id) {
				continue // not a name ClawVault would keep as a cursor key
			}
			oldID, _, _ := strings.Cut(f.Name, ".jsonl.reset.")
			c := Candidate{Agent: agentID, SessionID: name.SessionID, CursorID: id, ResetArchive: true,
				File: filepath.Join(a.SessionsDir, f.Name), FileSize: f.Size}
			key := ""
			if cur, ok := snap.Cursors.Store.Get(id); ok {
				key = cur.SessionKey
				if cur.Offset() <= f.Size {
					c.StartOffset = cur.Offset()
				} else {
					c.PastEOF = true
				}
				if !cur.WholeOffset() {
					c.fractionalOffset = cur.OffsetText()
				}
			} else if cur, ok := snap.Cursors.Store.Get(oldID); ok {
				key = cur.SessionKey
				if cursorPredates(cur, name.Stamp) || !live[oldID] {
					if cur.Offset() <= f.Size {
						c.StartOffset = cur.Offset()
					}
				}
			}
			if key == "" {
				key = model.FallbackKey(agentID, name.SessionID)
			}
			c.SessionKey, c.Source = key, model.SourceLabel(key)
			c.NewBytes = f.Size - c.StartOffset
			c.ThresholdBytes = max(1, minNewBytes)
			if c.NewBytes > 0 && c.NewBytes >= c.ThresholdBytes {
				out = append(out, c)
			}
		}
	}
	return out
}

// cursorPredates reports whether a cursor was written before the reset the
// archive's stamp (2026-11-20T10-00-00[.000]Z) records.
func cursorPredates(c model.Cursor, stamp string) bool {
	at, ok := c.ObservedAt()
	if !ok || len(stamp) < 19 {
		return false
	}
	iso := stamp[:13] + ":" + stamp[14:16] + ":" + stamp[17:]
	ms, ok := jscompat.ParseISOTime(iso)
	return ok && !at.After(time.UnixMilli(ms))
}
