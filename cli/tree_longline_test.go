package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree skips a line over [transcripts] max_line_mb, names it, and reads
// the rest; a last line over the cap is named as not read.
func TestTreeNamesALineOverTheCap(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	os.MkdirAll(filepath.Join(config, "clawvault-tui"), 0o755)
	os.WriteFile(filepath.Join(config, "clawvault-tui", "config.toml"), []byte("[transcripts]\nmax_line_mb = 1\n"), 0o644)
	long := `{"type":"message","id":"big","parentId":"a1","message":{"role":"user","content":"` + strings.Repeat("x", 3<<20) + `"}}`
	entry := func(id, parent string) string {
		return `{"type":"message","id":"` + id + `","parentId":"` + parent + `","timestamp":"2026-11-21T10:00:00.000Z","message":{"role":"user","content":"hi"}}`
	}
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	os.WriteFile(path, []byte(`{"type":"session","version":3,"id":"s1"}`+"\n"+entry("a1", "")+"\n"+long+"\n"+entry("a2", "a1")+"\n"+long), 0o644)

	stdout, stderr, code := runCLI(t, "tree", path, "--json")
	var doc struct {
		Entries        int     `json:"entries"`
		LeafID         string  `json:"leafId"`
		MalformedLines []int32 `json:"malformedLines"`
		LongLines      []int32 `json:"longLines"`
		TornTail       struct {
			Line    int32 `json:"line"`
			TooLong bool  `json:"tooLong"`
		} `json:"tornTail"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s", code, err, stderr)
	}
	if doc.Entries != 2 || doc.LeafID != "a2" || !slices.Equal(doc.LongLines, []int32{3}) || !slices.Equal(doc.MalformedLines, []int32{3}) || doc.TornTail.Line != 5 || !doc.TornTail.TooLong {
		t.Errorf("got %+v", doc)
	}
	stdout, _, _ = runCLI(t, "tree", path)
	for _, want := range []string{"Too long:      3: longer than the cap", "line 5 has no newline", "longer than the cap ([transcripts] max_line_mb), so it was not read"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the text lacks %q:\n%s", want, stdout)
		}
	}
}
