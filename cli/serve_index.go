package cli

import (
	"errors"
	"path/filepath"
	"sync"

	"clawvault-tui/store/search"
)

// sharedIndexes are the search indexes of a server's sessions, one per
// index folder, opened by the first session that searches and closed when
// the server ends. An index folder is opened by one process at a time
// (bolt's lock): each session opening its own, the second waited and was
// told the index was busy.
type sharedIndexes struct {
	mu    sync.Mutex
	byDir map[string]*search.Index
}

func newSharedIndexes() *sharedIndexes {
	return &sharedIndexes{byDir: map[string]*search.Index{}}
}

// open returns the index of opt.Dir, opening it the first time (a failed
// open, such as a local clawvault-tui holding it, is tried again next
// time).
func (s *sharedIndexes) open(opt search.Options) (*search.Index, error) {
	dir := filepath.Clean(opt.Dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	if ix, ok := s.byDir[dir]; ok {
		return ix, nil
	}
	ix, err := search.Open(opt)
	if err != nil {
		return nil, err
	}
	s.byDir[dir] = ix
	return ix, nil
}

// closeAll closes every index, once no session uses them.
func (s *sharedIndexes) closeAll() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for dir, ix := range s.byDir {
		errs = append(errs, ix.Close())
		delete(s.byDir, dir)
	}
	return errors.Join(errs...)
}
