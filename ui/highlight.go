package ui

import (
	"fmt"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/alecthomas/chroma/v2/lexers"

	"clawvault-tui/themes"
)

// Code and JSON in the transcript's entry view are coloured by chroma, in
// a style made from the theme's own colours (keys, strings, numbers,
// keywords, comments), so they sit with the rest of the screen; the plain
// theme (NO_COLOR) colours nothing. Lexers and styles are built on first
// use and kept (chroma compiles a lexer's rules when it first tokenises).

var (
	lexerCache sync.Map // language → chroma.Lexer (coalesced)
	styleCache sync.Map // theme name → *chroma.Style
)

// colourCode colours text (already escaped: inertText) as code in a
// language. It reports false, with the text as it is, under the plain
// theme, for a language chroma does not know, or when tokenising fails.
func colourCode(t *themes.Theme, lang, text string) (string, bool) {
	if t.Plain || text == "" {
		return text, false
	}
	lexer := lexerFor(lang)
	if lexer == nil {
		return text, false
	}
	it, err := lexer.Tokenise(nil, text)
	if err != nil {
		return text, false
	}
	formatter := formatters.TTY16m // Bubble Tea brings colours down to what the terminal has
	if t.Name == "ansi" {
		formatter = formatters.TTY16 // the terminal's own 16 colours
	}
	var b strings.Builder
	if err := formatter.Format(&b, codeStyle(t), it); err != nil {
		return text, false
	}
	out := b.String()
	if n := strings.Count(out, "\n") - strings.Count(text, "\n"); n > 0 { // the newline a lexer adds
		i := strings.LastIndex(out, "\n")
		out = out[:i] + out[i+1:]
	}
	return out, true
}

func lexerFor(lang string) chroma.Lexer {
	if l, ok := lexerCache.Load(lang); ok {
		return l.(chroma.Lexer)
	}
	l := lexers.Get(lang)
	if l == nil {
		return nil
	}
	l = chroma.Coalesce(l)
	lexerCache.Store(lang, l)
	return l
}

// codeStyle is the chroma style of a theme: its colours for the kinds of
// token.
func codeStyle(t *themes.Theme) *chroma.Style {
	if s, ok := styleCache.Load(t.Name); ok {
		return s.(*chroma.Style)
	}
	entries := chroma.StyleEntries{}
	set := func(tt chroma.TokenType, st lipgloss.Style, attrs string) {
		c := st.GetForeground()
		if _, none := c.(lipgloss.NoColor); !none {
			r, g, b, _ := c.RGBA()
			entries[tt] = strings.TrimSpace(fmt.Sprintf("#%02x%02x%02x %s", r>>8, g>>8, b>>8, attrs))
		}
	}
	set(chroma.Text, t.Value, "")
	set(chroma.Keyword, t.Title, "bold")
	set(chroma.NameTag, t.BadgeNever, "")
	set(chroma.NameBuiltin, t.BadgeNever, "")
	set(chroma.NameFunction, t.Title, "")
	set(chroma.LiteralString, t.GaugeFill, "")
	set(chroma.LiteralNumber, t.GaugeOver, "")
	set(chroma.Comment, t.Muted, "italic")
	set(chroma.Operator, t.Muted, "")
	set(chroma.Punctuation, t.Muted, "")
	set(chroma.GenericError, t.Error, "")
	s, err := chroma.NewStyle("clawvault-tui-"+t.Name, entries)
	if err != nil {
		return nil
	}
	styleCache.Store(t.Name, s)
	return s
}
