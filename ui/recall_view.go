package ui

import (
	"fmt"
	"strings"

	"clawvault-tui/model"
	"clawvault-tui/model/recall"
	"clawvault-tui/store/memsearch"
)

// View draws the mode: the input, a status line, then the results (or
// the files) beside or above the selected one's explanation.
func (p *recallPane) View() string {
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	head := cut(p.input.View(), p.width) + "\n" + cut(p.statusLine(), p.width)
	if p.rep == nil {
		return block(head+"\n\n"+p.c.Theme.Muted.Render(wrap(p.intro(), p.width)), p.width, p.height)
	}
	l := p.layout()
	list := p.listView(l.listWidth(), l.listHeight(2))
	detail := p.detailView(l.detailWidth())
	return head + "\n" + l.join(list, detail, p.c.Theme.Border, 2)
}

func (p *recallPane) intro() string {
	if len(p.opt.agents) == 0 {
		return "No agent here keeps a SQLite store, where OpenClaw 2026.8 and later keep the memory search index: there is nothing to replay. ctrl+r goes back to the keyword search."
	}
	return fmt.Sprintf(`As the agent recalls: type what agent %s would ask its memory and press enter. `+
		`OpenClaw's memory_search is replayed on its own index with its settings (the query is embedded by its provider, `+
		`once per session): the results it would get, with their scores; why a file is or is not among them (f lists every file); `+
		`r the memories nearest to the selected one by the index's vectors; enter edits it at its line; a another agent; ctrl+r the keyword search.`,
		p.agentName())
}

func (p *recallPane) statusLine() string {
	t := p.c.Theme
	parts := []string{"as agent " + inert(p.agentName()) + " recalls"}
	switch {
	case p.running && p.progress.Stage == "embedding":
		parts = append(parts, "embedding the query through "+inert(p.progress.Detail)+"… (esc cancels)")
	case p.running && p.progress.Stage == "vectors":
		parts = append(parts, fmt.Sprintf("reading the index's vectors %d/%d… (esc cancels)", p.progress.Done, p.progress.Total))
	case p.running:
		parts = append(parts, "searching… (esc cancels)")
	case p.err != nil:
		return t.Error.Render(inert(p.err.Error()))
	}
	if rep := p.rep; rep != nil && !p.running {
		parts = append(parts, p.summary(rep))
	}
	return t.Muted.Render(strings.Join(parts, " · "))
}

// summary says what the agent gets and how the search ran.
func (p *recallPane) summary(rep *memsearch.Report) string {
	switch rep.Status {
	case memsearch.StatusOK, memsearch.StatusKeywordOnly:
		s := model.Plural(len(rep.Results), "result", "results") + " · " + rep.Mode
		if pr := rep.Provider; pr != nil {
			s += " · " + inert(pr.ID+" "+pr.Model)
			if rep.Cached {
				s += " (query embedded before)"
			}
		}
		return s
	}
	return "the agent gets nothing"
}

func (p *recallPane) listView(width, height int) string {
	t := p.c.Theme
	var lines []string
	if !p.files && len(p.rep.Results) == 0 && p.rep.Status != memsearch.StatusOK && p.rep.Status != memsearch.StatusKeywordOnly {
		lines = append(lines, t.Error.Render(wrap(inert("memory_search gives the agent nothing: "+p.rep.Reason), width)))
		if len(p.rep.Fallback) > 0 {
			lines = append(lines, t.BadgeStale.Render("keyword-only ranking: NOT what the agent gets"))
		}
	}
	if p.files {
		for i := p.offset; i < len(p.rep.Explain) && i < p.offset+p.page(); i++ {
			lines = append(lines, p.fileLine(p.rep.Explain[i], i == p.cursor, width))
		}
	} else {
		es := p.shown()
		for i := p.offset; i < len(es) && i < p.offset+p.page(); i++ {
			lines = append(lines, p.resultLines(es[i], i == p.cursor, width)...)
		}
		if len(es) == 0 && p.rep.Status == memsearch.StatusOK {
			lines = append(lines, t.Muted.Render("No matches: f says, file by file, why."))
		}
	}
	return block(strings.Join(lines, "\n"), width, height)
}

// resultLines draws a result: its place and score breakdown, its snippet.
func (p *recallPane) resultLines(e *recall.Entry, selected bool, width int) []string {
	t := p.c.Theme
	where := inert(fmt.Sprintf("%s:%d-%d", e.Path, e.StartLine, e.EndLine))
	facts := fmt.Sprintf("%.3f  v %.2f t %.2f", e.Score, e.VectorScore, e.TextScore)
	if !e.HasVector {
		facts = fmt.Sprintf("%.3f  text %.2f", e.Score, e.TextScore)
	}
	switch {
	case e.Specificity > 0:
		facts += " · names the file"
	case e.Decayed:
		facts += fmt.Sprintf(" · decay ×%.2f", e.DecayFactor)
	}
	if e.ImportanceFactor != 1 && e.ImportanceFactor != 0 {
		facts += fmt.Sprintf(" · importance ×%.2f", e.ImportanceFactor)
	}
	marker := "  "
	head := marker + where
	if selected {
		head = t.Selected.Render("▸ " + where)
	}
	snippet := strings.Join(strings.Fields(e.Snippet), " ")
	return []string{cut(head+"  "+t.Muted.Render(facts), width), cut("    "+inert(snippet), width)}
}

// fileLine draws a file with the code of its explanation.
func (p *recallPane) fileLine(e recall.Explanation, selected bool, width int) string {
	t := p.c.Theme
	badge := t.Muted
	switch e.Code {
	case recall.Returned:
		badge = t.BadgeOK
	case recall.NotIndexed, recall.NotRegular, recall.Unavailable, recall.IdentityMismatch:
		badge = t.BadgeProblem
	case recall.DecayedBelow, recall.DroppedByMMR, recall.BeyondCount:
		badge = t.BadgeStale
	}
	code := fmt.Sprintf("%-20s", e.Code)
	if selected {
		return cut(t.Selected.Render("▸ "+inert(e.Path))+"  "+badge.Render(code), width)
	}
	return cut("  "+inert(e.Path)+"  "+badge.Render(code), width)
}

// detailView explains the selected row's file, then lists its related
// memories when asked.
func (p *recallPane) detailView(width int) string {
	t := p.c.Theme
	e, ok := p.explanation()
	if !ok {
		return ""
	}
	lines := []string{t.Label.Render(inert(e.Path)) + "  " + t.Muted.Render(e.Code), wrap(inertText(e.Reason), width)}
	for _, n := range e.Notes {
		lines = append(lines, t.Muted.Render(wrap(inertText("note: "+n), width)))
	}
	path, start, end, chunk, _ := p.selected()
	of := fmt.Sprintf("%s:%d-%d", path, start, end)
	if chunk == "" {
		of = path
	}
	switch {
	case p.relatedErr != nil && p.relatedOf == of:
		lines = append(lines, "", t.Error.Render(wrap(inert(p.relatedErr.Error()), width)))
	case p.relatedOf == of && p.related != nil:
		lines = append(lines, "", t.Label.Render("Related memories (by the index's vectors):"))
		for _, h := range p.related {
			lines = append(lines, cut(fmt.Sprintf("  %.3f %s", h.Score, inert(fmt.Sprintf("%s:%d-%d", h.Path, h.StartLine, h.EndLine))), width))
		}
	case p.relatedOf == of:
		lines = append(lines, "", t.Muted.Render("finding related memories…"))
	default:
		lines = append(lines, "", t.Muted.Render("r: related memories"))
	}
	return strings.Join(lines, "\n")
}
