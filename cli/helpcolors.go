package cli

import (
	"image/color"

	"charm.land/fang/v2"
	"charm.land/lipgloss/v2"

	"clawvault-tui/themes"
)

// helpColors is fang's colour scheme for help, usage and errors, taken
// from the TUI's palettes so the command line and the screens look alike.
// fang's own default is built on charmtone, a deprecated module whose
// successor the module proxy does not serve; with this scheme none of its
// colours is drawn (fang still links it).
func helpColors(c lipgloss.LightDarkFunc) fang.ColorScheme {
	pick := func(of func(themes.Palette) color.Color) color.Color {
		return c(of(themes.LightPalette), of(themes.DarkPalette))
	}
	fg := pick(func(p themes.Palette) color.Color { return p.Fg })
	muted := pick(func(p themes.Palette) color.Color { return p.Muted })
	return fang.ColorScheme{
		Base:           fg,
		Title:          pick(func(p themes.Palette) color.Color { return p.Accent }),
		Description:    fg,
		Codeblock:      pick(func(p themes.Palette) color.Color { return p.SelectBg }),
		Program:        pick(func(p themes.Palette) color.Color { return p.Accent }),
		DimmedArgument: muted,
		Comment:        muted,
		Flag:           pick(func(p themes.Palette) color.Color { return p.OK }),
		FlagDefault:    muted,
		Command:        pick(func(p themes.Palette) color.Color { return p.Info }),
		QuotedString:   pick(func(p themes.Palette) color.Color { return p.Warn }),
		Argument:       fg,
		Help:           fg,
		Dash:           muted,
		ErrorHeader:    [2]color.Color{pick(func(p themes.Palette) color.Color { return p.SelectBg }), pick(func(p themes.Palette) color.Color { return p.Bad })},
		ErrorDetails:   pick(func(p themes.Palette) color.Color { return p.Bad }),
	}
}
