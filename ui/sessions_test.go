package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A key cut to fit keeps what tells it from its neighbours: its tail.
func TestShortKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		key, agent string
		width      int
		strip      bool
		want       string
	}{
		{"agent:main:main", "", 20, false, "agent:main:main"},
		{"agent:main:main", "", 20, true, "main:main"},
		{"agent:main:main", "main", 20, true, "main"},
		{"agent:main:whatsapp:default:direct:+15551234567", "", 30, true, "main:whatsapp:…+15551234567"},
		{"agent:main:whatsapp:default:direct:+15550000033", "", 30, true, "main:whatsapp:…+15550000033"},
		{"agent:main:whatsapp:default:direct:+15551234567", "main", 30, true, "whatsapp:…direct:+15551234567"},
		{"agent:main:telegram:group:-1001234567890:topic:42", "", 25, true, "main:…1234567890:topic:42"},
		{"agent:main:telegram:group:-1001234567890", "", 25, true, "main:…-1001234567890"},
		{"agent:ops:main (initial)", "", 20, true, "ops:main (initial)"},
		{"agent:ops:main (reset)", "", 12, true, "ops:…(reset)"},
		{"(deleted-archive) 522864bf-6d81-4ff8-83f6-528f975963d2.jsonl.deleted.2026-11-12T13-59-56.269Z.zst", "", 48, true, "(deleted-archive) …2026-11-12T13-59-56.269Z.zst"},
		{"agent:main:x", "", 5, true, "main…"},
		{"agent:main:日本語のチャンネル名がとても長いセッション", "", 20, true, ""},
	} {
		got := shortKey(c.key, c.agent, c.width, c.strip)
		if ansi.StringWidth(got) > c.width {
			t.Errorf("%q at %d: %q is %d cells wide", c.key, c.width, got, ansi.StringWidth(got))
		}
		if c.want != "" && got != c.want {
			t.Errorf("%q at %d: %q, want %q", c.key, c.width, got, c.want)
		}
		t.Logf("%-3d %s", c.width, got)
	}
}

// At 50 columns a row still has its badge, a key that tells it apart, the
// percentage and the state; at 80 the keys lose "agent:" rather than
// their tails.
func TestGoldenSessionsNarrow(t *testing.T) {
	golden(t, "sessions-50x15", newApp(t, 50, 15, Options{}))
	a := newApp(t, 80, 24, Options{})
	press(t, a, "/")
	typeText(t, a, "group")
	press(t, a, "enter")
	v := viewText(a)
	for _, want := range []string{"main:telegram:…4567890:topic:42", "main:telegram:…-1001234567890", "work:telegram:…-1002000000414", "120% scan-only"} {
		if !strings.Contains(v, want) {
			t.Errorf("80 columns: no %q in\n%s", want, v)
		}
	}
}
