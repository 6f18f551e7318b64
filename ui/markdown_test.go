package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/microcosm-cc/bluemonday"
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

// markdownWithHTML has HTML blocks and inline HTML of every kind glamour
// strips: its output must be what it was with bluemonday itself (the
// goldens were written with bluemonday v1.0.27 linked, before go.mod
// replaced it by third_party/bluemonday-strict).
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

// bluemonday v1.0.27's StrictPolicy().Sanitize of inputs that take each
// branch of its loop: the stand-in must give the same.
func TestStrictPolicySanitizesAsBluemonday(t *testing.T) {
	p := bluemonday.StrictPolicy()
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"  \n\t", "  \n\t"},
		{"plain text", "plain text"},
		{"a < b & c > d", "a &lt; b &amp; c &gt; d"},
		{"<b>bold</b> and <i>italic</i>", "bold and italic"},
		{"Tom &amp; Jerry &lt;3 &nbsp;&#x41;&copy", "Tom &amp; Jerry &lt;3 \u00a0A©"},
		{"<a href=\"https://example.com\" onclick=\"x()\">link</a>", "link"},
		{"<p>para<br/>line<img src=x onerror=alert(1)></p>", "paraline"},
		{"<!-- a comment --> after", " after"},
		{"<!DOCTYPE html><html><body>doc</body></html>", "doc"},
		{"<script>alert('x')</script>after", "after"},
		{"<style>b { color: red }</style>after", "after"},
		{"<SCRIPT>alert(1)</SCRIPT>after", "after"},
		{"<scrİpt>look-alike</scrİpt>after", "look-alikeafter"},
		{"<title>t</title>body", "body"},
		{"<iframe src=x>inside</iframe>outside", "outside"},
		{"<iframe><iframe>a</iframe>b</iframe>c", "bc"},
		{"</iframe>x<iframe>y</iframe>z", "x"},
		{"<noscript>n</noscript><object>o</object>kept", "kept"},
		{"<textarea><b>raw</b></textarea>", "&lt;b&gt;raw&lt;/b&gt;"},
		{"<div>unclosed <span>spans", "unclosed spans"},
		{"<details><summary>S</summary>hidden</details>", "Shidden"},
		{"\"quotes\" and 'apostrophes'", "&#34;quotes&#34; and &#39;apostrophes&#39;"},
		{"<![CDATA[cdata]]>text", "text"},
		{"<svg><script>x</script></svg>y", "y"},
	} {
		if got := p.Sanitize(tc.in); got != tc.want {
			t.Errorf("Sanitize(%q) = %q, bluemonday gives %q", tc.in, got, tc.want)
		}
	}
}
