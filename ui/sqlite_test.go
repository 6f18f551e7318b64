package ui

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/model"
	"clawvault-tui/store"
	"clawvault-tui/store/transcript"
)

// TestSQLiteSessionInTheTUI: the demo's SQLite-era session lists with its
// gauge and generation, and opens on the Transcript screen like a file: its
// tree from the store's identities (OpenClaw's rules: the reset and the leaf
// control show), bodies by seq, search, and y copying where the event is.
func TestSQLiteSessionInTheTUI(t *testing.T) {
	t.Parallel()
	a := newApp(t, 120, 40, Options{})
	_, man := demoWorkspace(t)
	if !a.sessions.Select(man.SQLiteMain.SessionID) {
		t.Fatal("the SQLite session is not listed")
	}
	v := viewText(a)
	for _, want := range []string{"agent:ops:main", "current generation (rollover)", "ClawVault 3.5.2 cannot observe this session", "Memory"} {
		if !strings.Contains(v, want) {
			t.Errorf("the Sessions screen lacks %q", want)
		}
	}
	press(t, a, "enter")
	p := a.transcript
	if a.screen != screenTranscript || p.ix == nil {
		t.Fatalf("the SQLite session did not open: %v", p.loadErr)
	}
	if p.ix.Tree.Leaf < 0 || p.ix.Tree.LeafControls != 1 || len(p.ix.Tree.Resets) != 1 {
		t.Fatalf("tree: leaf %d, %d leaf controls, %d resets", p.ix.Tree.Leaf, p.ix.Tree.LeafControls, len(p.ix.Tree.Resets))
	}
	if e, _ := p.selectedEntry(); e != p.ix.Tree.Leaf {
		t.Errorf("selected %d, the leaf is %d", e, p.ix.Tree.Leaf)
	}
	// The reset's row and detail.
	reset := p.ix.Tree.Resets[0]
	p.cursor = int(p.view().RowOf[reset])
	drive(t, a, p.afterMove())
	v = viewText(a)
	for _, want := range []string{"reset", "seq " + itoa(int(p.ix.Entries[reset].Line)), "The model's context restarts here"} {
		if !strings.Contains(v, want) {
			t.Errorf("the reset's view lacks %q:\n%s", want, v)
		}
	}
	_, cmd := a.Update(keyMsg("y"))
	var status string
	for _, c := range cmd().(tea.BatchMsg) {
		if m, ok := c().(statusMsg); ok {
			status = m.text
		}
	}
	if !strings.HasSuffix(status, "#"+man.SQLiteMain.SessionID+" seq "+itoa(int(p.ix.Entries[reset].Line))) {
		t.Errorf("y: %q", status)
	}
	// Search reads the events.
	press(t, a, "/")
	for _, r := range "riskier one" {
		press(t, a, string(r))
	}
	press(t, a, "enter")
	if len(p.matches) == 0 {
		t.Errorf("search found nothing in the SQLite session (%q)", p.query)
	}
}

// previewCounter counts the entries a reader is asked to preview.
type previewCounter struct {
	transcript.Reader
	previewed map[int64]int
}

func (r *previewCounter) Previews(ctx context.Context, entries []model.Entry, width int) ([]transcript.PreviewLine, error) {
	for _, e := range entries {
		r.previewed[e.Offset]++
	}
	return r.Reader.Previews(ctx, entries, width)
}

// openSQLiteMain opens the demo's SQLite session on a short screen,
// counting what is previewed.
func openSQLiteMain(t *testing.T, height int) (*App, *previewCounter) {
	t.Helper()
	a := newApp(t, 100, height, Options{})
	_, man := demoWorkspace(t)
	counter := &previewCounter{previewed: map[int64]int{}}
	open := a.transcript.open
	a.transcript.open = func(row model.SessionRow) transcript.Reader {
		counter.Reader = open(row)
		return counter
	}
	if !a.sessions.Select(man.SQLiteMain.SessionID) {
		t.Fatal("the SQLite session is not listed")
	}
	press(t, a, "enter")
	if a.transcript.ix == nil {
		t.Fatalf("the SQLite session did not open: %v", a.transcript.loadErr)
	}
	return a, counter
}

// TestSQLiteRowsShowRoles: a SQLite-era index holds no message roles (the
// identities have none); the previews of the rows on screen bring them,
// so the rows say user and asst, and nothing off screen is read.
func TestSQLiteRowsShowRoles(t *testing.T) {
	t.Parallel()
	a, counter := openSQLiteMain(t, 16)
	p := a.transcript
	unknown := 0
	for _, e := range p.ix.Entries {
		if e.Type == model.TypeMessage && e.Role == model.RoleNone {
			unknown++
		}
	}
	if unknown == 0 {
		t.Fatal("the index knows every role: this test tests nothing")
	}
	v := p.view()
	onScreen := map[int64]bool{}
	for r := p.offset; r < p.offset+p.treeHeight() && r < len(v.Rows); r++ {
		onScreen[p.ix.Entries[v.Rows[r].Entry].Offset] = true
	}
	if len(onScreen) >= len(v.Rows) {
		t.Fatalf("every row is on screen (%d): make the screen shorter", len(v.Rows))
	}
	for off := range counter.previewed {
		if !onScreen[off] {
			t.Errorf("seq %d was previewed off screen", off)
		}
	}
	view := viewText(a)
	if !strings.Contains(view, " user ") || !strings.Contains(view, " asst ") {
		t.Errorf("the rows on screen lack their roles:\n%s", view)
	}
	if strings.Contains(view, " msg ") {
		t.Errorf("a message on screen shows no role:\n%s", view)
	}
}

