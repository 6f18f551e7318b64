// Package styles is the style registry glamour registers its code-block
// style in; it starts empty (chroma's own parses 64 XML styles at init).
package styles

import "github.com/alecthomas/chroma/v2"

// Registry holds the registered styles by name.
var Registry = map[string]*chroma.Style{}

// Register adds a style to the registry and returns it.
func Register(style *chroma.Style) *chroma.Style {
	Registry[style.Name] = style
	return style
}
