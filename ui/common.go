// Package ui is clawvault-tui's terminal interface, on Bubble Tea v2. There
// is one root model (App); panes are plain structs with SetSize, help
// bindings and View() string; a shared *Common carries the theme, the key
// map and the configuration. Nothing here touches disk: reads go through
// tea.Cmds that call store or observer, and every async result carries the
// id of the job that produced it.
package ui

import (
	"fmt"
	"sync"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"

	"clawvault-tui/store"
	"clawvault-tui/themes"
)

// Common is shared by the root model and every pane.
type Common struct {
	Theme  *themes.Theme
	Keys   *KeyMap
	Help   help.Model
	Config store.Config
	// ThemeName is the configured theme: auto, dark, light, ansi or none.
	ThemeName string
	// Editor is the command line of the editor that opens a transcript at
	// an entry's line (chooseEditor).
	Editor string
	// Now is the clock, injected so tests and golden views are stable.
	Now func() time.Time
	// Tick is tea.Tick; tests replace it so that commands can be run to
	// completion without waiting.
	Tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd

	markdown markdownCache
}

// SetTheme rebuilds the styles for a background (auto themes follow it).
func (c *Common) SetTheme(isDark bool) {
	c.Theme = themes.ByName(c.ThemeName, isDark)
	c.Help.Styles = help.Styles{
		ShortKey: c.Theme.HelpKey, ShortDesc: c.Theme.HelpDesc, ShortSeparator: c.Theme.Muted,
		FullKey: c.Theme.HelpKey, FullDesc: c.Theme.HelpDesc, FullSeparator: c.Theme.Muted,
		Ellipsis: c.Theme.Muted,
	}
}

// glamourStyle is the glamour standard style that matches the theme.
func (c *Common) glamourStyle() string {
	switch {
	case c.Theme.Plain:
		return "notty"
	case c.Theme.IsDark:
		return "dark"
	}
	return "light"
}

// markdownCache keeps one glamour renderer per (style, width): building
// one costs little, but a TermRenderer may not be used by two goroutines
// at once, and renders happen in commands, off the event loop.
type markdownCache struct {
	mu        sync.Mutex
	renderers map[string]*glamour.TermRenderer
}

// Render renders Markdown at a width; it is safe to call from commands.
func (m *markdownCache) Render(style string, width int, text string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.renderers == nil {
		m.renderers = map[string]*glamour.TermRenderer{}
	}
	k := fmt.Sprintf("%s/%d", style, width)
	r, ok := m.renderers[k]
	if !ok {
		var err error
		r, err = glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width))
		if err != nil {
			return "", err
		}
		m.renderers[k] = r
	}
	return r.Render(text)
}
