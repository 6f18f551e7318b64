package memsearch

import (
	"context"
	"net/http"
	"os"
	"sync"
	"time"

	"clawvault-tui/model/recall"
	"clawvault-tui/store"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/embedding"
	"clawvault-tui/store/fileid"
)

// Session keeps what searches of one process share: each agent store
// open (reopened when the file is replaced), each index's vectors and
// files (while its revision and chunk count stay the same), and one
// embedding client per provider (which remembers the queries it
// embedded). Safe for concurrent use; Close releases the stores.
type Session struct {
	// HTTP is the client embedding requests go through (nil: the
	// default); Timeout bounds one (0: embedding.DefaultTimeout).
	HTTP    *http.Client
	Timeout time.Duration

	mu      sync.Mutex
	stores  map[string]*openDB
	indexes map[string]*indexCache
	clients map[string]*embedding.Client
}

// openDB is a store kept open, and the file it was opened on.
type openDB struct {
	db   *agentdb.DB
	file fileid.ID
}

// indexCache is what a session keeps of one index, read on first use
// and valid while the index's revision stays the same.
type indexCache struct {
	file     fileid.ID
	revision int64
	counts   kept[[2]int]
	table    kept[*recall.VectorTable]
	first    map[string]recall.PathRow
	meta     kept[map[string]recall.Meta]
}

// kept is a value read from the index once per revision.
type kept[T any] struct {
	v  T
	ok bool
}

// keep returns k's value, read on first use. read runs outside the lock:
// two searches may both read, and either's result is right.
func keep[T any](mu *sync.Mutex, k *kept[T], read func() (T, error)) (T, error) {
	mu.Lock()
	v, ok := k.v, k.ok
	mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := read()
	if err != nil {
		return v, err
	}
	mu.Lock()
	k.v, k.ok = v, true
	mu.Unlock()
	return v, nil
}

// NewSession starts an empty session.
func NewSession() *Session { return &Session{} }

// Request is one replayed search.
type Request struct {
	Agent      store.Agent
	ConfigPath string
	Getenv     func(string) string
	Query      string
	// Explain names files (relative to the workspace, or absolute) to
	// explain; ExplainAll explains every indexed file and every memory
	// file on disk.
	Explain    []string
	ExplainAll bool
	// Now is the clock decay measures ages against.
	Now time.Time
	// MaxResults and MinScore override the configured ones, as
	// `openclaw memory search --max-results/--min-score` do.
	MaxResults *int
	MinScore   *float64
	// Progress hears what the search is doing (loading vectors,
	// embedding the query).
	Progress func(Progress)
}

// Progress is a step of a search.
type Progress struct {
	Stage       string // "vectors", "embedding", "searching"
	Done, Total int
	Detail      string
}

func (r Request) progress(p Progress) {
	if r.Progress != nil {
		r.Progress(p)
	}
}

// client returns the session's client for p.
func (s *Session) client(p *embedding.Provider) *embedding.Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := p.Endpoint + "\x00" + p.ProviderKey()
	if c := s.clients[key]; c != nil {
		return c
	}
	c := embedding.NewClient(p)
	if s.HTTP != nil {
		c.HTTP = s.HTTP
	}
	if s.Timeout > 0 {
		c.Timeout = s.Timeout
	}
	if s.clients == nil {
		s.clients = map[string]*embedding.Client{}
	}
	s.clients[key] = c
	return c
}

// Close closes the stores the session kept open.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var first error
	for path, o := range s.stores {
		if err := o.db.Close(); err != nil && first == nil {
			first = err
		}
		delete(s.stores, path)
	}
	return first
}

// open returns the agent's store, kept open between searches; a store
// replaced since (OpenClaw rebuilt it into a new file) is reopened.
func (s *Session) open(ctx context.Context, a store.Agent) (*agentdb.DB, error) {
	if a.SQLitePath == "" {
		return openStore(ctx, a)
	}
	var id fileid.ID
	if fi, err := os.Stat(a.SQLitePath); err == nil {
		id = fileid.Of(fi)
	}
	s.mu.Lock()
	o := s.stores[a.SQLitePath]
	s.mu.Unlock()
	if o != nil && o.file.Exists() && id.Exists() && o.file.SameFile(id) {
		return o.db, nil
	}
	db, err := openStore(ctx, a)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stores == nil {
		s.stores = map[string]*openDB{}
	}
	if old := s.stores[a.SQLitePath]; old != nil {
		old.db.Close()
	}
	s.stores[a.SQLitePath] = &openDB{db: db, file: id}
	return db, nil
}

// index returns the session's cache of the index at path for this read,
// emptied when the index changed (its revision) or the file was
// replaced. An index without a revision counter is not cached.
func (s *Session) index(path string, revision int64) *indexCache {
	var id fileid.ID
	if fi, err := os.Stat(path); err == nil {
		id = fileid.Of(fi)
	}
	if revision == 0 {
		return &indexCache{file: id}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.indexes[path]
	if c == nil || c.revision != revision || !c.file.SameFile(id) {
		c = &indexCache{file: id, revision: revision}
		if s.indexes == nil {
			s.indexes = map[string]*indexCache{}
		}
		s.indexes[path] = c
	}
	return c
}

// counts are the index's chunks and semantic chunks, counted once (a
// scan of the chunks table).
func (s *Session) counts(ctx context.Context, c *indexCache, mi *agentdb.MemIndex) (chunks, semantic int, err error) {
	n, err := keep(&s.mu, &c.counts, func() ([2]int, error) {
		chunks, semantic, err := mi.Counts(ctx)
		return [2]int{chunks, semantic}, err
	})
	return n[0], n[1], err
}

// recallMeta is every chunk's recall metadata (a chunk missing from it
// no longer exists), read once.
func (s *Session) recallMeta(ctx context.Context, c *indexCache, mi *agentdb.MemIndex) (map[string]recall.Meta, error) {
	return keep(&s.mu, &c.meta, func() (map[string]recall.Meta, error) { return mi.AllRecallMeta(ctx) })
}

// table returns the index's vectors, read on first use.
func (s *Session) table(ctx context.Context, c *indexCache, mi *agentdb.MemIndex, progress func(done, total int)) (*recall.VectorTable, error) {
	return keep(&s.mu, &c.table, func() (*recall.VectorTable, error) { return mi.Vectors(ctx, progress) })
}

// firstChunks hands the index's files (and their first chunks) to mi,
// read once per index.
func (s *Session) firstChunks(ctx context.Context, c *indexCache, mi *agentdb.MemIndex) error {
	s.mu.Lock()
	first := c.first
	s.mu.Unlock()
	if first != nil {
		mi.UseFirstChunks(first)
		return nil
	}
	first, err := mi.FirstChunks(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	c.first = first
	s.mu.Unlock()
	return nil
}
