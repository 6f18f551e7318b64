package ui

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"clawvault-tui/model"
	"clawvault-tui/store/transcript"
	"clawvault-tui/themes"
)

// Messages of the transcript screen's background work. Each carries the
// job id that asked for it; an answer to a superseded job is dropped.
type (
	indexProgressMsg struct {
		job         int
		done, total int64
	}
	indexDoneMsg struct {
		job     int
		ix      *transcript.Index
		tree    model.TreeView
		context model.TreeView
		err     error
		// validated is true for the result of the validation pass.
		validated bool
	}
	previewsMsg struct {
		job      int
		previews map[int64]transcript.PreviewLine // by entry offset
	}
	// rolesReadMsg ends a search for the next user message through
	// messages whose roles the index does not hold: their previews, read
	// in order until a user message came.
	rolesReadMsg struct {
		job      int
		previews map[int64]transcript.PreviewLine
		back     bool
	}
	bodyMsg struct {
		job     int
		session int // the Open it was read for
		key     bodyKey
		text    string
	}
	searchDoneMsg struct {
		job     int
		query   string
		matches []int32
		err     error
	}
)

// bodyKey names one rendering of an entry: its bytes, the width and the theme.
type bodyKey struct {
	offset int64
	width  int
	theme  string
}

// jobKind names a kind of the transcript pane's background jobs. Each
// kind has its own cancel: a job is cancelled when another of its kind
// supersedes it and when another session is opened, so that a superseded
// index of a 300 MB transcript stops reading instead of finishing unseen.
type jobKind int

const (
	kindIndex    jobKind = iota // Open and Refresh
	kindValidate                // the deferred validation after an index
	kindPreviews                // the previews of the visible rows
	kindBodies                  // the bodies of one session, rendered for the detail
	kindSearch                  // the search for the last query
	kindRoles                   // the roles read for u/U (see jumpToUser)
	jobKinds
)

// transcriptPane shows one transcript's entry tree and the selected entry.
type transcriptPane struct {
	c *Common
	// open gives the reader of a session's transcript: everything the
	// pane reads goes through it, in commands.
	open func(model.SessionRow) transcript.Reader
	jobs *int // the root's job counter
	// cancels holds the cancel of the running job of each kind.
	cancels [jobKinds]context.CancelFunc
	bodyCtx context.Context // the context of the session's body jobs

	row         model.SessionRow
	path        string
	reader      transcript.Reader
	session     int // the job id of the last Open
	ix          *transcript.Index
	tree, ctx   model.TreeView
	contextMode bool
	// restore is the tree selection to return to when the context view is
	// left without moving (-1: none).
	restore int64

	openJob             int
	loading             bool
	loadDone, loadTotal int64
	loadErr             error
	validating          bool

	cursor, offset int
	// previews are the rows' texts by entry offset, with the roles of
	// messages read with them (a SQLite-era index holds no roles).
	previews    map[int64]transcript.PreviewLine
	previewJob  int
	previewBusy bool
	rolesJob    int // the running roles read, 0 when none

	bodies       map[bodyKey]string
	detailScroll int

	searchInput textinput.Model
	searching   bool // the search input has the keyboard
	searchJob   int
	query       string
	matches     []int32
	matched     []uint64 // matches as a bitset over entry positions
	searchBusy  bool

	layout splitLayout

	// mark is where the observer's cursor stands; firstPending the first
	// pending entry, and divider the row of the view the divider is drawn
	// above (len(rows): below the last).
	mark         cursorMark
	firstPending int32
	divider      int

	// goTo is where to put the cursor once the transcript is indexed: a
	// JSONL line (a search hit), or the first entry holding a text (the
	// message an observation came from).
	goTo *transcriptTarget
}

type transcriptTarget struct {
	line int // an entry's Line: a JSONL line, or a SQLite event's seq
	text string
}

func newTranscriptPane(c *Common, open func(model.SessionRow) transcript.Reader, jobs *int) *transcriptPane {
	return &transcriptPane{c: c, open: open, jobs: jobs, searchInput: steadyInput(c.Theme, "search: ", "text in the transcript"),
		layout: splitLayout{sideFrom: 110, minDetail: 4}, previews: map[int64]transcript.PreviewLine{}, bodies: map[bodyKey]string{}, restore: -1}
}

func (p *transcriptPane) nextJob() int {
	*p.jobs++
	return *p.jobs
}

// begin cancels the running job of a kind and returns the context of the
// next one. Making a context starts nothing: the job runs in a command.
func (p *transcriptPane) begin(kind jobKind) context.Context {
	p.end(kind)
	ctx, cancel := context.WithCancel(context.Background())
	p.cancels[kind] = cancel
	return ctx
}

// end cancels the job of a kind: a superseded one, or one that finished
// (which releases its context).
func (p *transcriptPane) end(kind jobKind) {
	if cancel := p.cancels[kind]; cancel != nil {
		cancel()
		p.cancels[kind] = nil
	}
}

