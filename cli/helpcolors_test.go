package cli

import (
	"image/color"
	"reflect"
	"testing"

	"charm.land/lipgloss/v2"

	"clawvault-tui/themes"
)

// Every colour fang draws help and errors with is one of the TUI
// palette's, the light palette's on a light terminal and the dark one's
// on a dark terminal: none is left to fang's default (charmtone).
func TestHelpColorsComeFromThePalette(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		isDark  bool
		palette themes.Palette
	}{{true, themes.DarkPalette}, {false, themes.LightPalette}} {
		p := reflect.ValueOf(tc.palette)
		var ours []color.Color
		for i := range p.NumField() {
			if c, ok := p.Field(i).Interface().(color.Color); ok {
				ours = append(ours, c)
			}
		}
		scheme := reflect.ValueOf(helpColors(lipgloss.LightDark(tc.isDark)))
		for i := range scheme.NumField() {
			name := scheme.Type().Field(i).Name
			var got []color.Color
			switch v := scheme.Field(i).Interface().(type) {
			case color.Color:
				got = []color.Color{v}
			case [2]color.Color:
				got = v[:]
			}
			for _, c := range got {
				if !isOneOf(c, ours) {
					t.Errorf("%s palette: fang's %s is %v, not a colour of the palette", tc.palette.Name, name, c)
				}
			}
		}
	}
}

func isOneOf(c color.Color, palette []color.Color) bool {
	if c == nil {
		return false
	}
	r, g, b, a := c.RGBA()
	for _, p := range palette {
		pr, pg, pb, pa := p.RGBA()
		if r == pr && g == pg && b == pb && a == pa {
			return true
		}
	}
	return false
}
