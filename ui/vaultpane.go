package ui

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"clawvault-tui/model"
	"clawvault-tui/store/vaultfs"
)

// The Vault screen: a tree of the vault and of each agent's workspace
// memory, and the selected file beside it — Markdown rendered by glamour,
// observation files as a table, anything else as text. The file is read
// and split in a command; the rendering runs in another, one at a time,
// cached by (file, size, mtime, width, style), and until it is ready the
// raw text is shown: a 1 MB file never holds up a key. Enter gives the
// file the whole screen with a cursor: a line of a note, or a row of the
// table, to edit, promote, or (an observation) trace to its session.

type vaultFocus int

const (
	focusTree vaultFocus = iota
	focusFile
)

type (
	vaultListMsg struct {
		job      int
		entries  []vaultfs.Entry
		problems []string
		err      error
	}
	vaultFileMsg struct {
		job  int
		file *vaultFile
	}
	vaultRenderMsg struct {
		key   renderKey
		lines []string
	}
	// sourceFoundMsg is where an observation came from, per the raw ledger.
	sourceFoundMsg struct {
		src   vaultfs.Source
		found bool
		err   error
	}
)

// vaultFile is a file as the screen shows it, prepared in a command.
type vaultFile struct {
	entry vaultfs.Entry
	size  int64
	mtime time.Time
	text  string
	lines []string // text split into lines, endings stripped
	// rows are its observation lines; table says the file is shown as a
	// table of them (an observation file, not a note quoting one).
	rows     []model.ObservationRow
	table    bool
	markdown bool
	err      error
}

// renderKey names one glamour rendering of a file.
type renderKey struct {
	path  string
	size  int64
	mtime time.Time
	width int
	style string
}

// maxRenderCache bounds the renderings kept.
const maxRenderCache = 24

// maxRender is how much of a Markdown file the preview renders: glamour
// takes about a millisecond per KB of prose and several per KB of dense
// Markdown, so a 1 MB file would keep a core busy for seconds to show its
// first screen. The whole file is there as text with the file view.
const maxRender = 64 << 10

type vaultPane struct {
	c    *Common
	jobs *int

	entries  []vaultfs.Entry
	listJob  int
	listing  bool
	listErr  error
	problems []string
	// expanded folders, by entryKey; visible the entries shown, in order.
	expanded map[string]bool
	visible  []int

	cursor, offset int
	focus          vaultFocus

	file    *vaultFile
	fileJob int
	want    string // the path the tree's cursor is on (the file to show)

	// The file view: the source line, or the table row, under the cursor.
	line, lineOffset int
	row, rowOffset   int
	rows             []int // table rows shown after the filters
	typeFilter       string
	importance       float64
	sourceFilter     string

	previewScroll int
	rendered      map[renderKey][]string
	rendering     bool

	width, height int
}

func newVaultPane(c *Common, jobs *int) *vaultPane {
	return &vaultPane{c: c, jobs: jobs, expanded: map[string]bool{}, rendered: map[renderKey][]string{}}
}

func (p *vaultPane) nextJob() int {
	*p.jobs++
	return *p.jobs
}

func entryKey(e vaultfs.Entry) string { return e.Root.ID + ":" + e.Rel }

// activate lists the files the first time the screen is shown.
func (p *vaultPane) activate() tea.Cmd {
	if p.entries == nil && !p.listing {
		return p.list()
	}
	return nil
}

// list reads the tree (stat only).
func (p *vaultPane) list() tea.Cmd {
	p.listing = true
	p.listJob = p.nextJob()
	job, space := p.listJob, p.c.Space
	return func() tea.Msg {
		entries, problems, err := space.List(context.Background())
		return vaultListMsg{job: job, entries: entries, problems: problems, err: err}
	}
}

// Handle takes the pane's async results.
func (p *vaultPane) Handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case vaultListMsg:
		if msg.job != p.listJob {
			return nil
		}
		p.listing = false
		p.listErr, p.problems = msg.err, msg.problems
		if msg.err != nil {
			return nil
		}
		keep := p.selectedKey()
		first := p.entries == nil
		p.entries = msg.entries
		if p.entries == nil {
			p.entries = []vaultfs.Entry{}
		}
		if first {
			for _, e := range p.entries {
				if e.Rel == "" || e.Root.Kind == vaultfs.WorkspaceRoot && e.Rel == "memory" {
					p.expanded[entryKey(e)] = true
				}
			}
		}
		p.refresh(keep)
		return p.follow()
	case vaultFileMsg:
		if msg.job != p.fileJob {
			return nil
		}
		p.file = msg.file
		p.previewScroll = 0
		p.line, p.lineOffset, p.row, p.rowOffset = 0, 0, 0, 0
		p.filter()
		return p.needRender()
	case vaultRenderMsg:
		p.rendering = false
		if len(p.rendered) >= maxRenderCache {
			clear(p.rendered)
		}
		p.rendered[msg.key] = msg.lines
		return p.needRender()
	}
	return nil
}