// Open starts indexing a session's transcript; the tree appears when it is
// done, with progress meanwhile. Validation follows in the background.
// Whatever the pane was doing for the previous transcript is cancelled.
func (p *transcriptPane) Open(row model.SessionRow) tea.Cmd {
	if rowPath(row) == p.path && (p.ix != nil || p.loading) {
		return p.reachTarget() // already open, or opening: keep the place
	}
	for kind := range jobKinds {
		p.end(kind)
	}
	p.bodyCtx = nil
	p.row, p.path, p.reader = row, rowPath(row), p.open(row)
	p.mark = markOf(row, p.c.Now())
	p.session = p.nextJob()
	p.ix, p.tree, p.ctx = nil, model.TreeView{}, model.TreeView{}
	p.cursor, p.offset, p.detailScroll = 0, 0, 0
	p.previews, p.bodies = map[int64]transcript.PreviewLine{}, map[bodyKey]string{}
	p.previewJob, p.previewBusy, p.rolesJob = 0, false, 0
	p.query, p.matches, p.matched = "", nil, nil
	p.searchJob, p.searchBusy = 0, false
	return p.load(false)
}

// Refresh re-reads the open transcript after it changed on disk: the cache
// extends the index by the appended bytes.
func (p *transcriptPane) Refresh() tea.Cmd {
	if p.path == "" || p.loading {
		return nil
	}
	return p.load(true)
}

func (p *transcriptPane) load(quiet bool) tea.Cmd {
	ctx := p.begin(kindIndex)
	p.end(kindValidate) // it checks an index this load replaces
	p.validating = false
	job := p.nextJob()
	p.openJob = job
	p.loading, p.loadErr = !quiet, nil
	p.loadDone, p.loadTotal = 0, 0
	r := p.reader
	maxLine := p.c.Config.Transcripts.MaxLineBytes()
	return runTask(ctx, func(ctx context.Context, emit func(tea.Msg)) tea.Msg {
		ix, err := r.Index(ctx, transcript.Options{
			DeferValidation: true,
			MaxLineBytes:    maxLine,
			Progress:        func(done, total int64) { emit(indexProgressMsg{job, done, total}) },
		})
		if err != nil {
			return indexDoneMsg{job: job, err: err}
		}
		return indexDoneMsg{job: job, ix: ix, tree: model.FlattenTree(ix.Tree), context: model.ContextView(ix.Tree)}
	})
}

// OpenAt opens a session's transcript with the cursor on a JSONL line, or
// on the first entry that holds text (searched for, so n/N walk the rest).
func (p *transcriptPane) OpenAt(row model.SessionRow, line int, text string) tea.Cmd {
	p.goTo = &transcriptTarget{line: line, text: text}
	return p.Open(row)
}

// reachTarget moves to goTo once there is an index.
func (p *transcriptPane) reachTarget() tea.Cmd {
	g := p.goTo
	if g == nil || p.ix == nil {
		return nil
	}
	p.goTo = nil
	if g.text != "" {
		p.setContext(false)
		return p.startSearch(g.text)
	}
	i, _ := slices.BinarySearchFunc(p.ix.Entries, int32(g.line), func(e model.Entry, line int32) int { return int(e.Line - line) })
	if i < len(p.ix.Entries) {
		p.setContext(false)
		p.reselect(p.ix.Entries[i].Offset)
	}
	return p.afterMove()
}

// validate checks the index byte by byte in the background; the tree is
// replaced only if a line turns out to be malformed.
func (p *transcriptPane) validate() tea.Cmd {
	if p.ix == nil || p.ix.Validated {
		return nil
	}
	p.validating = true
	job, ix, r := p.openJob, p.ix, p.reader
	return runTask(p.begin(kindValidate), func(ctx context.Context, emit func(tea.Msg)) tea.Msg {
		valid, err := r.Validate(ctx, ix, transcript.Options{})
		if err != nil {
			return indexDoneMsg{job: job, err: err, validated: true}
		}
		msg := indexDoneMsg{job: job, ix: valid, validated: true}
		if len(valid.Entries) != len(ix.Entries) {
			msg.tree, msg.context = model.FlattenTree(valid.Tree), model.ContextView(valid.Tree)
		}
		return msg
	})
}

// Handle takes the pane's async results.
func (p *transcriptPane) Handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case indexProgressMsg:
		if msg.job == p.openJob {
			p.loadDone, p.loadTotal = msg.done, msg.total
		}
	case indexDoneMsg:
		if msg.job == p.openJob {
			return p.indexed(msg)
		}
	case previewsMsg:
		if msg.job != p.previewJob {
			return nil // asked for by another session
		}
		p.end(kindPreviews)
		p.previewBusy = false
		maps.Copy(p.previews, msg.previews)
		return p.needPreviews()
	case rolesReadMsg:
		if msg.job != p.rolesJob || p.ix == nil {
			return nil
		}
		p.end(kindRoles)
		p.rolesJob = 0
		maps.Copy(p.previews, msg.previews)
		return p.jumpToUser(msg.back)
	case bodyMsg:
		if msg.session == p.session { // else the same offset in another transcript
			p.keepBody(msg)
		}
	case searchDoneMsg:
		if msg.job == p.searchJob && p.ix != nil {
			return p.searched(msg)
		}
	}
	return nil
}

