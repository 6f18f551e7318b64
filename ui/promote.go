package ui

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"clawvault-tui/model"
	"clawvault-tui/store/vaultfs"
)

// Promoting: `p` on an observation, a line of a note or a search hit puts
// its sentence into a section of an agent's MEMORY.md, once. A picker
// lists the file's headings (and "new section…"); the write is the same
// atomic, conflict-checked save as the editor's (vaultfs.Space.Promote,
// which the promote command calls too).

// promoteSource is what is promoted: a text, or a line of a file read when
// the picker opens (a search hit's snippet may be cut short).
type promoteSource struct {
	text  string
	path  string
	line  int
	agent string // whose MEMORY.md is offered first ("" = Common.DefaultAgent)
	// kind is the observation's type, when it is one; the picker starts on
	// the section that holds that kind.
	kind string
}

type (
	promoteReadyMsg struct {
		text     string
		kind     string
		agent    string
		agents   []string
		file     string
		exists   bool
		headings []model.Heading
		err      error
	}
	promoteDoneMsg struct {
		agent string
		res   vaultfs.Promoted
		err   error
	}
)

// promoteFrom reads what the picker needs: the text, the agents that have
// a workspace, and the headings of the chosen agent's MEMORY.md.
func promoteFrom(c *Common, src promoteSource) tea.Cmd {
	space, fallback := c.Space, c.DefaultAgent
	return func() tea.Msg {
		text := src.text
		if src.path != "" {
			line, err := space.ReadLine(src.path, src.line)
			if err != nil {
				return promoteReadyMsg{err: err}
			}
			text = line
		}
		text = model.CleanLine(text)
		if text == "" {
			return promoteReadyMsg{err: errors.New("nothing to promote: the line is empty once its markup is stripped")}
		}
		var agents []string
		for _, r := range space.Roots {
			if r.Kind == vaultfs.WorkspaceRoot {
				agents = append(agents, r.Agent)
			}
		}
		if len(agents) == 0 {
			return promoteReadyMsg{err: errors.New("no agent has a workspace folder to hold a MEMORY.md")}
		}
		agent := src.agent
		if !slices.Contains(agents, agent) {
			agent = fallback
		}
		if !slices.Contains(agents, agent) {
			agent = agents[0]
		}
		msg := readSections(space, text, agent, agents)
		msg.kind = src.kind
		if msg.kind == "" {
			msg.kind = model.InferObservationType(text)
		}
		return msg
	}
}

// readSections reads an agent's MEMORY.md for the picker.
func readSections(space *vaultfs.Space, text, agent string, agents []string) promoteReadyMsg {
	msg := promoteReadyMsg{text: text, agent: agent, agents: agents}
	msg.file, msg.err = space.MemoryFile(agent)
	if msg.err != nil {
		return msg
	}
	doc, err := space.Read(msg.file)
	if err != nil {
		msg.err = err
		return msg
	}
	msg.exists = doc.Version.Exists()
	msg.headings = model.Headings(string(doc.Data))
	return msg
}

// promotePicker is the dialog that chooses the section.
type promotePicker struct {
	c        *Common
	text     string
	agent    string
	agents   []string
	file     string
	exists   bool
	headings []model.Heading
	// cursor is on a heading, or on "new section…" (len(headings)).
	cursor int
	naming bool
	name   textinput.Model
	busy   bool
}

func newPromotePicker(c *Common, msg promoteReadyMsg) *promotePicker {
	p := &promotePicker{c: c, name: steadyInput(c.Theme, "new section: ", "a heading for MEMORY.md")}
	p.load(msg)
	p.cursor = sectionFor(msg.kind, msg.headings)
	return p
}

// sectionWords are the words a heading for each kind of observation has.
var sectionWords = map[string][]string{
	"decision": {"decision"}, "preference": {"preference"}, "fact": {"fact"}, "lesson": {"lesson"},
	"relationship": {"people", "person", "relationship", "contact"}, "project": {"project"}, "milestone": {"milestone", "project"},
	"task": {"task", "todo", "open"}, "todo": {"todo", "task", "open"}, "commitment": {"commitment", "promise", "task"},
	"commitment-unresolved": {"open", "commitment", "task"},
}

// sectionFor is the heading to start on: the first whose title names the
// kind of the line (Decisions for a decision), else the first below the
// file's title.
func sectionFor(kind string, hs []model.Heading) int {
	for _, w := range sectionWords[kind] {
		for i, h := range hs {
			if strings.Contains(strings.ToLower(h.Title), w) {
				return i
			}
		}
	}
	for i, h := range hs {
		if h.Level > 1 {
			return i
		}
	}
	return 0
}

