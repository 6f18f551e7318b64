package ui

import (
	"context"
	"errors"
	"sync"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/store/search"
)

// The curating screens (Vault, Search, the editor, promote) reach memory
// files through a vaultfs.Space and the on-disk search index, both shared
// through Common and used only inside commands.

// indexHolder keeps the search index open for the life of the app: it is
// opened by the first command that needs it and searched, synced and
// updated by later ones (the index allows searches alongside an update).
// Opening it again per key press would cost a bolt open each time, and a
// second Open in this process would wait on the first one's lock.
type indexHolder struct {
	options func() (search.Options, error)
	// shared opens an index someone else owns and closes (Options.Index).
	shared func(search.Options) (*search.Index, error)

	mu sync.Mutex
	ix *search.Index
}

// get opens the index on first use; later calls return it. A failed open
// is retried by the next call (an index another process held may be free).
func (h *indexHolder) get() (*search.Index, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ix != nil {
		return h.ix, nil
	}
	if h.options == nil {
		return nil, errors.New("no search index in this session")
	}
	opt, err := h.options()
	if err != nil {
		return nil, err
	}
	open := search.Open
	if h.shared != nil {
		open = h.shared
	}
	h.ix, err = open(opt)
	return h.ix, err
}

// close closes the index if it was opened.
func (h *indexHolder) close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ix == nil || h.shared != nil {
		h.ix = nil
		return nil
	}
	err := h.ix.Close()
	h.ix = nil
	return err
}

// fileSavedMsg says a memory file was written by the built-in editor, an
// external editor or a promote: the index re-reads it and the screens that
// show it reload.
type fileSavedMsg struct{ path string }

// reindexedMsg reports the re-index of saved files.
type reindexedMsg struct {
	paths []string
	err   error
}

// reindex updates the search index for files that changed. Nothing is
// opened for it: an index nobody opened yet is brought in step by the sync
// that runs when it is.
func (h *indexHolder) reindex(paths ...string) tea.Cmd {
	return func() tea.Msg {
		h.mu.Lock()
		ix := h.ix
		h.mu.Unlock()
		if ix == nil {
			return nil
		}
		_, err := ix.Update(context.Background(), paths...)
		if errors.Is(err, search.ErrOutside) {
			err = nil // a file the index does not cover (templates, the archive)
		}
		return reindexedMsg{paths: paths, err: err}
	}
}
