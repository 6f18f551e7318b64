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
	return fmt.Sprintf("%d files, %d sections indexed; %d file(s) read (%s), %d removed, %d unchanged",
		r.Stats.Files, r.Stats.Docs, r.Stats.Indexed, model.Bytes(r.Stats.Bytes), r.Stats.Removed, r.Stats.Unchanged)
}

func (r *IndexResult) Lines(int) []string {
	st := r.Stats
	out := []string{
		fmt.Sprintf("index: %s", r.Dir),
		fmt.Sprintf("files in the index: %d, sections: %d", st.Files, st.Docs),
		fmt.Sprintf("this run: %d file(s) read and indexed (%d transcripts only in their new lines), %d removed, %d unchanged, %d read but the same",
			st.Indexed, st.Appended, st.Removed, st.Unchanged, st.Touched),
		fmt.Sprintf("%d section(s) written, %s read", st.Sections, model.Bytes(st.Bytes)),
	}
	for _, p := range st.Problems {
		out = append(out, "warning: "+p)
	}
	return append(out, "search it on the Search screen (4), or with clawvault-tui search QUERY")
}

func (r *IndexResult) Link(int) (string, bool) { return "", false }