func (p *promotePicker) load(msg promoteReadyMsg) {
	p.text, p.agent, p.agents, p.file, p.exists, p.headings = msg.text, msg.agent, msg.agents, msg.file, msg.exists, msg.headings
	p.cursor = min(p.cursor, len(p.headings))
	p.busy = false
}

// Update handles a key; done is true when the dialog is finished (the
// command then is the promote, or nil for a cancel).
func (p *promotePicker) Update(msg tea.KeyPressMsg) (cmd tea.Cmd, done bool) {
	k := p.c.Keys
	if p.busy {
		return nil, false
	}
	if p.naming {
		switch {
		case msg.String() == "enter":
			if title := strings.TrimSpace(p.name.Value()); title != "" {
				return p.promote(title, true), true
			}
			return nil, false
		case key.Matches(msg, k.Back):
			p.naming = false
			p.name.Blur()
			return nil, false
		}
		p.name, cmd = p.name.Update(msg)
		return cmd, false
	}
	if cursor, ok := listMove(k, msg, p.cursor, 5, len(p.headings)+1); ok {
		p.cursor = max(0, min(cursor, len(p.headings)))
		return nil, false
	}
	switch {
	case msg.String() == "enter":
		if p.cursor == len(p.headings) {
			p.naming = true
			return p.name.Focus(), false
		}
		return p.promote(p.headings[p.cursor].Title, false), true
	case key.Matches(msg, k.Agent) && len(p.agents) > 1:
		i := slices.Index(p.agents, p.agent)
		next := p.agents[(i+1)%len(p.agents)]
		p.busy = true
		space, text, agents := p.c.Space, p.text, p.agents
		return func() tea.Msg { return readSections(space, text, next, agents) }, false
	case key.Matches(msg, k.Back), key.Matches(msg, k.Quit):
		return nil, true
	}
	return nil, false
}

func (p *promotePicker) promote(section string, create bool) tea.Cmd {
	c, agent, text := p.c, p.agent, p.text
	return func() tea.Msg {
		space, done := c.space("promote")
		res, err := space.Promote(agent, section, text, create)
		done(err)
		return promoteDoneMsg{agent: agent, res: res, err: err}
	}
}

// promotedStatus is the footer line after a promote.
func promotedStatus(agent string, res vaultfs.Promoted) string {
	file := agent + "'s " + filepath.Base(res.File)
	if !res.Added {
		return fmt.Sprintf("already in %s at line %d (§ %s): nothing added", file, res.Line, res.Section)
	}
	s := fmt.Sprintf("added to %s § %s, line %d", file, res.Section, res.Line)
	if res.SectionCreated {
		s += " (a new section)"
	}
	return s
}

func (p *promotePicker) View(width, height int) string {
	t := p.c.Theme
	k := p.c.Keys
	var lines []string
	lines = append(lines, t.Title.Render("Promote to "+inert(p.agent)+"'s MEMORY.md"), t.Value.Render(wrap("“"+inert(p.text)+"”", max(20, width-12))), "")
	if !p.exists {
		lines = append(lines, t.Muted.Render(p.file+" does not exist yet: a new section creates it"))
	}
	rows := make([]string, 0, len(p.headings)+1)
	for _, h := range p.headings {
		rows = append(rows, strings.Repeat("  ", max(0, h.Level-1))+inert(h.Title))
	}
	rows = append(rows, "new section…")
	room := max(3, height-12)
	first := window(p.cursor, 0, room, len(rows))
	for i := first; i < len(rows) && i < first+room; i++ {
		if i == p.cursor {
			lines = append(lines, t.Selected.Render("▸ "+rows[i]))
		} else {
			lines = append(lines, "  "+rows[i])
		}
	}
	if p.naming {
		// A width, or textinput draws only the placeholder's first letter
		// (an "a" that read as typed).
		name := p.name
		name.SetWidth(max(20, width-16-ansi.StringWidth(name.Prompt)))
		lines = append(lines, "", name.View())
	}
	lines = append(lines, "")
	help := t.HelpKey.Render("enter") + " promote   " + t.HelpKey.Render(k.Back.Help().Key) + " cancel"
	if len(p.agents) > 1 {
		help += "   " + t.HelpKey.Render(k.Agent.Help().Key) + " another agent"
	}
	lines = append(lines, help)
	return strings.Join(lines, "\n")
}