// indexed takes the open transcript's index, or its validation: the
// selection stays on its entry (on the leaf, it follows the leaf).
func (p *transcriptPane) indexed(msg indexDoneMsg) tea.Cmd {
	if msg.validated {
		p.end(kindValidate)
		p.validating = false
		if msg.err != nil || msg.ix == nil {
			p.loadErr = msg.err
			return nil
		}
		if msg.tree.Rows == nil { // nothing changed: keep the layout
			p.ix = msg.ix
			return nil
		}
	} else {
		p.end(kindIndex)
	}
	p.loading = false
	if msg.err != nil {
		p.loadErr = msg.err
		return nil
	}
	keep := p.selectedOffset()
	if e, ok := p.selectedEntry(); ok && e == p.ix.Tree.Leaf {
		keep = -1 // on the leaf: follow the transcript as it grows, like tail -f
	}
	p.ix = msg.ix
	p.tree, p.ctx = msg.tree, msg.context
	p.placeDivider()
	p.reselect(keep)
	var cmds []tea.Cmd
	if !msg.validated {
		cmds = append(cmds, p.validate(), p.reachTarget())
	}
	cmds = append(cmds, p.needPreviews(), p.needBody())
	return tea.Batch(cmds...)
}

// keepBody keeps an entry's rendering for the detail.
func (p *transcriptPane) keepBody(msg bodyMsg) {
	p.bodies[msg.key] = msg.text
	if len(p.bodies) > 256 {
		clear(p.bodies) // a crude bound; renders are quick to redo
		p.bodies[msg.key] = msg.text
	}
}

// searched takes a search's matches and moves to the first one.
func (p *transcriptPane) searched(msg searchDoneMsg) tea.Cmd {
	p.end(kindSearch)
	p.searchBusy = false
	p.query, p.matches = msg.query, msg.matches
	p.matched = make([]uint64, (len(p.ix.Entries)+63)/64)
	for _, m := range msg.matches {
		p.matched[m/64] |= 1 << (m % 64)
	}
	if msg.err == nil && len(msg.matches) > 0 {
		p.jumpToMatch(false)
		return p.afterMove()
	}
	return nil
}

func (p *transcriptPane) view() model.TreeView {
	if p.contextMode {
		return p.ctx
	}
	return p.tree
}

// selectedOffset is the byte offset of the selected entry, which survives
// re-indexing; -1 when nothing is selected.
func (p *transcriptPane) selectedOffset() int64 {
	if e, ok := p.selectedEntry(); ok {
		return p.ix.Entries[e].Offset
	}
	return -1
}

func (p *transcriptPane) selectedEntry() (int32, bool) {
	v := p.view()
	if p.ix == nil || p.cursor >= len(v.Rows) || len(v.Rows) == 0 {
		return 0, false
	}
	return v.Rows[p.cursor].Entry, true
}

// reselect puts the cursor back on the entry at offset, else on the leaf.
func (p *transcriptPane) reselect(offset int64) {
	v := p.view()
	p.cursor = len(v.Rows) - 1
	if p.ix.Tree.Leaf >= 0 && v.RowOf[p.ix.Tree.Leaf] >= 0 {
		p.cursor = int(v.RowOf[p.ix.Tree.Leaf])
	}
	if offset >= 0 {
		i, found := slices.BinarySearchFunc(p.ix.Entries, offset, func(e model.Entry, off int64) int {
			return int(e.Offset - off)
		})
		if found && v.RowOf[i] >= 0 {
			p.cursor = int(v.RowOf[i])
		}
	}
	p.clamp()
}

func (p *transcriptPane) SetSize(w, h int) {
	p.layout.width, p.layout.height = w, h
	p.searchInput.SetWidth(max(10, w-12))
	p.clamp()
}

// above counts the lines over the tree and the detail: the header and,
// while a search is on, its line.
func (p *transcriptPane) above() int {
	if p.searching || p.searchShown() {
		return 2
	}
	return 1
}

// searchShown: a search runs or its matches are shown (Esc clears it).
func (p *transcriptPane) searchShown() bool { return p.query != "" || p.searchBusy }

func (p *transcriptPane) treeWidth() int    { return p.layout.listWidth() }
func (p *transcriptPane) treeHeight() int   { return p.layout.listHeight(p.above()) }
func (p *transcriptPane) detailWidth() int  { return p.layout.detailWidth() }
func (p *transcriptPane) detailHeight() int { return p.layout.detailHeight(p.above()) }

func (p *transcriptPane) clamp() {
	n := len(p.view().Rows)
	h := p.treeHeight()
	p.cursor = max(0, min(p.cursor, n-1))
	p.offset = window(p.cursor, p.offset, h, n)
	// The divider takes a line of the window: when it is drawn above the
	// cursor, the cursor's row must still fit below it; below the last row
	// (nothing pending), it shows when the last row is selected.
	above := p.dividerShown(p.offset, p.cursor) || p.ix != nil && p.divider == n && p.cursor == n-1
	if above && p.cursor-p.offset >= h-1 {
		p.offset++
	}
}

// SetRow gives the pane the session's row of a newer scan: after a sweep
// its cursor, and so the divider, moved.
func (p *transcriptPane) SetRow(row model.SessionRow) {
	p.row = row
	p.mark = markOf(row, p.c.Now())
	p.placeDivider()
	p.clamp()
}

