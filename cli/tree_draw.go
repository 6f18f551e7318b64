package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/term"

	"clawvault-tui/model"
	"clawvault-tui/store/transcript"
	"clawvault-tui/ui"
)

// drawBatch is how many rows' previews are read at a time: a drawing of a
// transcript of any size holds this many, not all of them.
const drawBatch = 512

// drawWidth is the width of a drawing that does not go to a terminal.
const drawWidth = 160

// drawTree writes the entry tree as the Transcript screen draws it, one
// line per entry: the branch guides of pi's /tree, ● on the active path,
// the time, the kind and the first words; compactions are dividers. Lines
// are cut to the terminal's width (160 columns into a pipe or a file).
func (a *app) drawTree(ctx context.Context, src treeSource) error {
	ix, err := src.reader.Index(ctx, transcript.Options{ProcessLifetime: true})
	if err != nil {
		return fmt.Errorf("cannot index %s: %w", src.target.Row.File, err)
	}
	width := drawWidth
	if f, ok := a.stdout.(*os.File); ok && term.IsTerminal(f.Fd()) {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 20 {
			width = w
		}
	}
	w := bufio.NewWriter(a.human())
	fmt.Fprintln(w, drawTitle(ix, src))
	rows := model.FlattenTree(ix.Tree).Rows
	for len(rows) > 0 {
		batch := rows[:min(drawBatch, len(rows))]
		rows = rows[len(batch):]
		entries := make([]model.Entry, len(batch))
		for i, r := range batch {
			entries[i] = ix.Entries[r.Entry]
		}
		previews, err := src.reader.Previews(ctx, entries, width)
		if err != nil {
			return fmt.Errorf("cannot read %s: %w", src.target.Row.File, err)
		}
		for i, r := range batch {
			fmt.Fprintln(w, ui.TreeLine(ix, r, previews[i], width))
		}
	}
	return w.Flush()
}

// drawTitle is the drawing's first line: the session, its name, and the
// tree's counts.
func drawTitle(ix *transcript.Index, src treeSource) string {
	title := src.target.Row.DisplayKey()
	if title == "" {
		title = filepath.Base(ix.Path)
	}
	if ix.Tree.Name != "" {
		title += " · " + ix.Tree.Name
	}
	facts := []string{model.Plural(ix.Tree.Nodes, "entry", "entries"), model.Plural(len(ix.Tree.Compactions), "compaction", "compactions"),
		model.Plural(len(ix.Tree.BranchPoints), "branch point", "branch points")}
	if n := len(ix.Malformed); n > 0 {
		facts = append(facts, model.Plural(n, "malformed line", "malformed lines"))
	}
	return title + "  " + strings.Join(facts, " · ")
}
