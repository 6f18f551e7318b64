package ui

import (
	"fmt"

	"clawvault-tui/model"
	"clawvault-tui/store/search"
)

// IndexResult shows a search-index build on the Jobs screen: what the
// index holds and what this run read.
type IndexResult struct {
	Stats search.Stats
	Dir   string // the index's folder
}

// NewIndexResult wraps an index build's figures for the Jobs screen.
func NewIndexResult(st search.Stats, dir string) *IndexResult {
	return &IndexResult{Stats: st, Dir: dir}
}

func (r *IndexResult) Summary() string {
	return fmt.Sprintf("%s, %s indexed; %s read (%s), %d removed, %d unchanged",
		model.Plural(r.Stats.Files, "file", "files"), model.Plural(r.Stats.Docs, "section", "sections"),
		model.Plural(r.Stats.Indexed, "file", "files"), model.Bytes(r.Stats.Bytes), r.Stats.Removed, r.Stats.Unchanged)
}

func (r *IndexResult) Lines(int) []string {
	st := r.Stats
	out := []string{
		fmt.Sprintf("index: %s", r.Dir),
		fmt.Sprintf("files in the index: %d, sections: %d", st.Files, st.Docs),
		fmt.Sprintf("this run: %s read and indexed (%s only in their new lines), %d removed, %d unchanged, %d read but the same",
			model.Plural(st.Indexed, "file", "files"), model.Plural(st.Appended, "transcript", "transcripts"), st.Removed, st.Unchanged, st.Touched),
		fmt.Sprintf("%s written, %s read", model.Plural(st.Sections, "section", "sections"), model.Bytes(st.Bytes)),
	}
	for _, p := range st.Problems {
		out = append(out, "warning: "+p)
	}
	return append(out, "search it on the Search screen (4), or with clawvault-tui search QUERY")
}

func (r *IndexResult) Link(int) (string, bool) { return "", false }