// setContext shows the model-context view or the whole tree; the divider
// has a row in each.
func (p *transcriptPane) setContext(on bool) {
	p.contextMode = on
	p.placeDivider()
}

// placeDivider finds the divider's row in the current view.
func (p *transcriptPane) placeDivider() {
	if p.ix == nil {
		return
	}
	p.firstPending = p.mark.firstPending(p.ix)
	p.divider = dividerRow(p.view(), p.firstPending)
}

// dividerShown reports a divider drawn among the rows from..to of the
// window (it is drawn above row divider).
func (p *transcriptPane) dividerShown(from, to int) bool {
	return p.ix != nil && p.divider >= from && p.divider <= to
}

// afterMove asks for what the new position needs on screen.
func (p *transcriptPane) afterMove() tea.Cmd {
	p.restore = -1
	p.detailScroll = 0
	p.clamp()
	return tea.Batch(p.needPreviews(), p.needBody())
}

// Update handles a key; it reports whether the key was used.
func (p *transcriptPane) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if p.searching {
		return p.searchKey(msg), true
	}
	if p.ix == nil {
		return nil, false
	}
	if cursor, ok := listMove(p.c.Keys, msg, p.cursor, p.treeHeight(), len(p.view().Rows)); ok {
		p.cursor = cursor
		return p.afterMove(), true
	}
	if cmd, used := p.jumpKey(msg); used {
		return cmd, true
	}
	return p.actionKey(msg)
}

// searchKey gives a key to the search input: enter searches, Back leaves
// it.
func (p *transcriptPane) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case msg.String() == "enter":
		p.searching = false
		p.searchInput.Blur()
		return p.startSearch(p.searchInput.Value())
	case key.Matches(msg, p.c.Keys.Back):
		p.searching = false
		p.searchInput.Blur()
		p.clamp()
		return nil
	}
	var cmd tea.Cmd
	p.searchInput, cmd = p.searchInput.Update(msg)
	return cmd
}

// jumpKey moves the selection to the next landmark a key names:
// compaction, branch point, user message, search match, the observer's
// cursor; or switches between the tree and the model-context view.
func (p *transcriptPane) jumpKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k, v := p.c.Keys, p.view()
	switch {
	case key.Matches(msg, k.NextCompaction), key.Matches(msg, k.PrevCompaction):
		p.cursor = jumpAmong(rowsOf(v, p.ix.Tree.Compactions), p.cursor, key.Matches(msg, k.PrevCompaction))
	case key.Matches(msg, k.NextBranch), key.Matches(msg, k.PrevBranch):
		p.cursor = jumpAmong(rowsOf(v, p.ix.Tree.BranchPoints), p.cursor, key.Matches(msg, k.PrevBranch))
	case key.Matches(msg, k.NextUser), key.Matches(msg, k.PrevUser):
		return p.jumpToUser(key.Matches(msg, k.PrevUser)), true
	case key.Matches(msg, k.Context):
		return p.toggleContext(), true
	case key.Matches(msg, k.ObserverCursor):
		// The first pending entry, a third of the way down, below some of
		// what was observed.
		p.cursor = min(p.divider, len(v.Rows)-1)
		p.offset = max(0, p.cursor-p.treeHeight()/3)
	case key.Matches(msg, k.NextMatch), key.Matches(msg, k.PrevMatch):
		p.jumpToMatch(key.Matches(msg, k.PrevMatch))
	default:
		return nil, false
	}
	return p.afterMove(), true
}

// toggleContext enters the model-context view at the selected entry, or
// leaves it for the tree at the entry selected before (if the selection
// did not move) or the one selected now.
func (p *transcriptPane) toggleContext() tea.Cmd {
	keep := p.selectedOffset()
	if !p.contextMode {
		p.setContext(true)
		p.reselect(keep)
		cmd := p.afterMove()
		p.restore = keep
		return cmd
	}
	p.setContext(false)
	if p.restore >= 0 {
		keep = p.restore
	}
	p.reselect(keep)
	return p.afterMove()
}

// actionKey handles the keys that act on the transcript without moving
// in it: search, scroll the entry, copy its place, edit (refused).
func (p *transcriptPane) actionKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := p.c.Keys
	switch {
	case key.Matches(msg, k.Search):
		// A new query each time: the last one is in the line above until
		// it is replaced, and typing never appends to it.
		p.searching = true
		p.searchInput.SetValue("")
		p.clamp()
		return p.searchInput.Focus(), true
	case key.Matches(msg, k.Back) && p.searchShown():
		p.startSearch("") // clears it
		p.clamp()
		return nil, true
	case key.Matches(msg, k.DetailDown), key.Matches(msg, k.DetailUp):
		h := p.detailHeight()
		n := max(1, h/2)
		if key.Matches(msg, k.DetailUp) {
			n = -n
		}
		p.detailScroll = scrollBy(p.detailScroll, n, len(p.detailLines(p.detailWidth())), h)
		return nil, true
	case key.Matches(msg, k.Edit), key.Matches(msg, k.ExternalEdit):
		// ClawVault's cursors are byte offsets into the live file: an
		// edit would move what they point at.
		return func() tea.Msg {
			return statusMsg{"transcripts are not edited here: ClawVault's byte cursors point into them (y copies path:line)"}
		}, true
	case key.Matches(msg, k.Copy):
		if e, ok := p.selectedEntry(); ok {
			return copyText(p.place(p.ix.Entries[e])), true
		}
		return p.afterMove(), true
	}
	return nil, false
}

