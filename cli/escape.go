package cli

import (
	"io"

	"clawvault-tui/model"
)

// Human output names sessions, files and observations from disk; printed
// raw, a session key could set the terminal's title, clear it, split a
// row or reverse the rest of a line. Every command's human output goes
// through inertWriter (control and bidirectional characters escaped,
// newlines and tabs kept: model.EscapeControlsText), and the fields of
// one-line rows through esc (newlines escaped too). --json is written as
// it is.

// esc is a field of a one-line row, escaped.
func esc(s string) string { return model.EscapeControls(s) }

// inertWriter escapes what passes through it as model.EscapeControlsText
// does. The writers above it (fmt, tabwriter) write whole runes.
type inertWriter struct{ w io.Writer }

func (iw inertWriter) Write(p []byte) (int, error) {
	s := model.EscapeControlsText(string(p))
	if _, err := io.WriteString(iw.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// human is where a command's human output goes: escaped, unless it is
// --json (written as it is).
func (a *app) human() io.Writer {
	if a.common.json {
		return a.stdout
	}
	return inertWriter{a.stdout}
}
