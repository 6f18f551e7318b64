package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/transcript"
)

func (a *app) treeCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "tree FILE|SESSION",
		Short: "The entry tree of a transcript",
		Long: `The parsed transcript: header, entry count, leaf, roots, branch points,
compactions, active path, the entries in the model's context, labels, name,
malformed line numbers and a torn last line. SESSION is a session id, key,
cursor id or unique id prefix, looked up in the workspace.`,
		Example: `clawvault-tui tree agent:main:direct:zoe
clawvault-tui tree ~/.openclaw/agents/main/sessions/SESSION.jsonl --json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("tree takes one FILE or SESSION (a session id, key or id prefix)")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			return a.tree(args[0])
		},
	}
}

func (a *app) tree(arg string) error {
	path, err := resolveTranscript(&a.common, arg)
	if err != nil {
		return err
	}
	ix, err := transcript.NewCache().Open(a.ctx, path, transcript.Options{})
	if err != nil {
		return fmt.Errorf("cannot index %s: %w", path, err)
	}
	doc := treeJSON(ix)
	if a.common.json {
		return writeJSON(a.stdout, doc)
	}
	return writeTreeText(a.human(), ix, doc)
}

// resolveTranscript takes a path, or finds a session by id, key, cursor id
// or unique id prefix in the located workspace.
func resolveTranscript(common *commonFlags, arg string) (string, error) {
	if fi, err := os.Stat(arg); err == nil {
		if !fi.Mode().IsRegular() {
			return "", fmt.Errorf("%s is not a file", arg)
		}
		return filepath.Abs(arg)
	}
	ws, err := common.workspace()
	if err != nil {
		return "", fmt.Errorf("%s is not a file, and no workspace to look it up in: %w", arg, err)
	}
	snap, err := store.Scan(context.Background(), store.OS, ws, store.ScanOptions{})
	if err != nil {
		return "", err
	}
	var matches []model.SessionRow
	for _, r := range snap.Rows {
		if r.SessionID == arg || r.Key == arg || r.CursorID == arg || r.ObserverKey == arg {
			matches = append(matches, r)
		}
	}
	if len(matches) == 0 {
		for _, r := range snap.Rows {
			if strings.HasPrefix(r.SessionID, arg) || strings.HasPrefix(r.CursorID, arg) {
				matches = append(matches, r)
			}
		}
	}
	var existing []model.SessionRow
	for _, r := range matches {
		if r.Exists && r.Origin != model.OriginSQLite {
			existing = append(existing, r)
		}
	}
	switch {
	case len(existing) == 1:
		return existing[0].File, nil
	case len(existing) > 1:
		var files []string
		for _, r := range existing {
			files = append(files, "  "+r.File)
		}
		return "", fmt.Errorf("%q matches %d transcripts; name one:\n%s", arg, len(existing), strings.Join(files, "\n"))
	case len(matches) > 0 && matches[0].OutsideStateDir != "":
		return "", fmt.Errorf("session %q points at %s, outside the state dir and its sessions folder (it leads to %s), so it is not read; pass that file's path to read it anyway", arg, matches[0].File, matches[0].OutsideStateDir)
	case len(matches) > 0:
		return "", fmt.Errorf("session %q points at %s, which does not exist", arg, matches[0].File)
	}
	return "", fmt.Errorf("no file and no session %q in %s", arg, ws.StateDir)
}

type treeDoc struct {
	File            string            `json:"file"`
	Header          json.RawMessage   `json:"header"`
	Entries         int               `json:"entries"`
	LeafID          *string           `json:"leafId"`
	Roots           []string          `json:"roots"`
	BranchPoints    []string          `json:"branchPoints"`
	ActivePath      []string          `json:"activePath"`
	Compactions     []compactionDoc   `json:"compactions"`
	ContextEntryIDs []string          `json:"contextEntryIds"`
	MalformedLines  []int32           `json:"malformedLines"`
	Version         int               `json:"version"`
	Lines           int32             `json:"lines"`
	SizeBytes       int64             `json:"sizeBytes"`
	Labels          map[string]string `json:"labels"`
	Name            string            `json:"name,omitempty"`
	TornTail        *tailDoc          `json:"tornTail,omitempty"`
	DuplicateIDs    int               `json:"duplicateIds"`
	Cycle           bool              `json:"cycle"`
	EntryTypes      map[string]int    `json:"entryTypes"`
}

type compactionDoc struct {
	ID               string `json:"id"`
	FirstKeptEntryID string `json:"firstKeptEntryId"`
	TokensBefore     int64  `json:"tokensBefore"`
	Line             int32  `json:"line"`
}

type tailDoc struct {
	Line   int32 `json:"line"`
	Offset int64 `json:"offset"`
	Bytes  int64 `json:"bytes"`
	Parsed bool  `json:"parsed"`
}

func treeJSON(ix *transcript.Index) treeDoc {
	t := ix.Tree
	doc := treeDoc{
		File: ix.Path, Header: json.RawMessage("null"), Entries: t.Nodes,
		Roots: ids(t, t.Roots), BranchPoints: ids(t, t.BranchPoints), ActivePath: ids(t, t.ActivePath),
		Compactions: []compactionDoc{}, ContextEntryIDs: ids(t, t.Context), MalformedLines: ix.Malformed,
		Version: ix.Version, Lines: ix.Lines, SizeBytes: ix.Size, Labels: t.Labels, Name: t.Name,
		DuplicateIDs: t.DuplicateIDs, Cycle: t.Cycle, EntryTypes: map[string]int{},
	}
	if doc.MalformedLines == nil {
		doc.MalformedLines = []int32{}
	}
	if ix.HeaderOK {
		if f, err := os.Open(ix.Path); err == nil {
			if line, err := transcript.ReadLine(f, ix.Entries[0]); err == nil && json.Valid(line) {
				doc.Header = line
			}
			f.Close()
		}
	}
	if t.Leaf >= 0 {
		leaf := t.LeafID()
		doc.LeafID = &leaf
	}
	for _, c := range t.Compactions {
		f := ix.Facts[c]
		doc.Compactions = append(doc.Compactions, compactionDoc{ID: t.ID(c), FirstKeptEntryID: f.FirstKeptEntryID, TokensBefore: f.TokensBefore, Line: t.Entry(c).Line})
	}
	if t.HasHeader {
		for i := range ix.Entries {
			if e := ix.Entries[i]; e.Type != model.TypeSession {
				doc.EntryTypes[e.Type.String()]++
			}
		}
	}
	if ix.Tail != nil {
		doc.TornTail = &tailDoc{Line: ix.Tail.Line, Offset: ix.Tail.Offset, Bytes: ix.Tail.Length, Parsed: ix.Tail.Parsed}
	}
	return doc
}

func ids(t *model.Tree, idx []int32) []string {
	if len(idx) == 0 {
		return []string{}
	}
	return t.IDs(idx)
}

func writeTreeText(w io.Writer, ix *transcript.Index, doc treeDoc) error {
	t := ix.Tree
	fmt.Fprintf(w, "File:          %s (%s, %d lines)\n", esc(doc.File), model.Bytes(doc.SizeBytes), doc.Lines)
	if !t.HasHeader {
		fmt.Fprintf(w, "Header:        none: the first parsed line is not a session header, so pi treats the file as empty\n")
	} else {
		h := ix.Header
		fmt.Fprintf(w, "Header:        v%d  id %s  %s  cwd %s\n", doc.Version, esc(h.ID), esc(h.Timestamp), esc(h.Cwd))
		if h.ParentSession != "" {
			fmt.Fprintf(w, "Forked from:   %s\n", esc(h.ParentSession))
		}
	}
	if t.Name != "" {
		fmt.Fprintf(w, "Name:          %s\n", esc(t.Name))
	}
	fmt.Fprintf(w, "Entries:       %d %s\n", doc.Entries, typeCounts(doc.EntryTypes))
	leaf := "none"
	if doc.LeafID != nil {
		leaf = *doc.LeafID
	}
	fmt.Fprintf(w, "Leaf:          %s\n", leaf)
	fmt.Fprintf(w, "Roots:         %s\n", list(doc.Roots))
	fmt.Fprintf(w, "Branch points: %s\n", list(doc.BranchPoints))
	if len(doc.Compactions) == 0 {
		fmt.Fprintf(w, "Compactions:   none\n")
	}
	for i, c := range doc.Compactions {
		label := "Compactions:  "
		if i > 0 {
			label = "              "
		}
		fmt.Fprintf(w, "%s %s (line %d): %s tokens before, first kept %s\n", label, c.ID, c.Line, model.Count(c.TokensBefore), c.FirstKeptEntryID)
	}
	fmt.Fprintf(w, "Active path:   %d entries, %s\n", len(doc.ActivePath), abbreviate(doc.ActivePath, 8))
	fmt.Fprintf(w, "Model context: %d messages, %s\n", len(doc.ContextEntryIDs), abbreviate(doc.ContextEntryIDs, 8))
	if len(doc.Labels) > 0 {
		var l []string
		for id, label := range doc.Labels {
			l = append(l, id+"="+label)
		}
		fmt.Fprintf(w, "Labels:        %s\n", esc(strings.Join(l, ", ")))
	}
	malformed := "none"
	if len(doc.MalformedLines) > 0 {
		var n []string
		for _, m := range doc.MalformedLines {
			n = append(n, fmt.Sprint(m))
		}
		malformed = strings.Join(n, ", ")
	}
	fmt.Fprintf(w, "Malformed:     %s\n", malformed)
	if tt := doc.TornTail; tt != nil {
		state := "does not parse yet: torn mid-write, or still being written"
		if tt.Parsed {
			state = "parses: pi reads it as the last entry"
		}
		fmt.Fprintf(w, "Last line:     line %d has no newline (%s); it %s\n", tt.Line, model.BytesExact(tt.Bytes), state)
	}
	if doc.DuplicateIDs > 0 {
		fmt.Fprintf(w, "Duplicate ids: %d (the later entry wins, as in pi)\n", doc.DuplicateIDs)
	}
	if doc.Cycle {
		fmt.Fprintf(w, "Warning:       a parentId chain loops; pi would hang on this file\n")
	}
	return nil
}

func typeCounts(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	order := []string{"message", "compaction", "branch_summary", "label", "session_info", "model_change", "thinking_level_change", "custom", "custom_message", "other"}
	var parts []string
	for _, k := range order {
		if n := m[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, n))
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func list(s []string) string {
	switch {
	case len(s) == 0:
		return "none"
	case len(s) > 12:
		return strings.Join(s[:12], ", ") + fmt.Sprintf(", … (%d more)", len(s)-12)
	}
	return strings.Join(s, ", ")
}

func abbreviate(s []string, n int) string {
	if len(s) == 0 {
		return "none"
	}
	if len(s) <= n {
		return strings.Join(s, " → ")
	}
	return strings.Join(s[:n/2], " → ") + fmt.Sprintf(" → … (%d more) … → ", len(s)-n) + strings.Join(s[len(s)-n/2:], " → ")
}