// place is where an entry is, as y copies it: path:line, or path seq N
// for a SQLite-era store.
func (p *transcriptPane) place(e model.Entry) string {
	if p.inStore() {
		return fmt.Sprintf("%s seq %d", p.path, e.Line)
	}
	return fmt.Sprintf("%s:%d", p.path, e.Line)
}

func (p *transcriptPane) startSearch(query string) tea.Cmd {
	query = strings.TrimSpace(query)
	if query == "" || p.ix == nil {
		p.end(kindSearch)
		p.query, p.matches, p.matched = "", nil, nil
		p.searchJob, p.searchBusy = 0, false
		return nil
	}
	ctx := p.begin(kindSearch)
	job := p.nextJob()
	p.searchJob, p.searchBusy = job, true
	ix, r := p.ix, p.reader
	return runTask(ctx, func(ctx context.Context, emit func(tea.Msg)) tea.Msg {
		m, err := r.Search(ctx, ix, query, nil)
		return searchDoneMsg{job: job, query: query, matches: m, err: err}
	})
}

// jumpToMatch moves to the next (or previous) row whose entry matched.
func (p *transcriptPane) jumpToMatch(back bool) {
	if len(p.matches) == 0 {
		return
	}
	p.cursor = nextWrapping(p.view(), p.cursor, back, func(e int32) bool {
		return int(e/64) < len(p.matched) && p.matched[e/64]&(1<<(e%64)) != 0
	})
}

// rowsOf lists the rows of some entries in a view, in row order. The
// lists (compactions, branch points) are short; scanning every row of a
// million-entry tree for them would not be.
func rowsOf(v model.TreeView, entries []int32) []int {
	rows := make([]int, 0, len(entries))
	for _, e := range entries {
		if r := v.RowOf[e]; r >= 0 {
			rows = append(rows, int(r))
		}
	}
	slices.Sort(rows)
	return rows
}

// jumpAmong moves to the next (or previous) of sorted rows, wrapping.
func jumpAmong(rows []int, from int, back bool) int {
	if len(rows) == 0 {
		return from
	}
	i, found := slices.BinarySearch(rows, from)
	if back {
		if i == 0 {
			return rows[len(rows)-1]
		}
		return rows[i-1]
	}
	if found {
		i++
	}
	if i >= len(rows) {
		return rows[0]
	}
	return rows[i]
}

// nextWrapping finds the next matching row after from (before it, when
// back), going round the end; from itself when nothing else matches.
func nextWrapping(v model.TreeView, from int, back bool, match func(int32) bool) int {
	if next, ok := v.Next(from, back, match); ok {
		return next
	}
	start := -1
	if back {
		start = len(v.Rows)
	}
	if next, ok := v.Next(start, back, match); ok {
		return next
	}
	return from
}

// needPreviews loads the previews of visible rows that have none yet.
func (p *transcriptPane) needPreviews() tea.Cmd {
	if p.ix == nil || p.previewBusy {
		return nil
	}
	v := p.view()
	var want []model.Entry
	for i := p.offset; i < p.offset+p.treeHeight() && i < len(v.Rows); i++ {
		e := p.ix.Entries[v.Rows[i].Entry]
		if _, ok := p.previews[e.Offset]; !ok {
			want = append(want, e)
		}
	}
	if len(want) == 0 {
		return nil
	}
	p.previewBusy = true
	ctx, job, r, width := p.begin(kindPreviews), p.nextJob(), p.reader, p.treeWidth()
	p.previewJob = job
	return func() tea.Msg {
		return previewsMsg{job: job, previews: readPreviews(ctx, r, want, width)}
	}
}

// readPreviews reads the previews of entries, by offset; when the
// transcript cannot be read, each shows why.
func readPreviews(ctx context.Context, r transcript.Reader, entries []model.Entry, width int) map[int64]transcript.PreviewLine {
	texts, err := r.Previews(ctx, entries, width)
	out := make(map[int64]transcript.PreviewLine, len(entries))
	for i, e := range entries {
		if err != nil {
			out[e.Offset] = transcript.PreviewLine{Text: "(" + err.Error() + ")"}
		} else {
			out[e.Offset] = texts[i]
		}
	}
	return out
}

// role is the role of an entry that is a message, and whether it is
// known: the index's, or what the entry's preview read.
func (p *transcriptPane) role(e int32) (model.Role, bool) {
	ent := &p.ix.Entries[e]
	if ent.Type != model.TypeMessage || ent.Role != model.RoleNone {
		return ent.Role, true
	}
	pl, ok := p.previews[ent.Offset]
	return pl.Role, ok
}

// rolesBatch is how many messages a roles read decodes between checks
// for a user message.
const rolesBatch = 128

