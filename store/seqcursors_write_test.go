package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"clawvault-tui/model"
)

// The seq cursor file's writer. Only tests write the file until sweeps
// observe SQLite-era sessions; the sweep's commit will write it through
// this function, moved back beside LoadSeqCursors.

const seqCursorAbout = "clawvault-tui's cursors for OpenClaw's SQLite-era sessions: the last observed transcript event (seq) of each session id. ClawVault does not read this file."

// MarshalSeqCursors writes the file's content, sessions in id order.
func MarshalSeqCursors(cursors map[string]model.SeqCursor) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"version\": %d,\n  \"about\": %s,\n  \"sessions\": {", seqCursorFileVersion, quoteJSON(seqCursorAbout))
	ids := make([]string, 0, len(cursors))
	for id := range cursors {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for i, id := range ids {
		c := cursors[id]
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n    %s: {\"agentId\": %s, \"sessionKey\": %s, \"lastObservedSeq\": %d, \"observedBytes\": %d, \"lastObservedAt\": %s}",
			quoteJSON(id), quoteJSON(c.AgentID), quoteJSON(c.SessionKey), c.LastSeq, c.ObservedBytes,
			quoteJSON(c.ObservedAt.UTC().Format("2006-01-02T15:04:05.000Z")))
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

// SaveSeqCursors writes the seq cursor file atomically (a reader sees the
// old file or the new one, never a part).
func SaveSeqCursors(w WriteFS, vault string, cursors map[string]model.SeqCursor) error {
	path := SeqCursorFile(vault)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return WriteFileAtomic(w, path, MarshalSeqCursors(cursors), 0o644)
}