// TestSQLiteNextUserMessage: u and U walk the user messages of a SQLite
// session in order, round the end, reading the roles of the messages
// they pass (and no more).
func TestSQLiteNextUserMessage(t *testing.T) {
	t.Parallel()
	a, counter := openSQLiteMain(t, 16)
	p := a.transcript
	v := p.view()
	// The user messages' rows, from the bodies.
	var users []int
	for r, row := range v.Rows {
		e := p.ix.Entries[row.Entry]
		if e.Type != model.TypeMessage {
			continue
		}
		b, err := counter.Reader.Body(context.Background(), e)
		if err != nil {
			t.Fatal(err)
		}
		if b.Role == "user" {
			users = append(users, r)
		}
	}
	if len(users) < 2 {
		t.Fatalf("%d user messages: this test needs two", len(users))
	}
	press(t, a, "g")
	if p.cursor != 0 {
		t.Fatalf("g: cursor %d", p.cursor)
	}
	clear(counter.previewed)
	var got []int
	for range users {
		press(t, a, "u")
		got = append(got, p.cursor)
	}
	want := users
	if users[0] == 0 { // the first row is a user message: u leaves it
		want = append(slices.Clone(users[1:]), users[0])
	}
	if !slices.Equal(got, want) {
		t.Errorf("u went to rows %v, the user messages are at %v", got, want)
	}
	press(t, a, "U")
	if p.cursor != want[len(want)-2] {
		t.Errorf("U went to row %d, want %d", p.cursor, want[len(want)-2])
	}
	// Each entry was read at most once: what a jump read stays known.
	for off, n := range counter.previewed {
		if n > 1 {
			t.Errorf("seq %d was previewed %d times", off, n)
		}
	}
	if view := viewText(a); strings.Contains(view, " msg ") {
		t.Errorf("a message on screen shows no role after u:\n%s", view)
	}
}

// TestSearchHitOpensSQLiteSession: a transcript hit in a SQLite-era
// session opens that session (its generations share one file: the hit
// names it by id) with the cursor on the event, and y copies where it is.
func TestSearchHitOpensSQLiteSession(t *testing.T) {
	t.Parallel()
	_, man := demoWorkspace(t)
	opt := Options{Config: store.DefaultConfig()}
	opt.Config.Search.CacheDir = filepath.Join(t.TempDir(), "cache")
	opt.Config.Search.Transcripts = true
	a := newApp(t, 100, 30, opt)
	press(t, a, "4")
	if !a.search.ready {
		t.Fatalf("the index is not ready: %v %v", a.search.openErr, a.search.syncErr)
	}
	typeText(t, a, "riskier one")
	h, ok := a.search.Selected()
	if !ok || h.SessionID != man.SQLiteMain.SessionID {
		t.Fatalf("the hit %+v is not in the SQLite session %s (%v)", h, man.SQLiteMain.SessionID, a.search.err)
	}
	if v := viewText(a); !strings.Contains(v, "[ops transcript] "+h.SessionID+" seq "+itoa(int(h.Seq))) {
		t.Errorf("the hit does not say its session and seq:\n%s", v)
	}
	press(t, a, "enter")
	p := a.transcript
	if a.screen != screenTranscript || p.ix == nil || p.row.SessionID != h.SessionID {
		t.Fatalf("enter showed screen %d, session %q (%q)", a.screen, p.row.SessionID, a.status)
	}
	e, ok := p.selectedEntry()
	if !ok || p.ix.Entries[e].Offset != h.Seq {
		t.Errorf("the cursor is on entry %d (seq %d), the hit is seq %d", e, p.ix.Entries[e].Offset, h.Seq)
	}
	if v := viewText(a); !strings.Contains(v, "riskier one") {
		t.Errorf("the hit's event is not shown:\n%s", v)
	}
}

// TestStoreWarningsShowWithTheAgentsSessions: what is wrong with an
// agent's session stores (a sessions.json that does not parse, rows with a
// field of the wrong type) is shown with each of its sessions.
func TestStoreWarningsShowWithTheAgentsSessions(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 40, Options{})
	snap := *a.snap
	snap.Agents = slices.Clone(snap.Agents)
	for i := range snap.Agents {
		if snap.Agents[i].AgentID == "main" {
			snap.Agents[i].RowProblems = map[string]string{"agent:main:cron:nightly": "compactionCount is not a number"}
		}
	}
	drive(t, a, func() tea.Msg { return scanDoneMsg{job: a.scanJob, snap: &snap} })
	if !a.sessions.Select(a.snap.Rows[0].SessionID) || a.snap.Rows[0].Agent != "main" {
		t.Fatalf("the first row is not agent main's: %+v", a.snap.Rows[0])
	}
	v := viewText(a)
	for _, want := range []string{"agent main: sessions.json: 1 row has a field of the wrong type", "compactionCount is not a number"} {
		if !strings.Contains(strings.Join(strings.Fields(v), " "), want) {
			t.Errorf("the Sessions screen lacks %q:\n%s", want, v)
		}
	}
}
