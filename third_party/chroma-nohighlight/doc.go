// Package chroma stands in for github.com/alecthomas/chroma/v2 in
// clawvault-tui's build: it has the types and names glamour v2's code
// blocks compile against, and no syntax highlighting.
//
// Why: glamour imports chroma's quick package for every code block, and
// linking it makes chroma's lexers and styles packages parse 240 embedded
// XML lexer definitions and 64 XML styles at package initialisation. That
// was a third of the CPU every clawvault-tui command spent before main
// (23 ms and 4 MB of allocations), for a --version as for a status, and Go
// offers no way to defer a linked package's init. clawvault-tui's Markdown
// preview renders code blocks through glamour's plain path instead (a
// style whose code block names no chroma theme), so nothing here is
// called at run time; Highlight returns an error should it ever be.
//
// Only what glamour v2.0.1's ansi/codeblock.go uses is here. A glamour
// upgrade that uses more fails to compile, which is the signal to look.
package chroma

// TokenType is a kind of token, as chroma names them.
type TokenType int

// The token types glamour's code-block style maps colours to.
const (
	Background TokenType = iota
	Text
	Error
	Comment
	CommentPreproc
	Keyword
	KeywordReserved
	KeywordNamespace
	KeywordType
	Operator
	Punctuation
	Name
	NameBuiltin
	NameTag
	NameAttribute
	NameClass
	NameConstant
	NameDecorator
	NameException
	NameFunction
	NameOther
	Literal
	LiteralNumber
	LiteralDate
	LiteralString
	LiteralStringEscape
	GenericDeleted
	GenericEmph
	GenericInserted
	GenericStrong
	GenericSubheading
)

// StyleEntries maps token types to style descriptions ("#ff0000 bold").
type StyleEntries map[TokenType]string

// Style is a named set of style entries.
type Style struct {
	Name    string
	Entries StyleEntries
}

// MustNewStyle returns a style with the entries as given.
func MustNewStyle(name string, entries StyleEntries) *Style {
	return &Style{Name: name, Entries: entries}
}