// refresh recomputes the visible rows, keeping the cursor on an entry.
func (p *vaultPane) refresh(keep string) {
	p.visible = p.visible[:0]
	hiddenUnder := "" // a collapsed folder's key prefix
	for i, e := range p.entries {
		k := entryKey(e)
		if hiddenUnder != "" && strings.HasPrefix(k, hiddenUnder) {
			continue
		}
		hiddenUnder = ""
		p.visible = append(p.visible, i)
		if e.Dir && !p.expanded[k] {
			hiddenUnder = k + "/"
			if e.Rel == "" {
				hiddenUnder = k
			}
		}
	}
	p.cursor = 0
	for i, idx := range p.visible {
		if entryKey(p.entries[idx]) == keep {
			p.cursor = i
		}
	}
	p.clamp()
}

func (p *vaultPane) selectedKey() string {
	if e, ok := p.selected(); ok {
		return entryKey(e)
	}
	return ""
}

func (p *vaultPane) selected() (vaultfs.Entry, bool) {
	if p.cursor < 0 || p.cursor >= len(p.visible) {
		return vaultfs.Entry{}, false
	}
	return p.entries[p.visible[p.cursor]], true
}

// Reveal selects a file in the tree, opening the folders above it.
func (p *vaultPane) Reveal(filePath string) tea.Cmd {
	for _, e := range p.entries {
		if e.Path == filePath {
			for dir := path.Dir(e.Rel); dir != "." && dir != "/"; dir = path.Dir(dir) {
				p.expanded[e.Root.ID+":"+dir] = true
			}
			p.expanded[e.Root.ID+":"] = true
			p.refresh(entryKey(e))
			return p.follow()
		}
	}
	return nil
}

// follow loads the file under the cursor, if it is not the one shown.
func (p *vaultPane) follow() tea.Cmd {
	e, ok := p.selected()
	if !ok || e.Dir {
		p.want = ""
		return nil
	}
	if p.want == e.Path && p.file != nil && p.file.entry.Path == e.Path && p.file.size == e.Size && p.file.mtime.Equal(e.ModTime) {
		return nil
	}
	p.want = e.Path
	return p.load(e)
}

// Reload reads the shown file again (it was saved).
func (p *vaultPane) Reload(filePath string) tea.Cmd {
	if p.file == nil || p.file.entry.Path != filePath {
		return nil
	}
	line, row := p.line, p.row
	cmd := p.load(p.file.entry)
	p.line, p.row = line, row
	return tea.Batch(cmd, p.list())
}

func (p *vaultPane) load(e vaultfs.Entry) tea.Cmd {
	p.fileJob = p.nextJob()
	job, space := p.fileJob, p.c.Space
	return func() tea.Msg {
		f := &vaultFile{entry: e}
		doc, err := space.Read(e.Path)
		if err != nil {
			f.err = err
			return vaultFileMsg{job: job, file: f}
		}
		f.size, f.mtime = doc.Version.Size, doc.Version.ModTime
		f.text = string(doc.Data)
		// Lines as shown: the file's text made safe to print (the editor
		// edits the bytes themselves).
		f.lines = strings.Split(strings.TrimSuffix(strings.ReplaceAll(f.text, "\r\n", "\n"), "\n"), "\n")
		for i, l := range f.lines {
			f.lines[i] = inertText(l)
		}
		f.markdown = path.Ext(e.Rel) == ".md"
		if f.markdown {
			f.rows = model.ObservationRows(f.text, model.DateFromPath(e.Rel))
			f.table = isObservationFile(e.Rel, f.lines, len(f.rows))
		}
		return vaultFileMsg{job: job, file: f}
	}
}

// isObservationFile says a file is shown as a table of its observations:
// the ledger and legacy observation folders always, other files when most
// of their lines are observations (routed category files, reflections).
func isObservationFile(rel string, lines []string, rows int) bool {
	if rows == 0 {
		return false
	}
	if strings.HasPrefix(rel, "ledger/") || strings.HasPrefix(rel, "observations/") {
		return true
	}
	prose := 0
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if _, _, heading := model.ATXHeading(t); t != "" && !heading {
			prose++
		}
	}
	return rows*2 >= prose
}

