// Package themes holds clawvault-tui's lipgloss styles: one semantic Theme,
// built from a palette. Dark and Light use true colours (downsampled by
// Bubble Tea to what the terminal has); ANSI uses the 16 colours of the
// terminal's own palette; Plain has no colour at all (NO_COLOR).
package themes

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Palette is the handful of colours a theme is built from.
type Palette struct {
	Name     string
	Fg       color.Color
	Muted    color.Color
	Subtle   color.Color // borders, empty gauge cells
	Accent   color.Color // titles, the selected row
	SelectBg color.Color
	OK       color.Color // observed, below threshold and fine
	Warn     color.Color // candidate, stale
	Bad      color.Color // problems
	Info     color.Color // never observed
}

// Theme is every style the UI uses, by meaning.
type Theme struct {
	Name string
	// IsDark tells renderers (glamour) which variant to use.
	IsDark bool
	Plain  bool

	App       lipgloss.Style
	Title     lipgloss.Style
	Tab       lipgloss.Style
	TabActive lipgloss.Style
	Header    lipgloss.Style // column headings
	Row       lipgloss.Style
	Selected  lipgloss.Style
	Muted     lipgloss.Style
	Label     lipgloss.Style // field names in detail panes
	Value     lipgloss.Style
	Border    lipgloss.Style
	Footer    lipgloss.Style
	HelpKey   lipgloss.Style
	HelpDesc  lipgloss.Style

	GaugeFill  lipgloss.Style
	GaugeOver  lipgloss.Style
	GaugeEmpty lipgloss.Style

	BadgeCandidate lipgloss.Style
	BadgeStale     lipgloss.Style
	BadgeNever     lipgloss.Style
	BadgeProblem   lipgloss.Style
	BadgeOK        lipgloss.Style

	Error lipgloss.Style

	// Match marks the words a search found; Added and Removed the lines of
	// a diff; Cursor the built-in editor's cursor.
	Match, Added, Removed, Cursor lipgloss.Style
}

// DarkPalette suits dark terminals.
var DarkPalette = Palette{
	Name: "dark", Fg: lipgloss.Color("#DDDDE3"), Muted: lipgloss.Color("#8B8B9A"), Subtle: lipgloss.Color("#44444F"),
	Accent: lipgloss.Color("#8FB8FF"), SelectBg: lipgloss.Color("#2A3350"),
	OK: lipgloss.Color("#7CCB8A"), Warn: lipgloss.Color("#E8C170"), Bad: lipgloss.Color("#F07C7C"), Info: lipgloss.Color("#B89CF0"),
}

// LightPalette suits light terminals.
var LightPalette = Palette{
	Name: "light", Fg: lipgloss.Color("#1F1F26"), Muted: lipgloss.Color("#6A6A78"), Subtle: lipgloss.Color("#C8C8D0"),
	Accent: lipgloss.Color("#2456C8"), SelectBg: lipgloss.Color("#DCE6FA"),
	OK: lipgloss.Color("#1E7A35"), Warn: lipgloss.Color("#9A6500"), Bad: lipgloss.Color("#B42323"), Info: lipgloss.Color("#6B3FC0"),
}

// ANSIPalette uses the terminal's own 16 colours, so the user's colour
// scheme decides how it looks.
var ANSIPalette = Palette{
	Name: "ansi", Fg: lipgloss.NoColor{}, Muted: lipgloss.BrightBlack, Subtle: lipgloss.BrightBlack,
	Accent: lipgloss.Blue, SelectBg: lipgloss.NoColor{},
	OK: lipgloss.Green, Warn: lipgloss.Yellow, Bad: lipgloss.Red, Info: lipgloss.Magenta,
}

// New builds a theme from a palette.
func New(p Palette, isDark bool) *Theme {
	base := lipgloss.NewStyle().Foreground(p.Fg)
	t := &Theme{
		Name:      p.Name,
		IsDark:    isDark,
		App:       base,
		Title:     lipgloss.NewStyle().Foreground(p.Accent).Bold(true),
		Tab:       lipgloss.NewStyle().Foreground(p.Muted).Padding(0, 1),
		TabActive: lipgloss.NewStyle().Foreground(p.Accent).Bold(true).Underline(true).Padding(0, 1),
		Header:    lipgloss.NewStyle().Foreground(p.Muted).Bold(true),
		Row:       base,
		Selected:  lipgloss.NewStyle().Foreground(p.Accent).Background(p.SelectBg).Bold(true),
		Muted:     lipgloss.NewStyle().Foreground(p.Muted),
		Label:     lipgloss.NewStyle().Foreground(p.Muted),
		Value:     base,
		Border:    lipgloss.NewStyle().Foreground(p.Subtle),
		Footer:    lipgloss.NewStyle().Foreground(p.Muted),
		HelpKey:   lipgloss.NewStyle().Foreground(p.Accent),
		HelpDesc:  lipgloss.NewStyle().Foreground(p.Muted),

		GaugeFill:  lipgloss.NewStyle().Foreground(p.OK),
		GaugeOver:  lipgloss.NewStyle().Foreground(p.Warn),
		GaugeEmpty: lipgloss.NewStyle().Foreground(p.Subtle),

		BadgeCandidate: lipgloss.NewStyle().Foreground(p.Warn).Bold(true),
		BadgeStale:     lipgloss.NewStyle().Foreground(p.Warn),
		BadgeNever:     lipgloss.NewStyle().Foreground(p.Info),
		BadgeProblem:   lipgloss.NewStyle().Foreground(p.Bad).Bold(true),
		BadgeOK:        lipgloss.NewStyle().Foreground(p.OK),

		Error: lipgloss.NewStyle().Foreground(p.Bad).Bold(true),

		Match:   lipgloss.NewStyle().Foreground(p.Warn).Bold(true).Underline(true),
		Added:   lipgloss.NewStyle().Foreground(p.OK),
		Removed: lipgloss.NewStyle().Foreground(p.Bad),
		Cursor:  lipgloss.NewStyle().Reverse(true),
	}
	if p.Name == "ansi" {
		t.Selected = lipgloss.NewStyle().Reverse(true).Bold(true)
	}
	return t
}

// Plain is the theme for NO_COLOR: no colour, only bold and reverse where
// meaning needs them.
func Plain() *Theme {
	s := lipgloss.NewStyle()
	return &Theme{
		Name: "none", IsDark: true, Plain: true,
		App: s, Title: s.Bold(true), Tab: s.Padding(0, 1), TabActive: s.Bold(true).Underline(true).Padding(0, 1),
		Header: s.Bold(true), Row: s, Selected: s.Reverse(true), Muted: s, Label: s, Value: s, Border: s,
		Footer: s, HelpKey: s.Bold(true), HelpDesc: s,
		GaugeFill: s, GaugeOver: s.Bold(true), GaugeEmpty: s,
		BadgeCandidate: s.Bold(true), BadgeStale: s, BadgeNever: s, BadgeProblem: s.Bold(true), BadgeOK: s,
		Error: s.Bold(true),
		Match: s.Bold(true).Underline(true), Added: s, Removed: s, Cursor: s.Reverse(true),
	}
}

// ByName returns the theme for a config value: dark, light, ansi or none.
// "auto" (or anything else) follows isDark.
func ByName(name string, isDark bool) *Theme {
	switch name {
	case "dark":
		return New(DarkPalette, true)
	case "light":
		return New(LightPalette, false)
	case "ansi":
		return New(ANSIPalette, isDark)
	case "none":
		return Plain()
	}
	if isDark {
		return New(DarkPalette, true)
	}
	return New(LightPalette, false)
}
