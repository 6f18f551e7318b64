package ui

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/editor"
)

// editorDoneMsg reports the end of an external editor session on a file.
type editorDoneMsg struct {
	path string
	err  error
}

// chooseEditor names the editor command: the one of the config file, else
// $VISUAL, else $EDITOR, else nano.
func chooseEditor(configured string, getenv func(string) string) string {
	choice := configured
	for _, env := range []string{"VISUAL", "EDITOR"} {
		if choice == "" {
			choice = getenv(env)
		}
	}
	if choice == "" {
		choice = "nano"
	}
	return choice
}

// editorCommand builds the command that opens path at line with an editor
// command line (chooseEditor). lineArgs is the config's [ui] editor_line:
// the arguments that put the editor at a line, in which {file} and {line}
// stand for the file and the line number (the file goes last when
// {file} is not there). Empty, the form x/editor knows for the editor is
// used (--goto file:N for code, file:N for hx, +N for vi, nano, emacs and
// the like), and +N for any other: every editor gets the line, not only
// the ones a library recognises. exec.Command looks the editor up on
// $PATH, so this runs in a command, not in Update.
func editorCommand(choice, lineArgs, path string, line int) *exec.Cmd {
	fields := strings.Fields(choice)
	if len(fields) == 0 {
		fields = []string{"nano"}
	}
	line = max(1, line)
	var args []string
	pathInArgs := false
	if lineArgs == "" {
		args, pathInArgs = editor.LineNumber(line)(filepath.Base(fields[0]), path)
		if args == nil && !pathInArgs {
			lineArgs = "+{line}"
		}
	}
	if lineArgs != "" {
		args = nil
		for _, f := range strings.Fields(lineArgs) {
			if strings.Contains(f, "{file}") {
				pathInArgs = true
			}
			args = append(args, strings.NewReplacer("{file}", path, "{line}", strconv.Itoa(line)).Replace(f))
		}
	}
	all := append(fields[1:], args...)
	if !pathInArgs {
		all = append(all, path)
	}
	return exec.Command(fields[0], all...)
}

// openExternal suspends the TUI and runs the external editor on a memory
// file at a line, then resumes. The file must be one the built-in editor
// may change too, and its current version goes to the backup folder first:
// what another editor does to it is then recoverable as well.
func openExternal(c *Common, path string, line int) tea.Cmd {
	if c.Caps.ExternalEditor != "" {
		return func() tea.Msg { return openEditorMsg{path: path, line: line} }
	}
	space, choice, lineArgs := c.Space, c.Editor, c.EditorLine
	return func() tea.Msg {
		if _, err := space.Editable(path); err != nil {
			return editorDoneMsg{path: path, err: err}
		}
		if _, err := space.Backup(path); err != nil {
			return editorDoneMsg{path: path, err: err}
		}
		return tea.ExecProcess(editorCommand(choice, lineArgs, path, line), func(err error) tea.Msg { return editorDoneMsg{path: path, err: err} })()
	}
}

// statusMsg shows a line in the footer for a few seconds.
type statusMsg struct{ text string }

// copyText puts text on the clipboard with OSC 52 (works over SSH) and says so.
func copyText(text string) tea.Cmd {
	return tea.Batch(tea.SetClipboard(text), func() tea.Msg { return statusMsg{"copied " + text} })
}
