package ui

import (
	"os/exec"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/editor"
)

// editorDoneMsg reports the end of an external editor session.
type editorDoneMsg struct{ err error }

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
// command line (chooseEditor). x/editor knows how each editor takes a line
// (+N, --goto file:N, file:N); it reads only $EDITOR, so the choice is
// made by chooseEditor. exec.Command looks the editor up on $PATH, so
// this runs in a command, not in Update.
func editorCommand(choice, path string, line int) *exec.Cmd {
	fields := strings.Fields(choice)
	if len(fields) == 0 {
		fields = []string{"nano"}
	}
	args, pathInArgs := editor.LineNumber(line)(filepath.Base(fields[0]), path)
	all := append(fields[1:], args...)
	if !pathInArgs {
		all = append(all, path)
	}
	return exec.Command(fields[0], all...)
}

// openEditor suspends the TUI, runs the editor, and resumes.
func openEditor(choice, path string, line int) tea.Cmd {
	return func() tea.Msg {
		return tea.ExecProcess(editorCommand(choice, path, line), func(err error) tea.Msg { return editorDoneMsg{err} })()
	}
}

// statusMsg shows a line in the footer for a few seconds.
type statusMsg struct{ text string }

// copyText puts text on the clipboard with OSC 52 (works over SSH) and says so.
func copyText(text string) tea.Cmd {
	return tea.Batch(tea.SetClipboard(text), func() tea.Msg { return statusMsg{"copied " + text} })
}