// jumpToUser moves to the next (or previous) user message, going round
// the end. A SQLite-era index holds no roles: the messages on the way
// whose roles no preview read yet are read first, in order, a batch at a
// time, stopping at the first user message (a JSONL index knows every
// role, and reads nothing). Only what the jump passes over is decoded.
func (p *transcriptPane) jumpToUser(back bool) tea.Cmd {
	v := p.view()
	n := len(v.Rows)
	if n == 0 || p.rolesJob != 0 {
		return nil
	}
	step := 1
	if back {
		step = -1
	}
	var unknown []int32
	for i, r := 1, p.cursor; i < n; i++ {
		r = (r + step + n) % n
		e := v.Rows[r].Entry
		role, known := p.role(e)
		if !known {
			unknown = append(unknown, e)
			continue
		}
		if role == model.RoleUser && p.ix.Entries[e].Type == model.TypeMessage {
			if len(unknown) == 0 {
				p.cursor = r
				return p.afterMove()
			}
			break
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	ctx, job, r, ix, width := p.begin(kindRoles), p.nextJob(), p.reader, p.ix, p.treeWidth()
	p.rolesJob = job
	return func() tea.Msg {
		out := map[int64]transcript.PreviewLine{}
		batch := make([]model.Entry, 0, rolesBatch)
		for len(unknown) > 0 && ctx.Err() == nil {
			k := min(rolesBatch, len(unknown))
			batch = batch[:0]
			for _, e := range unknown[:k] {
				batch = append(batch, ix.Entries[e])
			}
			unknown = unknown[k:]
			read := readPreviews(ctx, r, batch, width)
			maps.Copy(out, read)
			if slices.ContainsFunc(batch, func(e model.Entry) bool { return read[e.Offset].Role == model.RoleUser }) {
				break
			}
		}
		return rolesReadMsg{job: job, previews: out, back: back}
	}
}

// needBody renders the selected entry, off the event loop, unless cached.
func (p *transcriptPane) needBody() tea.Cmd {
	e, ok := p.selectedEntry()
	if !ok {
		return nil
	}
	entry := p.ix.Entries[e]
	k := bodyKey{offset: entry.Offset, width: p.detailWidth(), theme: p.c.Theme.Name}
	if _, ok := p.bodies[k]; ok {
		return nil
	}
	if p.bodyCtx == nil {
		p.bodyCtx = p.begin(kindBodies)
	}
	ctx, job, session, r := p.bodyCtx, p.nextJob(), p.session, p.reader
	c, th, style, where := p.c, p.c.Theme, p.c.glamourStyle(), p.positionWord()
	return func() tea.Msg {
		b, err := r.Body(ctx, entry)
		if err != nil {
			return bodyMsg{job: job, session: session, key: k, text: th.Error.Render(err.Error())}
		}
		return bodyMsg{job: job, session: session, key: k, text: renderEntry(c, th, style, b, entry, where, k.width)}
	}
}

// Scroll moves the selection by n rows (mouse wheel).
func (p *transcriptPane) Scroll(n int) tea.Cmd {
	if p.ix == nil {
		return nil
	}
	p.cursor += n
	return p.afterMove()
}

// Click selects the row at line y of the pane.
func (p *transcriptPane) Click(x, y int) tea.Cmd {
	line := y - p.above()
	if p.ix == nil || line < 0 || line >= p.treeHeight() || x >= p.treeWidth() {
		return nil
	}
	i := p.offset + line
	if p.dividerShown(p.offset, i) {
		if i == p.divider { // the divider's own line
			return nil
		}
		i-- // the rows below the divider sit a line lower
	}
	if i < len(p.view().Rows) {
		p.cursor = i
	}
	return p.afterMove()
}

func (p *transcriptPane) ShortHelp() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.Down, k.NextCompaction, k.NextBranch, k.NextUser, k.Context, k.Search, k.Copy, k.Back, k.Help}
}

func (p *transcriptPane) FullHelp() [][]key.Binding {
	k := p.c.Keys
	return [][]key.Binding{
		k.listKeys(),
		{k.NextCompaction, k.PrevCompaction, k.NextBranch, k.PrevBranch, k.NextUser, k.PrevUser},
		{k.Context, k.Search, k.NextMatch, k.PrevMatch, k.DetailDown, k.DetailUp, k.ObserverCursor},
		{k.Copy},
	}
}

func (p *transcriptPane) View() string {
	t := p.c.Theme
	w, h := p.layout.width, p.layout.height
	if w <= 0 || h <= 0 {
		return ""
	}
	if p.path == "" {
		return block(t.Muted.Render("No transcript open: pick a session on the Sessions screen (1) and press enter."), w, h)
	}
	head := p.header()
	switch {
	case p.loadErr != nil && p.ix == nil:
		return block(head+"\n"+t.Error.Render(wrap("Cannot read the transcript: "+inert(p.loadErr.Error()), w)), w, h)
	case p.ix == nil:
		return block(head+"\n"+p.progress(), w, h)
	}
	var b strings.Builder
	b.WriteString(head)
	if p.searching {
		b.WriteString("\n" + cut(p.searchInput.View(), w))
	} else if p.searchShown() {
		state := fmt.Sprintf("%s for %q · n/N · esc clears", model.Plural(len(p.matches), "match", "matches"), inert(p.query))
		if p.searchBusy {
			state = "searching…"
		}
		b.WriteString("\n" + t.Muted.Render(cut(state, w)))
	}
	b.WriteString("\n" + p.layout.join(p.treeRows(p.treeWidth(), p.treeHeight()), p.detail(p.detailWidth(), p.detailHeight()), t.Border, p.above()))
	return b.String()
}

