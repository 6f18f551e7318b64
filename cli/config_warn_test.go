package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command warns on stderr about a [keys] binding no key press can
// match, naming the file and the line, and runs as usual. Before, the
// binding was accepted silently.
func TestCommandsWarnAboutBadKeyBindings(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	path := filepath.Join(home, "clawvault-tui", "config.toml")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("[keys]\nsave = [\"ctrl+s\"]\nhelp = [\"alt+ctrl+h\"]\n"), 0o644)
	state, vault := hostileState(t)
	_, stderr, code := runCLI(t, "status", "--state-dir", state, "-v", vault)
	want := "clawvault-tui: warning: " + path + `, line 3: [keys] help: "alt+ctrl+h" names its modifiers out of order`
	if code != 0 || !strings.Contains(stderr, want) || strings.Count(stderr, "warning") != 1 {
		t.Errorf("exit %d, stderr:\n%s\nwant one warning: %s", code, stderr, want)
	}
}
