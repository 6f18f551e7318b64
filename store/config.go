package store

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"clawvault-tui/store/regfile"
)

// Config is clawvault-tui's own settings, from
// $XDG_CONFIG_HOME/clawvault-tui/config.toml (~/.config/… without it).
// Every field has a default; a missing file is the defaults.
// `clawvault-tui config` prints the defaults as a commented file.
type Config struct {
	UI        UIConfig        `toml:"ui"`
	Keys      KeyConfig       `toml:"keys"`
	LLM       LLMConfig       `toml:"llm"`
	Retention RetentionConfig `toml:"retention"`
	Search    SearchConfig    `toml:"search"`
	// Transcripts says how transcripts are read.
	Transcripts TranscriptsConfig `toml:"transcripts"`

	// Path is the file the settings were read from ("" for the defaults),
	// and KeyLines the line of each action [keys] remaps in it, so that a
	// binding that cannot work is named where it is written.
	Path     string         `toml:"-"`
	KeyLines map[string]int `toml:"-"`
}

// UIConfig holds the look of the TUI.
type UIConfig struct {
	// Theme is auto (follow the terminal's background), dark, light, ansi
	// (the terminal's 16 colours) or none. NO_COLOR forces none.
	Theme ThemeName `toml:"theme"`
	// Editor overrides $VISUAL and $EDITOR for opening a file at a line.
	Editor string `toml:"editor"`
	// EditorLine is the arguments that open the editor at a line, with
	// {file} and {line} standing for the file and the line number (the
	// file goes last when {file} is absent), e.g. "+{line}" or
	// "--goto {file}:{line}". Empty: the form known for the editor (code,
	// hx, vi, nano, emacs, …), else +{line}.
	EditorLine string `toml:"editor_line"`
}

// ThemeNames are the themes the config file and --theme accept.
var ThemeNames = []string{"auto", "dark", "light", "ansi", "none"}

// ThemeName is one of ThemeNames; the config file's loader refuses any
// other, naming the line.
type ThemeName string

// UnmarshalText accepts one of ThemeNames.
func (t *ThemeName) UnmarshalText(b []byte) error {
	if err := CheckTheme(string(b)); err != nil {
		return err
	}
	*t = ThemeName(b)
	return nil
}

// CheckTheme says why a theme name is not one of ThemeNames, or nil.
func CheckTheme(name string) error {
	if !slices.Contains(ThemeNames, name) {
		return fmt.Errorf("%q is not a theme: use %s", name, strings.Join(ThemeNames, ", "))
	}
	return nil
}

// KeyConfig remaps actions to keys: action name → keys, e.g.
// quit = ["q", "ctrl+c"]. Unnamed actions keep their default keys.
type KeyConfig map[string][]string

// DefaultConfig is the configuration without a file.
func DefaultConfig() Config {
	return Config{
		UI:          UIConfig{Theme: "auto"},
		Keys:        KeyConfig{},
		LLM:         DefaultLLMConfig(),
		Retention:   DefaultRetentionConfig(),
		Search:      DefaultSearchConfig(),
		Transcripts: DefaultTranscriptsConfig(),
	}
}

// ConfigPath is where the config file lives.
func ConfigPath(env Env) string {
	if dir := env.Getenv("XDG_CONFIG_HOME"); dir != "" {
		return filepath.Join(dir, "clawvault-tui", "config.toml")
	}
	return filepath.Join(env.Home, ".config", "clawvault-tui", "config.toml")
}

// DataDir is where clawvault-tui keeps what the user may want back (the
// editor's backups): $XDG_DATA_HOME/clawvault-tui, else
// ~/.local/share/clawvault-tui.
func DataDir(env Env) string {
	if dir := env.Getenv("XDG_DATA_HOME"); dir != "" {
		return filepath.Join(dir, "clawvault-tui")
	}
	return filepath.Join(env.Home, ".local", "share", "clawvault-tui")
}

// LoadConfig reads the config file over the defaults. A missing file is
// the defaults; one that does not parse, or names an unknown setting, is
// an error that says where.
func LoadConfig(path string) (Config, error) {
	cfg := DefaultConfig()
	data, err := regfile.ReadFileLimit(path, maxConfigFile)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, err
	}
	md, err := toml.Decode(string(data), &cfg)
	if err != nil {
		return DefaultConfig(), fmt.Errorf("%s: %w", path, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		return DefaultConfig(), fmt.Errorf("%s: unknown setting %q", path, undecoded[0].String())
	}
	cfg.Path, cfg.KeyLines = path, keyLines(string(data))
	return cfg, nil
}

// keyLines finds the line of each action in the file's [keys] table
// (`name = …` under [keys], or `keys.name = …` at the top level). The
// TOML decoder keeps key positions to itself; a file the decoder accepted
// is simple enough to find them by its lines.
func keyLines(data string) map[string]int {
	out := map[string]int{}
	table := ""
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(strings.TrimSpace(strings.SplitN(line, "#", 2)[0]), "[] \t")
			continue
		}
		name, _, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		name = strings.TrimSpace(name)
		if table == "" {
			var dotted bool
			if name, dotted = strings.CutPrefix(name, "keys."); !dotted {
				continue
			}
		} else if table != "keys" {
			continue
		}
		name = strings.Trim(name, `"'`)
		if _, seen := out[name]; !seen {
			out[name] = i + 1
		}
	}
	return out
}