// needRender starts glamour on the shown Markdown file if its rendering at
// this width is not cached and no other render runs.
func (p *vaultPane) needRender() tea.Cmd {
	f := p.file
	if f == nil || f.err != nil || !f.markdown || f.table || p.rendering || p.width <= 0 {
		return nil
	}
	k := p.renderKey()
	if _, ok := p.rendered[k]; ok {
		return nil
	}
	p.rendering = true
	md, text := &p.c.markdown, inertText(renderable(f.text))
	return func() tea.Msg {
		out, err := md.Render(k.style, k.width, text)
		if err != nil {
			out = "(cannot render: " + err.Error() + ")"
		}
		return vaultRenderMsg{key: k, lines: strings.Split(strings.TrimRight(out, "\n"), "\n")}
	}
}

// renderable is the part of a Markdown text the preview renders: all of
// it up to maxRender, else up to the last blank line outside a code fence
// before that (a cut there leaves no block half open).
func renderable(text string) string {
	if len(text) <= maxRender {
		return text
	}
	var fence model.Fence
	cut, off := 0, 0
	for off < maxRender {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			break
		}
		line := strings.TrimRight(text[off:off+end], "\r")
		if !fence.Code(line) && strings.TrimSpace(line) == "" {
			cut = off
		}
		off += end + 1
	}
	if cut == 0 {
		cut = maxRender
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
	}
	return text[:cut]
}

func (p *vaultPane) renderKey() renderKey {
	return renderKey{path: p.file.entry.Path, size: p.file.size, mtime: p.file.mtime, width: p.previewWidth(), style: p.c.glamourStyle()}
}

// filter recomputes the table rows shown.
func (p *vaultPane) filter() {
	p.rows = p.rows[:0]
	if p.file == nil {
		return
	}
	for i, r := range p.file.rows {
		if p.typeFilter != "" && r.Type != p.typeFilter || r.Importance < p.importance || p.sourceFilter != "" && r.Source != p.sourceFilter {
			continue
		}
		p.rows = append(p.rows, i)
	}
	p.row = max(0, min(p.row, len(p.rows)-1))
	p.clamp()
}

// cycle returns the value after cur among the distinct values of the
// rows ("" is all): observation types in ClawVault's order (decision
// first), anything else alphabetically.
func cycle(cur string, values []string) string {
	slices.SortFunc(values, func(a, b string) int {
		ia, ib := slices.Index(model.ObservationTypes, a), slices.Index(model.ObservationTypes, b)
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a, b)
	})
	values = slices.Compact(values)
	i := slices.Index(values, cur)
	if i+1 < len(values) {
		return values[i+1]
	}
	return ""
}

func (p *vaultPane) SetSize(w, h int) {
	p.width, p.height = w, h
	p.clamp()
}

func (p *vaultPane) treeWidth() int {
	if p.width < 60 {
		return p.width
	}
	return max(24, min(44, p.width*35/100))
}

func (p *vaultPane) previewWidth() int {
	if p.width < 60 {
		return p.width
	}
	return p.width - p.treeWidth() - 3
}

// fileHeight is the rows of the file view under its header line.
func (p *vaultPane) fileHeight() int { return max(1, p.height-2) }

func (p *vaultPane) clamp() {
	p.cursor = max(0, min(p.cursor, len(p.visible)-1))
	p.offset = window(p.cursor, p.offset, p.height, len(p.visible))
	if p.file != nil {
		p.line = max(0, min(p.line, len(p.file.lines)-1))
		p.lineOffset = window(p.line, p.lineOffset, p.fileHeight(), len(p.file.lines))
		p.row = max(0, min(p.row, len(p.rows)-1))
		p.rowOffset = window(p.row, p.rowOffset, p.fileHeight()-1, len(p.rows))
	}
}

