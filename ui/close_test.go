package ui

import (
	"testing"
	"time"
)

// Close stops the file watcher: its listening command waits on it, and
// would keep the program, and so the app, alive after it ended (serve runs
// one app per session, in one process).
func TestCloseStopsTheWatcher(t *testing.T) {
	a := newApp(t, 100, 30, Options{Watch: true})
	a.Update(a.startWatcher()()) // not driven: its listener waits for changes
	if a.watcher == nil {
		t.Fatal("no watcher started")
	}
	events := a.watcher.Events()
	a.Close()
	select {
	case _, open := <-events:
		if open {
			t.Error("the watcher sent an event instead of closing")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher's events are still open after Close")
	}
}
