package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestSQLiteSessionInTheTUI: the demo's SQLite-era session lists with its
// gauge and generation, and opens on the Transcript screen like a file: its
// tree from the store's identities (OpenClaw's rules: the reset and the leaf
// control show), bodies by seq, search, and y copying where the event is.
func TestSQLiteSessionInTheTUI(t *testing.T) {
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
