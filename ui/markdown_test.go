package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The build leaves chroma's lexers out, so a code block must take
// glamour's plain path in every standard style we use: rendered, in full,
// and without the error the stand-in Highlight returns.
func TestMarkdownCodeBlocksRenderWithoutHighlighting(t *testing.T) {
	const text = "# Notes\n\nBefore.\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\n    indented code\n\nAfter.\n"
	var cache markdownCache
	for _, style := range []string{"dark", "light", "notty"} {
		t.Run(style, func(t *testing.T) {
			out, err := cache.Render(style, 60, text)
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			plain := ansi.Strip(out)
			for _, want := range []string{"Before.", "func main() {", `fmt.Println("hi")`, "indented code", "After."} {
				if !strings.Contains(plain, want) {
					t.Errorf("rendered text lacks %q:\n%s", want, plain)
				}
			}
		})
	}
	if _, err := plainCodeStyle("nope"); err == nil {
		t.Error("an unknown glamour style gave no error")
	}
}
