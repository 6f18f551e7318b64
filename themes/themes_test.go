package themes

import (
	"image/color"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// styles is every lipgloss.Style of a theme, by field name.
func styles(t *Theme) map[string]lipgloss.Style {
	out := map[string]lipgloss.Style{}
	v := reflect.ValueOf(t).Elem()
	for i := range v.NumField() {
		if s, ok := v.Field(i).Interface().(lipgloss.Style); ok {
			out[v.Type().Field(i).Name] = s
		}
	}
	return out
}

// sgr is every Select Graphic Rendition sequence in s.
var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// colourCodes are the SGR parameters in s that set a colour: 30-49 and
// 90-107, with 38/48's extended forms.
func colourCodes(s string) []string {
	var out []string
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		params := strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' })
		for i := 0; i < len(params); i++ {
			switch p := params[i]; {
			case p == "38" || p == "48" || p == "58":
				out = append(out, strings.Join(params[i:], ";"))
				i = len(params)
			case len(p) == 2 && (p[0] == '3' || p[0] == '4') || len(p) >= 2 && (p[0] == '9' || p[:2] == "10"):
				out = append(out, p)
			}
		}
	}
	return out
}

var palettes = []struct {
	palette Palette
	isDark  bool
}{{DarkPalette, true}, {LightPalette, false}, {ANSIPalette, true}, {ANSIPalette, false}}

// Every palette builds every style, and every style of a colour palette
// draws something (a colour, bold, reverse): a field left at its zero
// value would render as plain text. The ANSI palette leaves the text's
// own colour to the terminal (Fg is NoColor), so its text styles may be
// plain.
func TestEveryPaletteBuildsEveryStyle(t *testing.T) {
	t.Parallel()
	plainInANSI := map[string]bool{"App": true, "Row": true, "Value": true}
	for _, p := range palettes {
		th := New(p.palette, p.isDark)
		if th.Name != p.palette.Name || th.IsDark != p.isDark || th.Plain {
			t.Errorf("%s: name %q, dark %v, plain %v", p.palette.Name, th.Name, th.IsDark, th.Plain)
		}
		all := styles(th)
		if len(all) < 25 {
			t.Fatalf("%s: found %d styles in Theme: has the struct changed?", p.palette.Name, len(all))
		}
		for name, s := range all {
			if out := s.Render("x"); out == "x" && !(p.palette.Name == "ansi" && plainInANSI[name]) {
				t.Errorf("%s palette: %s draws nothing (%q)", p.palette.Name, name, out)
			}
		}
	}
}

// NO_COLOR's theme draws no colour at all: only bold, underline and
// reverse, where meaning needs them.
func TestPlainHasNoColour(t *testing.T) {
	t.Parallel()
	th := Plain()
	if !th.Plain || th.Name != "none" {
		t.Errorf("Plain(): name %q, plain %v", th.Name, th.Plain)
	}
	for name, s := range styles(th) {
		if codes := colourCodes(s.Render("x")); len(codes) > 0 {
			t.Errorf("%s sets colours %v", name, codes)
		}
		if _, none := s.GetForeground().(lipgloss.NoColor); !none {
			t.Errorf("%s has a foreground %v", name, s.GetForeground())
		}
		if _, none := s.GetBackground().(lipgloss.NoColor); !none {
			t.Errorf("%s has a background %v", name, s.GetBackground())
		}
	}
	if !th.Selected.GetReverse() || !th.Cursor.GetReverse() {
		t.Error("the selected row and the cursor are not reversed: without colour nothing would show them")
	}
}

// The ANSI theme uses only the terminal's 16 colours (the user's scheme
// decides how they look), never a 256-colour or true colour.
func TestANSIUsesOnlyTheSixteenColours(t *testing.T) {
	t.Parallel()
	basic := func(c color.Color) bool {
		switch c := c.(type) {
		case lipgloss.NoColor:
			return true
		case ansi.BasicColor:
			return c < 16
		}
		return false
	}
	for _, isDark := range []bool{true, false} {
		for name, s := range styles(New(ANSIPalette, isDark)) {
			for _, c := range []color.Color{s.GetForeground(), s.GetBackground()} {
				if !basic(c) {
					t.Errorf("%s: %T %v is not one of the 16 colours", name, c, c)
				}
			}
			for _, code := range colourCodes(s.Render("x")) {
				if strings.HasPrefix(code, "38") || strings.HasPrefix(code, "48") || strings.HasPrefix(code, "58") {
					t.Errorf("%s renders %q, an extended colour", name, code)
				}
			}
		}
	}
}

// The selected row is readable: its text and its background are at least
// 4.5:1 apart in contrast (WCAG's level for text) in the colour palettes;
// the ANSI theme reverses the row instead, which is the terminal's own
// pair of colours.
func TestSelectedRowContrast(t *testing.T) {
	t.Parallel()
	for _, p := range []Palette{DarkPalette, LightPalette} {
		s := New(p, p.Name == "dark").Selected
		if ratio := contrast(s.GetForeground(), s.GetBackground()); ratio < 4.5 {
			t.Errorf("%s: the selected row's text %v on %v has a contrast of %.2f:1, under 4.5:1", p.Name, s.GetForeground(), s.GetBackground(), ratio)
		}
		// The selection stands out from an ordinary row's text as well.
		if ratio := contrast(p.Fg, p.SelectBg); ratio < 4.5 {
			t.Errorf("%s: text %v on the selection %v has a contrast of %.2f:1", p.Name, p.Fg, p.SelectBg, ratio)
		}
	}
	if s := New(ANSIPalette, true).Selected; !s.GetReverse() {
		t.Error("ansi: the selected row is not reversed")
	}
}

// contrast is WCAG 2's contrast ratio of two colours, 1 to 21.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

// luminance is WCAG 2's relative luminance of a colour.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xFFFF
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// The contrast ratio is WCAG's: black on white is 21:1, a colour on
// itself 1:1.
func TestContrastRatio(t *testing.T) {
	t.Parallel()
	if got := contrast(lipgloss.Color("#000000"), lipgloss.Color("#FFFFFF")); math.Abs(got-21) > 0.01 {
		t.Errorf("black on white: %.3f", got)
	}
	if got := contrast(lipgloss.Color("#777777"), lipgloss.Color("#777777")); got != 1 {
		t.Errorf("a colour on itself: %.3f", got)
	}
}

func TestByName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		isDark bool
		want   string
		dark   bool
	}{
		{"dark", false, "dark", true},
		{"light", true, "light", false},
		{"ansi", true, "ansi", true},
		{"ansi", false, "ansi", false},
		{"none", false, "none", true},
		{"auto", true, "dark", true},
		{"auto", false, "light", false},
		{"", false, "light", false},
	} {
		if th := ByName(tc.name, tc.isDark); th.Name != tc.want || th.IsDark != tc.dark {
			t.Errorf("ByName(%q, %v): %s, dark %v; want %s, dark %v", tc.name, tc.isDark, th.Name, th.IsDark, tc.want, tc.dark)
		}
	}
}
