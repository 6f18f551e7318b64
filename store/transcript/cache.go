package transcript

import (
	"context"
	"os"
	"sync"

	"clawvault-tui/store/fileid"
	"clawvault-tui/store/regfile"
)

// Cache keeps the indexes of opened transcripts, keyed by path and
// validated by the file's identity (device, inode, size, mtime). A
// transcript that only grew since it was indexed (same device and inode)
// is extended from where its index stopped.
type Cache struct {
	mu      sync.Mutex
	entries map[string]*Index
	// Stats count how Open answered, for tests and the TUI's status line.
	Stats CacheStats
}

// CacheStats counts cache outcomes.
type CacheStats struct {
	Hits, Extends, Builds int
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{entries: map[string]*Index{}}
}

// Open returns the index of the transcript at path: from the cache when the
// file is unchanged, extended when it only grew, built otherwise.
func (c *Cache) Open(ctx context.Context, path string, opt Options) (*Index, error) {
	f, err := regfile.Open(path) // a FIFO in a transcript's place never blocks
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	id := fileid.Of(fi)

	c.mu.Lock()
	prev := c.entries[path]
	c.mu.Unlock()

	var ix *Index
	switch {
	case prev != nil && prev.file.Same(id):
		c.count(func(s *CacheStats) { s.Hits++ })
		return prev, nil
	case prev != nil && prev.file.SameFile(id) && id.Size >= prev.End && prev.unchangedBefore(f):
		ix, err = prev.extend(ctx, f, id.Size, opt)
		c.count(func(s *CacheStats) { s.Extends++ })
	default:
		ix, err = Build(ctx, path, f, id.Size, opt)
		c.count(func(s *CacheStats) { s.Builds++ })
	}
	if err != nil {
		return nil, err
	}
	ix.file = id
	c.mu.Lock()
	c.entries[path] = ix
	c.mu.Unlock()
	return ix, nil
}

func (c *Cache) count(f func(*CacheStats)) {
	c.mu.Lock()
	f(&c.Stats)
	c.mu.Unlock()
}

// Forget drops a path from the cache.
func (c *Cache) Forget(path string) {
	c.mu.Lock()
	delete(c.entries, path)
	c.mu.Unlock()
}

// unchangedBefore reports whether the bytes the index covers still hash the same.
func (ix *Index) unchangedBefore(f *os.File) bool {
	head, tail := fingerprint(f, ix.End)
	return head == ix.headSum && tail == ix.endSum
}
