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
	"charm.land/glamour/v2/styles"

	"clawvault-tui/store"
	"clawvault-tui/store/vaultfs"
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
	// Editor is the command line of the external editor (chooseEditor);
	// EditorLine the config's [ui] editor_line, the arguments that put it
	// at a line, empty for the editor's known form (editorCommand).
	Editor, EditorLine string
	// Space is the vault and the agents' workspace memory: the files the
	// Vault and Search screens show and the editor and promote change.
	Space *vaultfs.Space
	// DefaultAgent is the agent whose MEMORY.md a promote offers first
	// when the line is not from an agent's own workspace.
	DefaultAgent string
	// Now is the clock, injected so tests and golden views are stable.
	Now func() time.Time
	// Tick is tea.Tick; tests replace it so that commands can be run to
	// completion without waiting.
	Tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd

	// Caps are what this session may change (all of it on this host).
	Caps Capabilities

	markdown markdownCache
	index    *indexHolder
}

// Capabilities are what a session may change: all of it on this host;
// over SSH, what its key's role allows. Each denial is the sentence shown
// where the action would be; "" allows it.
type Capabilities struct {
	Save, Promote, Sweep string
	// ExternalEditor says why $EDITOR cannot run (over SSH no terminal is
	// wired to it): the built-in editor opens instead.
	ExternalEditor string
	// Writes gives what a write (save, promote) goes through, and the
	// func to call with its outcome (the audit over SSH); nil: the disk,
	// directly.
	Writes func(action string) (store.WriteFS, func(error))
}

// space is the memory space writing through what Caps.Writes gives for
// action, and the func to call when the write is over.
func (c *Common) space(action string) (*vaultfs.Space, func(error)) {
	if c.Caps.Writes == nil {
		return c.Space, func(error) {}
	}
	w, done := c.Caps.Writes(action)
	return c.Space.WithWriter(w), done
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
// at once, and renders happen in commands, off the event loop. Each
// renderer has its own lock, so a long render holds up only renders at its
// width; a large text gets a renderer of its own, so that rendering a
// 1 MB file (most of a second) holds up nothing else.
type markdownCache struct {
	mu        sync.Mutex
	renderers map[string]*lockedRenderer
}

type lockedRenderer struct {
	mu sync.Mutex
	r  *glamour.TermRenderer
}

// largeMarkdown is the size from which a text is rendered alone.
const largeMarkdown = 64 << 10

// Render renders Markdown at a width; it is safe to call from commands.
func (m *markdownCache) Render(style string, width int, text string) (string, error) {
	if len(text) >= largeMarkdown {
		r, err := newRenderer(style, width)
		if err != nil {
			return "", err
		}
		return r.Render(text)
	}
	k := fmt.Sprintf("%s/%d", style, width)
	m.mu.Lock()
	if m.renderers == nil {
		m.renderers = map[string]*lockedRenderer{}
	}
	lr, ok := m.renderers[k]
	if !ok {
		lr = &lockedRenderer{}
		m.renderers[k] = lr
	}
	m.mu.Unlock()
	lr.mu.Lock()
	defer lr.mu.Unlock()
	if lr.r == nil {
		r, err := newRenderer(style, width)
		if err != nil {
			return "", err
		}
		lr.r = r
	}
	return lr.r.Render(text)
}

// newRenderer is glamour's standard style of that name (dark, light, or
// notty for the plain theme), with its code blocks highlighted by chroma
// in the style's own colours (notty's are not).
func newRenderer(style string, width int) (*glamour.TermRenderer, error) {
	config, ok := styles.DefaultStyles[style]
	if !ok {
		return nil, fmt.Errorf("glamour has no style %q", style)
	}
	return glamour.NewTermRenderer(glamour.WithStyles(*config), glamour.WithWordWrap(width))
}
