package store

import (
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watcher reports changes to files in a set of folders, debounced: an agent
// appending a line every few milliseconds produces one event per quiet
// spell (or per maxDelay while it keeps writing), naming every path that
// changed.
type Watcher struct {
	w      *fsnotify.Watcher
	out    chan []string
	done   chan struct{}
	closed sync.Once
}

// Watch starts watching dirs (folders that do not exist are skipped).
func Watch(dirs []string, debounce, maxDelay time.Duration) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if isDir(d) {
			if err := fw.Add(d); err != nil {
				fw.Close()
				return nil, err
			}
		}
	}
	w := &Watcher{w: fw, out: make(chan []string, 1), done: make(chan struct{})}
	go w.loop(debounce, maxDelay)
	return w, nil
}

// Events delivers the changed paths; it is closed by Close.
func (w *Watcher) Events() <-chan []string { return w.out }

// Close stops watching.
func (w *Watcher) Close() error {
	var err error
	w.closed.Do(func() {
		close(w.done)
		err = w.w.Close()
	})
	return err
}

func (w *Watcher) loop(debounce, maxDelay time.Duration) {
	defer close(w.out)
	pending := map[string]bool{}
	var quiet, deadline <-chan time.Time
	flush := func() {
		paths := make([]string, 0, len(pending))
		for p := range pending {
			paths = append(paths, p)
		}
		select {
		case w.out <- paths:
			clear(pending)
			quiet, deadline = nil, nil
		default:
			// The reader is busy with the last batch: keep collecting.
			quiet = time.After(debounce)
		}
	}
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-w.w.Events:
			if !ok {
				return
			}
			if ev.Op == fsnotify.Chmod {
				continue
			}
			pending[ev.Name] = true
			quiet = time.After(debounce)
			if deadline == nil {
				deadline = time.After(maxDelay)
			}
		case <-w.w.Errors:
			// An overflow or a vanished folder: the next scan sees the truth.
		case <-quiet:
			flush()
		case <-deadline:
			flush()
		}
	}
}
