// Package ui is clawvault-tui's terminal interface, on Bubble Tea v2. There
// is one root model (App); panes are plain structs with SetSize, help
// bindings and View() string; a shared *Common carries the theme, the key
// map and the size. Nothing here touches disk: reads go through tea.Cmds
// that call store or observer, and every async result carries a job id.
package ui

import (
	"time"

	"charm.land/bubbles/v2/help"

	"clawvault-tui/themes"
)

// Common is shared by the root model and every pane.
type Common struct {
	Theme *themes.Theme
	Keys  *KeyMap
	Help  help.Model
	// ThemeName is the configured theme: auto, dark, light, ansi or none.
	ThemeName string
	// Now is the clock, injected so tests and golden views are stable.
	Now func() time.Time
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
