package serve

import (
	"context"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
)

// gone is a session whose client left: its window sizes have stopped.
type gone struct {
	ssh.Session
	windows chan ssh.Window
}

func (g gone) Pty() (ssh.Pty, <-chan ssh.Window, bool) { return ssh.Pty{}, g.windows, true }

// started tells the test that the program runs.
type started chan struct{}

func (s started) Init() tea.Cmd                       { return func() tea.Msg { close(s); return nil } }
func (s started) Update(tea.Msg) (tea.Model, tea.Cmd) { return s, nil }
func (s started) View() tea.View                      { return tea.NewView("") }

// A client that leaves closes the window channel and then the session's
// context, in either order: the program ends either way. It ran on, and a
// shutdown waited for it, when the channel closed first.
func TestRunProgramEndsWhenTheWindowsCloseFirst(t *testing.T) {
	t.Parallel()
	windows := make(chan ssh.Window)
	close(windows)
	se := &Session{sess: gone{windows: windows}}
	running := make(started)
	p := tea.NewProgram(running, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() {
		_, err := se.RunProgram(ctx, p)
		ended <- err
	}()
	<-running
	cancel()
	select {
	case <-ended:
	case <-time.After(time.Minute):
		p.Kill()
		t.Fatal("the program ran on after its context ended")
	}
}
