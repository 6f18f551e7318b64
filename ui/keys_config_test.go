package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"clawvault-tui/store"
)

// Every default key is one a key press can match.
func TestDefaultKeysAreKeys(t *testing.T) {
	t.Parallel()
	for _, b := range DefaultKeyMap().Bindings() {
		for _, k := range DefaultKeyMap().actions()[b[0]].Keys() {
			if why := keyProblem(k); why != "" {
				t.Errorf("%s: %q %s", b[0], k, why)
			}
		}
	}
}

// keyProblem accepts the names Bubble Tea gives key presses and refuses
// what no key press is called.
func TestKeyProblem(t *testing.T) {
	t.Parallel()
	for _, k := range []string{"q", "?", "U", "é", "+", "ctrl++", "ctrl+s", "shift+down", "ctrl+alt+shift+x",
		"alt+enter", "f5", "f12", "pgdown", "space", "esc", "enter", "tab", "backspace", "delete", "home", "ctrl+home"} {
		if why := keyProblem(k); why != "" {
			t.Errorf("%q: %s", k, why)
		}
	}
	for k, want := range map[string]string{
		"":              "is empty",
		"ctrl+banana":   "is not a key name",
		"enterr":        "is not a key name",
		"pagedown":      "is not a key name",
		"alt+ctrl+x":    "out of order",
		"super+shift+x": "out of order",
		"cmd+x":         `"cmd" where a modifier goes`,
		"ctrl+A":        "capital letter",
		" ":             "not a printable character",
		"\x1b[2J":       "is not a key name",
		"\t":            "not a printable character",
	} {
		if why := keyProblem(k); !strings.Contains(why, want) {
			t.Errorf("%q: %q, want it to say %q", k, why, want)
		}
	}
}

// A [keys] binding no key press can match is named with the file and its
// line, in the TUI's status line from the start; its action keeps its
// default keys while the good bindings beside it apply. Before, it was
// accepted silently and the action had no working key.
func TestBadKeyBindingNamesTheLine(t *testing.T) {
	t.Parallel()
	cfg := loadConfigText(t, "[ui]\ntheme = \"dark\"\n\n[keys]\nquit = [\"ctrl+banana\"]\ndown = [\"z\"]\n")
	path := cfg.Path
	a := newApp(t, 160, 30, Options{Config: cfg})
	want := path + `, line 5: [keys] quit: "ctrl+banana" is not a key name`
	if len(a.configProblems) != 1 || !strings.HasPrefix(a.configProblems[0], want) || !strings.HasSuffix(a.configProblems[0], "quit keeps q, ctrl+c") {
		t.Fatalf("problems: %q, want one starting %q", a.configProblems, want)
	}
	if !strings.Contains(viewText(a), "line 5: [keys] quit") {
		t.Errorf("the status line does not say it:\n%s", viewText(a))
	}
	if got := a.c.Keys.Quit.Keys(); strings.Join(got, ",") != "q,ctrl+c" {
		t.Errorf("quit is bound to %q, want its defaults", got)
	}
	if got := a.c.Keys.Down.Keys(); strings.Join(got, ",") != "z" {
		t.Errorf("down is bound to %q, want the file's z", got)
	}
}

// keyLines finds an action under [keys], as a dotted key, and quoted.
func TestConfigKeyLines(t *testing.T) {
	t.Parallel()
	cfg := loadConfigText(t, "keys.quit = [\"Q\"]\n[ui]\ntheme = \"auto\"\n[keys] # remaps\n\"sort\" = [\"z\"]\n  down = [\"x\"]\n")
	for action, line := range map[string]int{"quit": 1, "sort": 5, "down": 6} {
		if cfg.KeyLines[action] != line {
			t.Errorf("%s: line %d, want %d (%v)", action, cfg.KeyLines[action], line, cfg.KeyLines)
		}
	}
}

// loadConfigText loads a config file holding text.
func loadConfigText(t *testing.T, text string) store.Config {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := store.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
