package memsearch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/model/recall"
	"clawvault-tui/store"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/embedding"
)

// Health is one agent's memory search index, checked against its files,
// its settings and its embedding provider.
type Health struct {
	Agent, Store string
	// Problem is why nothing else could be checked ("" when it could).
	Problem string
	Chunks  int
	Files   int
	// Meta is the index identity; Identity the verdict on it.
	Meta     *recall.IndexMeta
	Identity recall.IdentityState
	// VectorState is sqlite-vec's: complete, incomplete, none.
	VectorState string
	Tokenizer   string
	// Stale compares the index with the memory files on disk.
	Stale model.MemoryIndexHealth
	// Provider is who embeds queries (nil: none, or ProviderProblem).
	Provider        *embedding.Provider
	ProviderProblem string
	// Probe is the result of one embedding (skipped when not asked).
	Probe *Probe
	// Reindex are temp databases a reindex writes beside the store,
	// with their sizes.
	Reindex      []ReindexFile
	ReindexBytes int64
	Warnings     []string
}

// Probe is one embedding request's outcome.
type Probe struct {
	OK    bool
	Took  time.Duration
	Dims  int
	Error string
}

// ReindexFile is a *.memory-reindex-* file beside the store.
type ReindexFile struct {
	Path string
	Size int64
}

// StatusRequest asks for an agent's index health.
type StatusRequest struct {
	Agent      store.Agent
	ConfigPath string
	Getenv     func(string) string
	// Probe sends one embedding request to the provider.
	Probe bool
}

// Status checks an agent's index.
func (s *Session) Status(ctx context.Context, req StatusRequest) (*Health, error) {
	if req.Getenv == nil {
		req.Getenv = os.Getenv
	}
	h := &Health{Agent: req.Agent.ID, Store: req.Agent.SQLitePath}
	h.Reindex, h.ReindexBytes = reindexFiles(req.Agent)
	c, raw, warns, err := LoadConfig(req.ConfigPath, req.Agent.ID, req.Getenv)
	if err != nil {
		h.Problem = err.Error()
		return h, nil
	}
	h.Warnings = warns
	db, err := s.open(ctx, req.Agent)
	if err != nil {
		h.Problem = err.Error()
		return h, nil
	}
	mi, err := db.OpenMemIndex(ctx)
	if err != nil {
		h.Problem = err.Error()
		return h, nil
	}
	defer mi.Close()
	if err := h.readIndex(ctx, mi, req.Agent.Workspace); err != nil {
		return nil, err
	}
	h.checkProvider(ctx, s, c, raw, req)
	return h, nil
}

func (h *Health) readIndex(ctx context.Context, mi *agentdb.MemIndex, workspace string) error {
	meta, vstate, err := mi.Meta(ctx)
	if err != nil {
		return err
	}
	chunks, semantic, err := mi.Counts(ctx)
	if err != nil {
		return err
	}
	h.Meta, h.Chunks, h.Tokenizer = meta, chunks, mi.Layout.Tokenizer
	h.VectorState = vectorState(mi.Layout.VecTable, vstate, meta, semantic > 0)
	sources, err := mi.IndexedSources(ctx, []string{"memory"})
	if err != nil {
		return err
	}
	h.Files = len(sources)
	h.Stale = compareFiles(workspace, sources, chunks)
	return nil
}

// vectorState is OpenClaw's resolvePersistedMemoryVectorIndexState.
func vectorState(table bool, row string, meta *recall.IndexMeta, semantic bool) string {
	dims := meta != nil && meta.VectorDims != nil && *meta.VectorDims != 0
	switch {
	case row == "1":
		return "incomplete"
	case !table && dims && semantic:
		return "incomplete"
	case !table:
		return "empty"
	case row == "clean" && semantic:
		return "complete"
	case row == "clean":
		return "empty"
	case semantic && !dims:
		return "incomplete"
	}
	return "unverified"
}

func (h *Health) checkProvider(ctx context.Context, s *Session, c recall.Config, raw map[string]any, req StatusRequest) {
	var want *recall.Identity
	if c.Provider != "none" {
		p, err := embedding.Resolve(c, raw, embedding.Env{Getenv: req.Getenv, AuthProfiles: readAuthProfiles(req.Agent.Dir)})
		if err != nil {
			h.ProviderProblem = err.Error()
		} else {
			h.Provider, want = p, p.Identity()
		}
	}
	if h.Provider != nil || c.Provider == "none" {
		scope := c.ScopeHash(func(p string) string { return resolveFrom(req.Agent.Workspace, p) })
		h.Identity = recall.CheckIdentity(h.Meta, recall.IdentityCheck{Want: want, Config: c, ScopeHash: scope, HasChunks: h.Chunks > 0})
	}
	if !req.Probe || h.Provider == nil {
		return
	}
	cl := s.client(h.Provider)
	t := time.Now()
	v, err := cl.Embed(ctx, "clawvault-tui memory status probe")
	h.Probe = &Probe{OK: err == nil, Took: time.Since(t), Dims: len(v)}
	if err != nil {
		h.Probe.Error = err.Error()
	} else if h.Meta != nil && h.Meta.VectorDims != nil && int(*h.Meta.VectorDims) != len(v) {
		h.Warnings = append(h.Warnings, "the provider answers vectors of a length the index was not built with: OpenClaw ranks them by cosine over the shorter length, and sqlite-vec is not used")
	}
}

// compareFiles is memory-index-stale's comparison of the index's memory
// sources with the workspace's memory files.
func compareFiles(workspace string, sources []agentdb.IndexedSource, chunks int) model.MemoryIndexHealth {
	mi := agentdb.MemoryIndex{Present: true, Sources: sources, Chunks: map[string]int{"memory": chunks}, Models: map[string]int{}, Meta: map[string]string{}}
	return store.MemoryIndexHealth(store.OS, workspace, mi)
}

// reindexFiles lists the temp databases a reindex writes beside the store
// (*.memory-reindex-*): 19 GB of them, left by interrupted reindexes, is
// a complaint of OpenClaw users.
func reindexFiles(a store.Agent) ([]ReindexFile, int64) {
	if a.SQLitePath == "" {
		return nil, 0
	}
	dir := filepath.Dir(a.SQLitePath)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, 0
	}
	var out []ReindexFile
	var total int64
	for _, e := range entries {
		if !strings.Contains(e.Name(), ".memory-reindex-") {
			continue
		}
		fi, err := e.Info()
		if err != nil && !errors.Is(err, os.ErrNotExist) || fi == nil {
			continue
		}
		out = append(out, ReindexFile{Path: filepath.Join(dir, e.Name()), Size: fi.Size()})
		total += fi.Size()
	}
	slices.SortFunc(out, func(a, b ReindexFile) int { return strings.Compare(a.Path, b.Path) })
	return out, total
}
