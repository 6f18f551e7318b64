package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Code blocks in the Markdown preview are highlighted by chroma in the
// dark and light styles (a keyword and a string in colours of their own),
// in full, and not at all in notty (the plain theme). Before, go.mod put a
// stand-in for chroma and code blocks took glamour's plain path.
func TestMarkdownCodeBlocksAreHighlighted(t *testing.T) {
	t.Parallel()
	const text = "# Notes\n\nBefore.\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\n    indented code\n\nAfter.\n"
	var cache markdownCache
	for _, style := range []string{"dark", "light", "notty"} {
		out, err := cache.Render(style, 60, text)
		if err != nil {
			t.Fatalf("%s: render: %v", style, err)
		}
		plain := ansi.Strip(out)
		for _, want := range []string{"Before.", "func main() {", `fmt.Println("hi")`, "indented code", "After."} {
			if !strings.Contains(plain, want) {
				t.Errorf("%s: rendered text lacks %q:\n%s", style, want, plain)
			}
		}
		// The keyword and the string are drawn in different colours.
		kw, str := sgrBefore(out, "func"), sgrBefore(out, `"hi"`)
		switch {
		case style == "notty" && strings.Contains(out, "\x1b["):
			t.Errorf("notty has escapes:\n%q", out)
		case style != "notty" && (kw == "" || str == "" || kw == str):
			t.Errorf("%s: the code block is not highlighted (func after %q, the string after %q):\n%q", style, kw, str, out)
		}
	}
	if _, err := newRenderer("nope", 60); err == nil {
		t.Error("an unknown glamour style gave no error")
	}
}

// sgrBefore is the last SGR sequence before the first occurrence of word.
func sgrBefore(s, word string) string {
	i := strings.Index(s, word)
	if i < 0 {
		return ""
	}
	j := strings.LastIndex(s[:i], "\x1b[")
	if j < 0 {
		return ""
	}
	return s[j:i]
}

// markdownWithHTML has HTML blocks and inline HTML of every kind glamour
// strips (with bluemonday's strict policy): the goldens keep what it
// gives.
const markdownWithHTML = `# HTML in notes

<div class="note">
A <b>bold</b> claim &amp; a <a href="https://example.com" onclick="x()">link</a>.
</div>

Inline <kbd>Ctrl</kbd>+<kbd>C</kbd>, a <br/> break, x &lt; y, <img src=x onerror=alert(1)> gone.

<script>alert("never shown")</script>

<style>b { color: red }</style>

<!-- a comment -->

<details><summary>Summary</summary>Hidden body</details>

<iframe src="https://example.com">frame text</iframe>

<title>T</title>after title

After.
`

func TestMarkdownHTMLRendersAsWithBluemonday(t *testing.T) {
	t.Parallel()
	var cache markdownCache
	for _, style := range []string{"dark", "notty"} {
		t.Run(style, func(t *testing.T) {
			got, err := cache.Render(style, 60, markdownWithHTML)
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			path := filepath.Join("testdata", "markdown-html-"+style+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("the %s render differs from %s:\n%s", style, path, diffLines(string(want), got))
			}
		})
	}
}
