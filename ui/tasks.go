package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// Background work follows one pattern: a command starts a goroutine that
// does the work and sends its messages on a channel, then returns the
// first of them; a listening command reads each next message and is
// re-armed after each, until the goroutine closes the channel. Progress
// messages may be dropped when the screen is behind; the final message
// never is. Every message carries the id of the job that produced it, so
// the results of a superseded job are recognised and dropped.

// taskEvent is a message from a task's channel; the root re-arms listening.
type taskEvent struct {
	ch  chan tea.Msg
	msg tea.Msg
}

func listen(ch chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		m, ok := <-ch
		if !ok {
			return nil
		}
		return taskEvent{ch: ch, msg: m}
	}
}

// runTask returns the command that runs work in a goroutine. emit sends a
// progress message without blocking; work's return value is the final
// message. Nothing starts until Bubble Tea executes the command: Update
// only describes the work, and a command that is dropped costs nothing.
func runTask(ctx context.Context, work func(ctx context.Context, emit func(tea.Msg)) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		ch := make(chan tea.Msg, 4)
		go func() {
			defer close(ch)
			emit := func(m tea.Msg) {
				select {
				case ch <- m:
				default: // the screen is behind: a later report will do
				}
			}
			ch <- work(ctx, emit)
		}()
		return listen(ch)()
	}
}
