package cli

import (
	"fmt"
	"io"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
)

// sqliteRetentionDoc is the SQLite era's part of the plan: files beside
// the agents' stores that hold nothing the stores lack.
type sqliteRetentionDoc struct {
	Bytes    int64                `json:"bytes"`
	Files    []sqliteRetentionRow `json:"files"`
	Problems []string             `json:"problems"`
}

type sqliteRetentionRow struct {
	Agent      string `json:"agent"`
	Step       string `json:"step"` // import-verified or reindex-orphan
	Path       string `json:"path"`
	SessionKey string `json:"sessionKey,omitempty"`
	SizeBytes  int64  `json:"sizeBytes"`
	ModifiedAt string `json:"modifiedAt"`
	Why        string `json:"why"`
}

func sqliteRetentionJSON(p *model.SQLitePlan) *sqliteRetentionDoc {
	if p == nil {
		return nil
	}
	d := &sqliteRetentionDoc{Bytes: p.Bytes(), Files: []sqliteRetentionRow{}, Problems: nonNil(p.Problems)}
	for _, f := range p.Files {
		d.Files = append(d.Files, sqliteRetentionRow{Agent: f.Agent, Step: f.Step, Path: f.Path, SessionKey: f.Key, SizeBytes: f.Size,
			ModifiedAt: jscompat.FormatISOTime(f.ModTime), Why: f.Why})
	}
	return d
}

// writeSQLiteRetentionText is the SQLite era's part of the plan, as text.
func writeSQLiteRetentionText(w io.Writer, p *model.SQLitePlan) {
	if p == nil {
		return
	}
	fmt.Fprintf(w, "\n== Beside the SQLite-era stores: leftover JSONL every entry of which is in the store, orphaned memory reindex temp databases ==\n\n")
	if len(p.Files) == 0 {
		fmt.Fprintln(w, "Nothing to archive.")
	}
	for _, f := range p.Files {
		fmt.Fprintf(w, "%-16s %-9s %s\n  %s\n", f.Step, model.Bytes(f.Size), esc(f.Path), esc(f.Why))
	}
	for _, pr := range p.Problems {
		fmt.Fprintf(w, "Warning: %s\n", esc(pr))
	}
}
