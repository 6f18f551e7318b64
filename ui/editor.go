package ui

import (
	"errors"
	"fmt"
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
// $VISUAL, else $EDITOR; "" when none is set (findEditor then looks for one
// on $PATH when the editor is opened).
func chooseEditor(configured string, getenv func(string) string) string {
	choice := strings.TrimSpace(configured)
	for _, env := range []string{"VISUAL", "EDITOR"} {
		if choice == "" {
			choice = strings.TrimSpace(getenv(env))
		}
	}
	return choice
}

// fallbackEditors are looked for on $PATH, in order, when no editor is
// set: Debian's editor (the system's choice), then common ones.
var fallbackEditors = []string{"editor", "nano", "vim", "vi", "nvim", "micro", "hx", "emacs"}

// findEditor checks that the chosen editor is on $PATH, or looks for one
// of fallbackEditors when none was chosen. It reads the disk, so it runs
// in a command.
func findEditor(choice string, lookPath func(string) (string, error)) (string, error) {
	if fields := strings.Fields(choice); len(fields) > 0 {
		if _, err := lookPath(fields[0]); errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("the editor %q is not on $PATH: set $EDITOR (or [ui] editor in the config) to one that is, or press e to edit here", fields[0])
		} else if err != nil {
			return "", fmt.Errorf("cannot run the editor %q (%v): set $EDITOR (or [ui] editor in the config) to another, or press e to edit here", fields[0], err)
		}
		return choice, nil
	}
	for _, name := range fallbackEditors {
		if _, err := lookPath(name); err == nil {
			return name, nil
		}
	}
	return "", fmt.Errorf("no editor to open: set $EDITOR (or [ui] editor in the config), or press e to edit here (none of %s is on $PATH)", strings.Join(fallbackEditors, ", "))
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
		choice, err := findEditor(choice, exec.LookPath)
		if err != nil {
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
