package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestLoadConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	cfg, err := LoadConfig(path)
	if err != nil || cfg.UI.Theme != "auto" {
		t.Fatalf("a missing file is the defaults: %+v %v", cfg, err)
	}
	os.WriteFile(path, []byte("[ui]\ntheme = \"light\"\n[keys]\nquit = [\"x\"]\n"), 0o644)
	if cfg, err = LoadConfig(path); err != nil || cfg.UI.Theme != "light" || cfg.Keys["quit"][0] != "x" {
		t.Errorf("cfg = %+v, %v", cfg, err)
	}
	for data, want := range map[string]string{
		"[ui]\ntheme = \n":          "config.toml",
		"[ui]\ncolour = \"blue\"\n": `unknown setting "ui.colour"`,
		"[nonsense]\nfoo = 1\n":     `unknown setting "nonsense`,
		"[keys]\nquit = \"q\"\n":    "config.toml",
		// An unknown theme, named with its line and key.
		"# mine\n[ui]\ntheme = \"solarized\"\n": `line 3 (last key "ui.theme"): "solarized" is not a theme: use auto, dark, light, ansi, none`,
	} {
		os.WriteFile(path, []byte(data), 0o644)
		if _, err := LoadConfig(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", data, err, want)
		}
	}
}

func TestDefaultConfigRoundTrips(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(DefaultConfig()); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	path := filepath.Join(t.TempDir(), "c.toml")
	os.WriteFile(path, data, 0o644)
	if _, err := LoadConfig(path); err != nil {
		t.Errorf("the printed defaults do not load: %v\n%s", err, data)
	}
}

func TestTranscriptsConfig(t *testing.T) {
	t.Parallel()
	if got := DefaultConfig().Transcripts.MaxLineBytes(); got != 64<<20 {
		t.Errorf("default cap = %d", got)
	}
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte("[transcripts]\nmax_line_mb = 8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(path)
	if err != nil || cfg.Transcripts.MaxLineBytes() != 8<<20 {
		t.Errorf("cap = %d, %v", cfg.Transcripts.MaxLineBytes(), err)
	}
}
