package cli

import (
	"bytes"
	"fmt"
	"io"

	"github.com/BurntSushi/toml"
	"github.com/spf13/cobra"

	"clawvault-tui/store"
	"clawvault-tui/ui"
)

func (a *app) configCommand() *cobra.Command {
	var path bool
	c := &cobra.Command{
		Use:   "config",
		Short: "Print the config file's defaults (or, with --path, where it lives)",
		Long: `Prints the config file with every setting at its default, commented, ready to
be saved where --path says and edited: the theme, the editor, key bindings,
the llm compressor, retention policies and search.`,
		Example: `# Start a config file from the defaults, where clawvault-tui looks for it:
mkdir -p ~/.config/clawvault-tui
clawvault-tui config > ~/.config/clawvault-tui/config.toml`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			return writeConfig(a.stdout, path)
		},
	}
	c.Flags().BoolVar(&path, "path", false, "print only where the config file is read from")
	return c
}

// writeConfig prints the config file with every default, commented, ready
// to be saved where `--path` says and edited.
func writeConfig(stdout io.Writer, path bool) error {
	where := store.ConfigPath(store.OSEnv())
	if path {
		_, err := fmt.Fprintln(stdout, where)
		return err
	}
	var b bytes.Buffer
	def := store.DefaultConfig()
	fmt.Fprintf(&b, "# clawvault-tui settings. Save as %s and edit;\n# every setting is optional and the values below are the defaults.\n\n", where)
	fmt.Fprintf(&b, "[ui]\n# auto follows the terminal's background; or dark, light, ansi (the terminal's own 16 colours), none.\n# NO_COLOR in the environment means none.\ntheme = %q\n", def.UI.Theme)
	fmt.Fprintf(&b, "# The editor that opens a file at a line; empty means $VISUAL, then $EDITOR, then nano.\neditor = %q\n", def.UI.Editor)
	fmt.Fprintf(&b, "# The arguments that open it at a line: {file} and {line} stand for the file and the line number\n"+
		"# (the file goes last when {file} is absent), e.g. \"+{line}\", \"--goto {file}:{line}\", \"{file}:{line}\".\n"+
		"# Empty: the form known for code, hx, vi, vim, nvim, nano, emacs, kak and gedit, else +{line}.\neditor_line = %q\n\n", def.UI.EditorLine)
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

// warnConfig prints, before a command runs, what in the config file's
// [keys] table cannot work: one sentence each, naming the file, the line
// and the binding (the action keeps its default). The TUI shows them in
// its status line instead; completions print nothing. A config file that
// does not load is the command's own error, when it reads it.
func (a *app) warnConfig(c *cobra.Command, _ []string) {
	if !c.HasParent() || c.Name() == cobra.ShellCompRequestCmd || c.Name() == cobra.ShellCompNoDescRequestCmd {
		return
	}
	cfg, err := store.LoadConfig(store.ConfigPath(store.OSEnv()))
	if err != nil {
		return
	}
	for _, w := range ui.KeyWarnings(cfg) {
		fmt.Fprintf(a.stderr, "clawvault-tui: warning: %s\n", w)
	}
}