func (p *transcriptPane) header() string {
	t := p.c.Theme
	title := inert(p.row.DisplayKey())
	if title == "" {
		title = inert(filepath.Base(p.path))
	}
	var facts []string
	if ix := p.ix; ix != nil {
		if ix.Tree.Name != "" {
			title += " · " + inert(ix.Tree.Name)
		}
		facts = append(facts, model.Plural(ix.Tree.Nodes, "entry", "entries"), model.Plural(len(ix.Tree.Compactions), "compaction", "compactions"),
			model.Plural(len(ix.Tree.BranchPoints), "branch point", "branch points"))
		if n := len(ix.Malformed); n > 0 {
			facts = append(facts, t.BadgeProblem.Render(fmt.Sprintf("%d malformed", n)))
		}
		if ix.Tail != nil && !ix.Tail.Parsed {
			facts = append(facts, t.BadgeStale.Render("torn tail"))
		}
		switch {
		case p.contextMode:
			facts = append(facts, t.BadgeCandidate.Render("model context: "+model.Plural(len(ix.Tree.Context), "message", "messages")))
		case p.validating:
			facts = append(facts, "validating…")
		}
	}
	w := p.layout.width
	title = cut(title, w/2)
	return t.Title.Render(title) + "  " + t.Muted.Render(cut(strings.Join(facts, " · "), w-ansi.StringWidth(title)-2))
}

func (p *transcriptPane) progress() string {
	t := p.c.Theme
	if p.loadTotal <= 0 {
		return t.Muted.Render("indexing…")
	}
	w := max(10, min(50, p.layout.width-30))
	f := float64(p.loadDone) / float64(p.loadTotal)
	filled := int(f * float64(w))
	return fmt.Sprintf("indexing %s  %s of %s", t.GaugeFill.Render(strings.Repeat("█", filled))+t.GaugeEmpty.Render(strings.Repeat("░", w-filled)),
		model.Bytes(p.loadDone), model.Bytes(p.loadTotal))
}

// treeRows renders the visible window of the tree.
func (p *transcriptPane) treeRows(width, height int) string {
	t := p.c.Theme
	v := p.view()
	lines := make([]string, 0, height)
	for i := p.offset; len(lines) < height && i <= len(v.Rows); i++ {
		if i == p.divider {
			lines = append(lines, p.dividerLine(width))
			if len(lines) == height {
				break
			}
		}
		if i < len(v.Rows) {
			lines = append(lines, p.renderRow(v.Rows[i], i == p.cursor, width, t))
		}
	}
	if len(v.Rows) == 0 {
		lines = append(lines, t.Muted.Render("no entries (the file has no session header, or nothing after it)"))
	}
	return strings.Join(lines, "\n")
}

// dividerLine is the line drawn where the observer's cursor stands.
func (p *transcriptPane) dividerLine(width int) string {
	text := ""
	for _, t := range p.mark.texts {
		if text = "── " + t + " "; ansi.StringWidth(text) <= width {
			break
		}
	}
	return p.c.Theme.BadgeCandidate.Render(cut(text+strings.Repeat("─", max(0, width-ansi.StringWidth(text))), width))
}

func (p *transcriptPane) renderRow(r model.TreeRow, selected bool, width int, t *themes.Theme) string {
	e := p.ix.Entries[r.Entry]
	if p.mark.observed {
		// A gutter marks the entries after the cursor: the next sweep's.
		gutter := " "
		if r.Entry >= p.firstPending {
			gutter = "+"
		}
		row := p.renderRow1(r, e, selected, width-1, t)
		if selected {
			return t.Selected.Render(gutter) + row
		}
		return t.BadgeCandidate.Render(gutter) + row
	}
	return p.renderRow1(r, e, selected, width, t)
}

func (p *transcriptPane) renderRow1(r model.TreeRow, e model.Entry, selected bool, width int, t *themes.Theme) string {
	pl, ok := p.previews[e.Offset]
	if !ok {
		pl.Text = "…"
	}
	if role, known := p.role(r.Entry); known {
		pl.Role = role
	}
	line, label := treeRowText(p.ix, r, pl, width)
	switch {
	case e.Type == model.TypeCompaction && selected:
		return t.Selected.Render(fit(line, width))
	case e.Type == model.TypeCompaction:
		return t.BadgeStale.Render(cut(line, width))
	case label != "":
		line = cut(line, width-ansi.StringWidth(label)) + t.BadgeCandidate.Render(label)
	}
	switch {
	case selected:
		return t.Selected.Render(fit(ansi.Strip(line), width))
	case r.Flags&model.RowOnPath == 0:
		return t.Muted.Render(cut(line, width))
	}
	return cut(line, width)
}