// Update handles a key.
func (p *vaultPane) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if p.focus == focusFile {
		return p.fileKey(msg)
	}
	k := p.c.Keys
	if cursor, ok := listMove(k, msg, p.cursor, p.height, len(p.visible)); ok {
		p.cursor = cursor
		p.clamp()
		p.previewScroll = 0
		return p.follow(), true
	}
	e, ok := p.selected()
	if !ok {
		return nil, false
	}
	switch {
	case key.Matches(msg, k.Expand) && e.Dir:
		if !p.expanded[entryKey(e)] {
			p.expanded[entryKey(e)] = true
			p.refresh(entryKey(e))
		} else if p.cursor+1 < len(p.visible) {
			p.cursor++ // into the open folder
			p.clamp()
			return p.follow(), true
		}
		return nil, true
	case key.Matches(msg, k.Collapse):
		if e.Dir && p.expanded[entryKey(e)] {
			p.expanded[entryKey(e)] = false
			p.refresh(entryKey(e))
			return nil, true
		}
		// Up to the folder above.
		parent := e.Root.ID + ":" + path.Dir(e.Rel)
		if !strings.Contains(e.Rel, "/") {
			parent = e.Root.ID + ":"
		}
		if e.Rel != "" {
			p.refresh(parent)
		}
		return p.follow(), true
	case key.Matches(msg, k.Open):
		if e.Dir {
			p.expanded[entryKey(e)] = !p.expanded[entryKey(e)]
			p.refresh(entryKey(e))
			return nil, true
		}
		if p.file != nil && p.file.entry.Path == e.Path && p.file.err == nil {
			p.focus = focusFile
			p.clamp()
		}
		return nil, true
	case key.Matches(msg, k.Edit) && !e.Dir:
		return func() tea.Msg { return openEditorMsg{path: e.Path, line: 1} }, true
	case key.Matches(msg, k.ExternalEdit) && !e.Dir:
		return openExternal(p.c, e.Path, 1), true
	case key.Matches(msg, k.Copy):
		return copyText(e.Path), true
	case key.Matches(msg, k.Rescan):
		return p.list(), true
	case key.Matches(msg, k.DetailDown):
		p.previewScroll += max(1, p.height/2)
		return nil, true
	case key.Matches(msg, k.DetailUp):
		p.previewScroll = max(0, p.previewScroll-max(1, p.height/2))
		return nil, true
	}
	return nil, false
}

// fileKey handles a key while the file has the screen.
func (p *vaultPane) fileKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := p.c.Keys
	f := p.file
	if key.Matches(msg, k.Back) || f == nil {
		p.focus = focusTree
		return nil, true
	}
	agent := ""
	if f.entry.Root.Kind == vaultfs.WorkspaceRoot {
		agent = f.entry.Root.Agent
	}
	if f.table {
		if row, ok := listMove(k, msg, p.row, p.fileHeight()-1, len(p.rows)); ok {
			p.row = row
			p.clamp()
			return nil, true
		}
		switch {
		case key.Matches(msg, k.FilterType):
			p.typeFilter = cycle(p.typeFilter, p.columnValues(func(r model.ObservationRow) string { return r.Type }))
		case key.Matches(msg, k.FilterSource):
			p.sourceFilter = cycle(p.sourceFilter, p.columnValues(func(r model.ObservationRow) string { return r.Source }))
		case key.Matches(msg, k.FilterImportance):
			switch {
			case p.importance >= 0.8:
				p.importance = 0
			case p.importance >= 0.4:
				p.importance = 0.8
			default:
				p.importance = 0.4
			}
		default:
			r, ok := p.selectedRow()
			if !ok {
				return nil, false
			}
			switch {
			case key.Matches(msg, k.Open), key.Matches(msg, k.Edit):
				return func() tea.Msg { return openEditorMsg{path: f.entry.Path, line: r.Line} }, true
			case key.Matches(msg, k.ExternalEdit):
				return openExternal(p.c, f.entry.Path, r.Line), true
			case key.Matches(msg, k.Promote):
				return promoteFrom(p.c, promoteSource{text: r.Content, agent: agent, kind: r.Type}), true
			case key.Matches(msg, k.Source):
				return findSource(p.c, r, f.entry.Rel), true
			case key.Matches(msg, k.Copy):
				return copyText(fmt.Sprintf("%s:%d", f.entry.Path, r.Line)), true
			}
			return nil, false
		}
		p.filter()
		return nil, true
	}
	if line, ok := listMove(k, msg, p.line, p.fileHeight(), len(f.lines)); ok {
		p.line = line
		p.clamp()
		return nil, true
	}
	switch {
	case key.Matches(msg, k.Open), key.Matches(msg, k.Edit):
		return func() tea.Msg { return openEditorMsg{path: f.entry.Path, line: p.line + 1} }, true
	case key.Matches(msg, k.ExternalEdit):
		return openExternal(p.c, f.entry.Path, p.line+1), true
	case key.Matches(msg, k.Promote):
		return promoteFrom(p.c, promoteSource{path: f.entry.Path, line: p.line + 1, agent: agent}), true
	case key.Matches(msg, k.Copy):
		return copyText(fmt.Sprintf("%s:%d", f.entry.Path, p.line+1)), true
	}
	return nil, false
}

