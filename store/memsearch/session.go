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

// Session keeps what searches of one process share: each store's vectors
// (while its index revision and chunk count stay the same) and one
// embedding client per provider (which remembers the queries it embedded).
// Safe for concurrent use.
type Session struct {
	// HTTP is the client embedding requests go through (nil: the
	// default); Timeout bounds one (0: embedding.DefaultTimeout).
	HTTP    *http.Client
	Timeout time.Duration

	mu      sync.Mutex
	vectors map[string]*vectorCache
	clients map[string]*embedding.Client
}

type vectorCache struct {
	file     fileid.ID
	revision int64
	chunks   int
	table    *recall.VectorTable
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

// table returns the store's vectors, read again when the index changed.
func (s *Session) table(ctx context.Context, path string, mi *agentdb.MemIndex, revision int64, chunks int, progress func(done, total int)) (*recall.VectorTable, error) {
	var id fileid.ID
	if fi, err := os.Stat(path); err == nil {
		id = fileid.Of(fi)
	}
	s.mu.Lock()
	c := s.vectors[path]
	s.mu.Unlock()
	// The revision moves with every change of the index; the file's
	// identity tells a store replaced by a rebuilt one (OpenClaw
	// reindexes into a new file and swaps it in).
	if c != nil && c.revision == revision && c.chunks == chunks && c.file.SameFile(id) {
		return c.table, nil
	}
	t, err := mi.Vectors(ctx, progress)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.vectors == nil {
		s.vectors = map[string]*vectorCache{}
	}
	s.vectors[path] = &vectorCache{file: id, revision: revision, chunks: chunks, table: t}
	s.mu.Unlock()
	return t, nil
}