// treeRowText is a row of the entry tree as text, escaped: the branch
// guides, ● on the active path (· off it), the time, the kind and the
// preview; a compaction is a divider as wide as width. The entry's label
// comes apart (" [label]"), to be kept when the line is cut.
func treeRowText(ix *transcript.Index, r model.TreeRow, preview transcript.PreviewLine, width int) (line, label string) {
	e := ix.Entries[r.Entry]
	guides := treeGuides(r, width/3)
	if e.Type == model.TypeCompaction {
		f := ix.Facts[r.Entry]
		text := fmt.Sprintf("── compaction · %s tokens before · keeps from %s ", model.Count(f.TokensBefore), inert(f.FirstKeptEntryID))
		return guides + text + strings.Repeat("─", max(0, width-ansi.StringWidth(guides+text))), ""
	}
	marker := "·"
	if r.Flags&model.RowOnPath != 0 {
		marker = "●"
	}
	when := "     "
	if e.TimeMs != model.NoTime {
		when = time.UnixMilli(e.TimeMs).UTC().Format("15:04")
	}
	role := e.Role
	if e.Type == model.TypeMessage && role == model.RoleNone {
		role = preview.Role
	}
	if l, ok := ix.Tree.Labels[ix.Tree.ID(r.Entry)]; ok {
		label = " [" + inert(l) + "]"
	}
	return fmt.Sprintf("%s%s %s %-5s %s", guides, marker, when, entryTag(e.Type, role), inert(preview.Text)), label
}

// TreeLine is a row of the entry tree as the Transcript screen draws it,
// as plain text cut to width (its label kept): for `tree --draw`.
func TreeLine(ix *transcript.Index, r model.TreeRow, preview transcript.PreviewLine, width int) string {
	line, label := treeRowText(ix, r, preview, width)
	if label == "" {
		return cut(line, width)
	}
	return cut(line, width-ansi.StringWidth(label)) + label
}

// treeGuides draws the branch lines left of a row, at most limit cells.
func treeGuides(r model.TreeRow, limit int) string {
	if r.Depth == 0 {
		return ""
	}
	var b strings.Builder
	for lvl := 0; lvl < int(r.Depth); lvl++ {
		if b.Len() >= limit*3 { // box-drawing runes are 3 bytes
			b.WriteString("… ")
			break
		}
		last := lvl == int(r.Depth)-1
		switch {
		case last && r.Flags&model.RowBranchStart != 0 && r.Flags&model.RowLastSibling != 0:
			b.WriteString("└─")
		case last && r.Flags&model.RowBranchStart != 0:
			b.WriteString("├─")
		case lvl < 64 && r.Guides&(1<<lvl) != 0:
			b.WriteString("│ ")
		default:
			b.WriteString("  ")
		}
	}
	return b.String()
}

// entryTag is a five-column name for an entry's kind: a message's role
// ("msg" while it is not known).
func entryTag(typ model.EntryType, role model.Role) string {
	if typ == model.TypeMessage {
		switch role {
		case model.RoleUser:
			return "user"
		case model.RoleAssistant:
			return "asst"
		case model.RoleToolResult:
			return "tool"
		case model.RoleBashExecution:
			return "bash"
		case model.RoleCustom:
			return "hook"
		case model.RoleSystem:
			return "sys"
		}
		return "msg"
	}
	switch typ {
	case model.TypeBranchSummary:
		return "bsum"
	case model.TypeLabel:
		return "label"
	case model.TypeSessionInfo:
		return "name"
	case model.TypeModelChange:
		return "model"
	case model.TypeThinkingLevelChange:
		return "think"
	case model.TypeCustom:
		return "ext"
	case model.TypeCustomMessage:
		return "cmsg"
	case model.TypeReset:
		return "reset"
	case model.TypeLeaf:
		return "leaf"
	case model.TypeUsage:
		return "usage"
	case model.TypeContextEdit:
		return "edit"
	}
	return "?"
}

func (p *transcriptPane) detail(width, height int) string {
	return scrolled(p.c.Theme, p.detailLines(width), p.detailScroll, height, p.c.Keys.DetailDown)
}

// detailLines are the selected entry's rendering at a width, once made.
func (p *transcriptPane) detailLines(width int) []string {
	e, ok := p.selectedEntry()
	if !ok {
		return nil
	}
	text, ok := p.bodies[bodyKey{offset: p.ix.Entries[e].Offset, width: width, theme: p.c.Theme.Name}]
	if !ok {
		return []string{p.c.Theme.Muted.Render("rendering…")}
	}
	return strings.Split(text, "\n")
}

// rowPath names a row's transcript as its index does: the file, or
// <store>#<session id> for a session of a SQLite-era store (the
// generations of a key share the store's file).
func rowPath(row model.SessionRow) string {
	if row.Origin == model.OriginSQLite && row.SessionID != "" {
		return row.File + "#" + row.SessionID
	}
	return row.File
}

// inStore reports a transcript read from a SQLite-era store, whose entries
// are events at a seq rather than lines of a file.
func (p *transcriptPane) inStore() bool {
	return p.row.Origin == model.OriginSQLite
}

// positionWord names an entry's position in the open transcript.
func (p *transcriptPane) positionWord() string {
	if p.inStore() {
		return "seq"
	}
	return "line"
}