func (p *vaultPane) columnValues(of func(model.ObservationRow) string) []string {
	var out []string
	for _, r := range p.file.rows {
		if v := of(r); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func (p *vaultPane) selectedRow() (model.ObservationRow, bool) {
	if p.file == nil || p.row >= len(p.rows) || len(p.rows) == 0 {
		return model.ObservationRow{}, false
	}
	return p.file.rows[p.rows[p.row]], true
}

// findSource looks the observation up in the raw ledger.
func findSource(c *Common, r model.ObservationRow, rel string) tea.Cmd {
	space := c.Space
	return func() tea.Msg {
		src, found, err := space.FindSource(context.Background(), r.Content, r.Date, model.DateFromPath(rel))
		return sourceFoundMsg{src: src, found: found, err: err}
	}
}

// Scroll moves the tree's cursor (mouse wheel).
func (p *vaultPane) Scroll(n int) tea.Cmd {
	if p.focus == focusFile {
		if p.file != nil && p.file.table {
			p.row += n
		} else {
			p.line += n
		}
		p.clamp()
		return nil
	}
	p.cursor += n
	p.clamp()
	return p.follow()
}

func (p *vaultPane) ShortHelp() []key.Binding {
	k := p.c.Keys
	if p.focus == focusFile {
		if p.file != nil && p.file.table {
			return []key.Binding{k.Down, k.Edit, k.Promote, k.Source, k.FilterType, k.FilterImportance, k.FilterSource, k.Back}
		}
		return []key.Binding{k.Down, k.Edit, k.ExternalEdit, k.Promote, k.Copy, k.Back}
	}
	return []key.Binding{k.Down, k.Open, k.Edit, k.ExternalEdit, k.DetailDown, k.Help}
}

func (p *vaultPane) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{
		k.listKeys(),
		{k.Open, k.Expand, k.Collapse, k.Edit, k.ExternalEdit, k.Copy, k.Rescan, k.DetailDown, k.DetailUp},
		{k.Promote, k.Source, k.FilterType, k.FilterImportance, k.FilterSource},
	}
}

func (p *vaultPane) View() string {
	t := p.c.Theme
	w, h := p.width, p.height
	if w <= 0 || h <= 0 {
		return ""
	}
	switch {
	case p.listErr != nil:
		return block(t.Error.Render(wrap("Cannot list the memory files: "+p.listErr.Error(), w)), w, h)
	case p.entries == nil:
		return block(t.Muted.Render("listing the vault and the workspaces…"), w, h)
	case len(p.entries) == 0:
		return block(t.Muted.Render(wrap("No vault and no agent workspace to show: pass -v DIR (the vault) or --state-dir DIR.", w)), w, h)
	}
	if p.focus == focusFile && p.file != nil {
		return block(p.fileView(w, h), w, h)
	}
	tree := p.treeView(p.treeWidth(), h)
	if w < 60 {
		return block(tree, w, h)
	}
	return sideBySide(block(tree, p.treeWidth(), h), block(p.preview(p.previewWidth(), h), p.previewWidth(), h), t.Border.Render(" │ "))
}

func (p *vaultPane) treeView(width, height int) string {
	t := p.c.Theme
	lines := make([]string, 0, height)
	for i := p.offset; i < len(p.visible) && len(lines) < height; i++ {
		e := p.entries[p.visible[i]]
		indent := strings.Repeat("  ", e.Depth())
		name := inert(e.Name())
		switch {
		case e.Dir && p.expanded[entryKey(e)]:
			name = "▾ " + name
		case e.Dir:
			name = "▸ " + name
		default:
			name = "  " + name
		}
		line := indent + name
		size := ""
		if e.Rel != "" && !e.Dir {
			size = model.Bytes(e.Size)
			line = fit(line, max(0, width-len(size)-1)) + " "
		}
		switch {
		case i == p.cursor:
			// The selected row keeps its size, in the selection's colours.
			lines = append(lines, t.Selected.Render(fit(line+size, width)))
			continue
		case e.Rel == "":
			line = t.Title.Render(line)
		case size != "":
			line += t.Muted.Render(size)
		}
		lines = append(lines, cut(line, width))
	}
	return strings.Join(lines, "\n")
}

// preview shows the selected file beside the tree.
func (p *vaultPane) preview(width, height int) string {
	t := p.c.Theme
	e, ok := p.selected()
	switch {
	case !ok:
		return ""
	case e.Dir:
		return t.Muted.Render(wrap(inert(e.Path), width))
	}
	f := p.file
	if f == nil || f.entry.Path != e.Path {
		return t.Muted.Render("reading " + inert(e.Name()) + "…")
	}
	if f.err != nil {
		return t.Error.Render(wrap(inertText(f.err.Error()), width))
	}
	head := t.Title.Render(cut(inert(e.Name()), width/2)) + "  " + t.Muted.Render(model.Bytes(f.size))
	var body []string
	switch {
	case f.table:
		head += t.Muted.Render(" · " + model.Plural(len(f.rows), "observation", "observations") + " · enter for the table")
		for _, r := range f.rows {
			body = append(body, fmt.Sprintf("%s %-10s %s", inert(r.Time), cut(inert(r.Type), 10), inert(r.Text)))
		}
	case f.markdown:
		if lines, ok := p.rendered[p.renderKey()]; ok {
			body = lines
			if f.size > maxRender {
				head += t.Muted.Render(fmt.Sprintf(" · the first %s rendered; enter shows all of it", model.Bytes(maxRender)))
			}
		} else {
			head += t.Muted.Render(" · rendering…")
			body = f.lines
		}
	default:
		body = f.lines
	}
	p.previewScroll = max(0, min(p.previewScroll, len(body)-(height-1)))
	end := min(len(body), p.previewScroll+height-1)
	out := []string{cut(head, width)}
	for _, l := range body[p.previewScroll:end] {
		out = append(out, cut(l, width))
	}
	return strings.Join(out, "\n")
}

// fileView is the file with the whole screen: a table, or numbered lines.
func (p *vaultPane) fileView(width, height int) string {
	t := p.c.Theme
	f := p.file
	head := t.Title.Render(inert(f.entry.Root.Label()+" "+f.entry.Rel)) + "  " + t.Muted.Render(model.Bytes(f.size))
	if f.table {
		return p.tableView(head, width, height)
	}
	head += t.Muted.Render(fmt.Sprintf(" · line %d of %d", p.line+1, len(f.lines)))
	out := []string{cut(head, width), ""}
	g := len(fmt.Sprint(len(f.lines)))
	for i := p.lineOffset; i < len(f.lines) && i < p.lineOffset+p.fileHeight(); i++ {
		num := fmt.Sprintf("%*d ", g, i+1)
		if i == p.line {
			out = append(out, t.Selected.Render(fit(num+expandTabs(f.lines[i]), width)))
			continue
		}
		out = append(out, t.Muted.Render(num)+cut(expandTabs(f.lines[i]), width-g-1))
	}
	return strings.Join(out, "\n")
}

func expandTabs(s string) string { return strings.ReplaceAll(s, "\t", "    ") }

// tableView draws the observation table with its filters.
func (p *vaultPane) tableView(head string, width, height int) string {
	t := p.c.Theme
	f := p.file
	all := func(v string) string {
		if v == "" {
			return "all"
		}
		return v
	}
	imp := "all"
	if p.importance > 0 {
		imp = "≥" + model.FormatScore(p.importance)
	}
	filters := fmt.Sprintf("%d of %d · type %s · importance %s · source %s", len(p.rows), len(f.rows), inert(all(p.typeFilter)), imp, inert(all(p.sourceFilter)))
	out := []string{cut(head+"  "+t.Muted.Render(filters), width)}
	cols := fmt.Sprintf("%-10s %-5s %-12s %4s %4s %-14s %s", "DATE", "TIME", "TYPE", "CONF", "IMP", "SOURCE", "TEXT")
	out = append(out, t.Header.Render(cut(cols, width)))
	for i := p.rowOffset; i < len(p.rows) && i < p.rowOffset+p.fileHeight()-1; i++ {
		r := f.rows[p.rows[i]]
		line := fmt.Sprintf("%-10s %-5s %-12s %4s %4s %-14s %s", inert(r.Date), inert(r.Time), cut(inert(r.Type), 12), model.FormatScore(r.Confidence),
			model.FormatScore(r.Importance), cut(inert(r.Source), 14), inert(r.Text))
		if i == p.row {
			out = append(out, t.Selected.Render(fit(line, width)))
			continue
		}
		out = append(out, cut(line, width))
	}
	if len(p.rows) == 0 {
		out = append(out, t.Muted.Render("no observation passes the filters (t, i, s change them)"))
	}
	return strings.Join(out, "\n")
}
