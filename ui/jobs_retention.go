package ui

import (
	"fmt"
	"path/filepath"
	"strings"

	"clawvault-tui/model"
)

// RetentionResult shows a retention plan on the Jobs screen: one table row
// per session maintenance would remove, per transcript the retain policy
// would shrink, and the ledger days the archive pass would move. The rows
// that name a session link to it.
type RetentionResult struct {
	Plan *model.RetentionPlan
	// links maps result lines to session keys.
	links map[int]string
}

// NewRetentionResult wraps a plan for the Jobs screen.
func NewRetentionResult(p *model.RetentionPlan) *RetentionResult { return &RetentionResult{Plan: p} }

func (r *RetentionResult) Summary() string {
	p := r.Plan
	rows := 0
	for _, m := range p.Maintenance {
		rows += m.BeforeCount - m.FinalCount
	}
	days := 0
	if p.Ledger != nil {
		days = p.Ledger.Archived()
	}
	return fmt.Sprintf("dry run: %s, %s from the sessions folders; %s; transcripts −%s (never applied)",
		model.Plural(rows, "row", "rows"), model.Bytes(p.MaintenanceBytes()), model.Plural(days, "ledger day", "ledger days"), model.Bytes(p.TranscriptBytes()))
}

func (r *RetentionResult) Lines(width int) []string {
	p := r.Plan
	r.links = map[int]string{}
	keyW := max(20, width-50)
	var out []string
	for _, m := range p.Maintenance {
		held := ""
		if n, b := m.HeldBytes(); n > 0 {
			held = fmt.Sprintf("; --apply keeps %d holding %s unobserved", n, model.Bytes(b))
		}
		out = append(out, fmt.Sprintf("maintenance, agent %s: entries %d → %d, frees %s (%s), mode %s%s",
			m.Agent, m.BeforeCount, m.FinalCount, model.Bytes(m.FreedBytes()), model.Plural(len(m.Files), "file", "files"), m.Policy.Mode, held))
		if b := m.Budget; b != nil && b.OverBudget {
			out = append(out, fmt.Sprintf("  disk budget: %s → %s (max %s)", model.Bytes(b.TotalBytesBefore), model.Bytes(b.TotalBytesAfter), model.Bytes(b.MaxBytes)))
		}

		removed := 0
		for _, row := range m.Rows {
			if row.Action == model.ActionKeep {
				continue
			}
			if removed == 0 {
				out = append(out, fmt.Sprintf("  %-14s %-9s %s", "action", "frees", "key"))
			}
			removed++
			frees := model.Bytes(row.FreedBytes)
			if row.Protected {
				frees = "(active)"
			}
			r.links[len(out)] = row.Key
			out = append(out, fmt.Sprintf("  %-14s %-9s %s", row.Action, frees, cut(row.Key, keyW)))
		}
		for _, w := range m.Warnings {
			out = append(out, "  warning: "+r.short(w))
		}
	}
	if p.TranscriptsChecked > 0 {
		out = append(out, fmt.Sprintf("transcripts: %d checked, %d would shrink by %s (a dry run only: the cursors count bytes)",
			p.TranscriptsChecked, len(p.Transcripts), model.Bytes(p.TranscriptBytes())))
		for _, t := range p.Transcripts {
			name := t.Key
			if name == "" {
				name = filepath.Base(t.File)
			} else {
				r.links[len(out)] = t.Key
			}
			cursor := ""
			if c := t.Cursor; c != nil && c.Invalidated {
				cursor = fmt.Sprintf(", cursor %s → %s", model.Count(c.Offset), model.Count(c.NewOffset))
			}
			out = append(out, fmt.Sprintf("  %-*s %s → %s (−%s)%s", keyW, cut(name, keyW), model.Bytes(t.Size), model.Bytes(t.KeptBytes), model.Bytes(t.DropBytes()), cursor))
		}
	}
	if l := p.Ledger; l != nil {
		move := "move"
		if l.Archived() == 1 {
			move = "moves"
		}
		out = append(out, fmt.Sprintf("ledger: %s before %s %s to ledger/archive/observations (%s)", model.Plural(l.Archived(), "day file", "day files"), l.Cutoff, move, model.Bytes(l.Bytes())))
		for _, mv := range l.Moves {
			note := ""
			if mv.Conflict {
				note = "  (already archived: left in place)"
			}
			out = append(out, fmt.Sprintf("  %s  %-9s %s%s", mv.Date, model.Bytes(mv.Size), mv.Rel, note))
		}
	}
	out = append(out, r.sqliteLines(len(out), keyW)...)
	for _, pr := range p.Problems {
		out = append(out, "warning: "+r.short(pr))
	}
	out = append(out, "apply with: clawvault-tui retention --apply (moves into a dated archive folder, with undo)")
	return out
}

// short names paths in the state dir from it: the screen is narrow, and
// the state dir is on the Sessions screen's detail.
func (r *RetentionResult) short(s string) string {
	if r.Plan.StateDir == "" {
		return s
	}
	return strings.ReplaceAll(s, r.Plan.StateDir+string(filepath.Separator), "<state dir>"+string(filepath.Separator))
}

func (r *RetentionResult) Link(line int) (string, bool) {
	k, ok := r.links[line]
	return k, ok
}

// sqliteLines are the SQLite era's part: the files beside the stores that
// hold nothing the stores lack; the result's lines before them are first.
func (r *RetentionResult) sqliteLines(first, keyW int) []string {
	p := r.Plan.SQLite
	if p == nil {
		return nil
	}
	out := []string{fmt.Sprintf("beside the SQLite-era stores: %s, %s (verified leftover JSONL, orphaned reindex temp databases)", model.Plural(len(p.Files), "file", "files"), model.Bytes(p.Bytes()))}
	for _, f := range p.Files {
		name := filepath.Base(f.Path)
		if f.Key != "" {
			r.links[first+len(out)] = f.Key
			name = f.Key
		}
		out = append(out, fmt.Sprintf("  %-16s %-9s %s", f.Step, model.Bytes(f.Size), cut(name, keyW)))
	}
	for _, pr := range p.Problems {
		out = append(out, "  warning: "+r.short(pr))
	}
	return out
}
