package ui

import (
	"context"
	"strings"
	"testing"

	"clawvault-tui/observer"
	"clawvault-tui/store"
)

func TestFuzzyScore(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		query, text string
		match       bool
	}{
		{"", "anything", true},
		{"swp", "sweep Jobs", true},
		{"SWEEP", "dry-run sweep Jobs", true},
		{"nc", "next compaction Transcript", true},
		{"xyz", "sweep Jobs", false},
		{"peews", "sweep Jobs", false}, // letters in order only
		{"sweepp", "sweep", false},
	} {
		if got := fuzzyScore(tt.query, tt.text); (got >= 0) != tt.match {
			t.Errorf("fuzzyScore(%q, %q) = %d, match %v", tt.query, tt.text, got, tt.match)
		}
	}
	// Better placements score more: the start of the text, the start of a
	// word, letters that follow one another.
	for _, tt := range []struct{ query, better, worse string }{
		{"sweep", "sweep Jobs", "dry-run sweep Jobs"},
		{"nc", "next compaction", "cancel job"},
		{"sea", "search Transcript", "sessions everywhere"},
		{"copy", "copy id or path:line", "command palette: open a copy"},
	} {
		if b, w := fuzzyScore(tt.query, tt.better), fuzzyScore(tt.query, tt.worse); b <= w {
			t.Errorf("%q: %q scores %d, %q %d", tt.query, tt.better, b, tt.worse, w)
		}
	}
}

// The palette can press every key of the default map, remapped keys too.
func TestKeyPressRoundTrips(t *testing.T) {
	t.Parallel()
	for name, b := range DefaultKeyMap().actions() {
		for _, k := range b.Keys() {
			if msg, ok := keyPress(k); !ok || msg.String() != k {
				t.Errorf("%s: keyPress(%q) = %q, %v", name, k, msg.String(), ok)
			}
		}
	}
	for _, k := range []string{"ctrl+alt+x", "f5", "alt+enter", "space"} {
		if msg, ok := keyPress(k); !ok || msg.String() != k {
			t.Errorf("keyPress(%q) = %q, %v", k, msg.String(), ok)
		}
	}
	if _, ok := keyPress("hyperspace"); ok {
		t.Error("an unknown key name was pressed")
	}
}

// The palette lists each action of the help of every screen once, with
// where it answers.
func TestPaletteListsEveryAction(t *testing.T) {
	t.Parallel()
	a := newApp(t, 100, 30, Options{})
	press(t, a, ":")
	if a.palette == nil {
		t.Fatal(": did not open the palette")
	}
	listed := map[string]bool{}
	for _, e := range a.palette.entries {
		if listed[e.binding.Help().Desc] {
			t.Errorf("%q is listed twice", e.binding.Help().Desc)
		}
		listed[e.binding.Help().Desc] = true
	}
	for s := screen(0); s < screens; s++ {
		for _, g := range append(a.paneOf(s).FullHelp(), a.c.Keys.globalKeys()) {
			for _, b := range g {
				if !listed[b.Help().Desc] && b.Help().Desc != a.c.Keys.Palette.Help().Desc {
					t.Errorf("%s: %q is not in the palette", screenNames[s], b.Help().Desc)
				}
			}
		}
	}
	if len(a.palette.shown) != len(a.palette.entries) {
		t.Errorf("an empty query shows %d of %d", len(a.palette.shown), len(a.palette.entries))
	}
}

// Typing filters; enter runs the action on its screen: from Sessions,
// "sweep" switches to Jobs and asks the sweep's confirmation, as S there
// does. Esc closes without running anything.
func TestPaletteRunsTheChosenAction(t *testing.T) {
	t.Parallel()
	runners := JobRunners{Sweep: func(context.Context, *store.Snapshot, []observer.Candidate, observer.ProgressFunc) (JobResult, error) {
		return nil, nil
	}}
	a := newApp(t, 100, 30, Options{Jobs: runners})
	press(t, a, ":")
	typeText(t, a, "swe")
	p := a.palette
	if len(p.shown) == 0 || p.entries[p.shown[0]].binding.Help().Desc != "sweep" {
		t.Fatalf("the first match for swe: %v", p.shown)
	}
	if v := viewText(a); !strings.Contains(v, "sweep") || !strings.Contains(v, "Jobs") {
		t.Errorf("the palette does not show the action and its screen:\n%s", v)
	}
	press(t, a, "enter")
	if a.palette != nil || a.screen != screenJobs || a.confirm == nil {
		t.Fatalf("palette %v, screen %d, confirm %v", a.palette != nil, a.screen, a.confirm != nil)
	}
	press(t, a, "n")

	// An action of the current screen runs there; the arrows choose.
	press(t, a, "1", ":")
	typeText(t, a, "sort")
	before := a.sessions.sort
	press(t, a, "enter")
	if a.screen != screenSessions || a.sessions.sort == before {
		t.Errorf("sort from the palette: screen %d, sort %v", a.screen, a.sessions.sort)
	}
	press(t, a, ":", "down", "down")
	if a.palette.cursor != 2 {
		t.Errorf("down twice: cursor %d", a.palette.cursor)
	}
	typeText(t, a, "q") // typed, not a quit
	if a.palette == nil || a.palette.input.Value() != "q" {
		t.Fatal("q did not reach the palette's query")
	}
	press(t, a, "esc")
	if a.palette != nil || a.screen != screenSessions {
		t.Errorf("esc: palette %v, screen %d", a.palette != nil, a.screen)
	}
	// While the Sessions filter is typed, : is a character of it.
	press(t, a, "/", ":")
	if a.palette != nil || a.sessions.filter.Value() != ":" {
		t.Errorf("palette %v, filter %q", a.palette != nil, a.sessions.filter.Value())
	}
}
