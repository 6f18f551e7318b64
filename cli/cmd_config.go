package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"

	"github.com/BurntSushi/toml"

	"clawvault-tui/store"
	"clawvault-tui/ui"
)

// cmdConfig prints the config file with every default, commented, ready to
// be saved where `--path` says and edited.
func cmdConfig(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	path := fs.Bool("path", false, "print only where the config file is read from")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	where := store.ConfigPath(store.OSEnv())
	if *path {
		_, err := fmt.Fprintln(stdout, where)
		return err
	}
	var b bytes.Buffer
	def := store.DefaultConfig()
	fmt.Fprintf(&b, "# clawvault-tui settings. Save as %s and edit;\n# every setting is optional and the values below are the defaults.\n\n", where)
	fmt.Fprintf(&b, "[ui]\n# auto follows the terminal's background; or dark, light, ansi (the terminal's own 16 colours), none.\n# NO_COLOR in the environment means none.\ntheme = %q\n", def.UI.Theme)
	fmt.Fprintf(&b, "# The editor that opens a file at a line; empty means $VISUAL, then $EDITOR, then nano.\neditor = %q\n\n", def.UI.Editor)
	fmt.Fprintf(&b, "[keys]\n# action = [\"key\", ...] remaps an action; actions not named keep their keys.\n")
	for _, a := range ui.DefaultKeyMap().Bindings() {
		fmt.Fprintf(&b, "# %s = %s\n", a[0], a[1])
	}
	for _, section := range []any{
		struct {
			LLM store.LLMConfig `toml:"llm"`
		}{def.LLM},
		struct {
			Retention store.RetentionConfig `toml:"retention"`
		}{def.Retention},
		struct {
			Search store.SearchConfig `toml:"search"`
		}{def.Search},
	} {
		b.WriteByte('\n')
		if err := toml.NewEncoder(&b).Encode(section); err != nil {
			return err
		}
	}
	_, err := stdout.Write(b.Bytes())
	return err
}
