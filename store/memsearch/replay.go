package memsearch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"clawvault-tui/model/recall"
	"clawvault-tui/store"
	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/embedding"
)

// Status says whether Results are what the agent gets.
const (
	// StatusOK: a hybrid search, as memory_search answers it.
	StatusOK = "ok"
	// StatusKeywordOnly: the agent has no embedding provider (provider
	// none): memory_search ranks by keywords alone, as here.
	StatusKeywordOnly = "keyword-only"
	// StatusUnavailable, StatusIdentity: memory_search gives the agent
	// nothing; Fallback holds a keyword-only ranking, which is not it.
	StatusUnavailable = recall.Unavailable
	StatusIdentity    = recall.IdentityMismatch
	// StatusNotReplayed: a provider this build cannot call.
	StatusNotReplayed = "not-replayed"
	// StatusEmpty: the index holds nothing to search.
	StatusEmpty = "empty"
)

// Report is a replayed search.
type Report struct {
	Agent, Query string
	Status       string
	// Reason is the status's sentence ("" for ok).
	Reason string
	// Results are what memory_search returns (empty unless the status is
	// ok or keyword-only); Fallback is the keyword-only ranking offered
	// when it returns nothing, clearly not what the agent gets.
	Results  []*recall.Entry
	Fallback []*recall.Entry
	// Merged is every candidate in memory_search's final order.
	Merged   []*recall.Entry
	Settings recall.Settings
	Config   recall.Config
	Provider *embedding.Provider
	Identity recall.IdentityState
	Meta     *recall.IndexMeta
	// Mode is hybrid, keyword-only or vector-only.
	Mode string
	// Embedded: the query was embedded (Cached: from this session).
	Embedded, Cached bool
	// Took is the search without the embedding; EmbedTook the embedding.
	Took, EmbedTook time.Duration
	Explain         []recall.Explanation
	Warnings        []string
	// Workspace is the agent's workspace.
	Workspace string
	Chunks    int
}

// replay carries one search's state.
type replay struct {
	s      *Session
	req    Request
	rep    *Report
	mi     *agentdb.MemIndex
	cfg    map[string]any
	qvec   []float64
	table  *recall.VectorTable
	cache  *indexCache
	vecOK  bool
	vstate string
	rev    int64
	kw     []recall.Hit
}

// Replay runs memory_search as OpenClaw would for req. An error is a
// sentence about something that stops the replay (no store, a damaged
// file, a bad config); what stops memory_search itself is a status.
func (s *Session) Replay(ctx context.Context, req Request) (*Report, error) {
	if strings.TrimSpace(req.Query) == "" {
		return nil, errors.New("the query is empty: memory_search returns nothing for it")
	}
	if req.Getenv == nil {
		req.Getenv = os.Getenv
	}
	if req.Now.IsZero() {
		req.Now = time.Now()
	}
	r := &replay{s: s, req: req, rep: &Report{Agent: req.Agent.ID, Query: strings.TrimSpace(req.Query), Workspace: req.Agent.Workspace}}
	c, raw, warns, err := LoadConfig(req.ConfigPath, req.Agent.ID, req.Getenv)
	if err != nil {
		return nil, err
	}
	r.cfg, r.rep.Config, r.rep.Warnings = raw, c, warns
	r.rep.Settings = c.Settings
	if req.MaxResults != nil {
		r.rep.Settings.MaxResults = *req.MaxResults
	}
	if req.MinScore != nil {
		r.rep.Settings.MinScore = *req.MinScore
	}
	db, err := s.open(ctx, req.Agent)
	if err != nil {
		return nil, err
	}
	if r.mi, err = db.OpenMemIndex(ctx); err != nil {
		return nil, err
	}
	defer r.mi.Close()
	if err := r.run(ctx); err != nil {
		return nil, err
	}
	if err := r.explain(ctx); err != nil {
		return nil, err
	}
	return r.rep, nil
}

// openStore opens the agent's SQLite store, where the index lives.
func openStore(ctx context.Context, a store.Agent) (*agentdb.DB, error) {
	if a.SQLitePath == "" {
		where := "its agent folder"
		if a.Dir != "" {
			where = filepath.Join(a.Dir, "agent", agentdb.FileName)
		}
		return nil, fmt.Errorf("agent %s has no SQLite store (%s): OpenClaw 2026.8 and later keep the memory search index there, and `openclaw memory index --agent %s` builds it", a.ID, where, a.ID)
	}
	return agentdb.Open(ctx, a.SQLitePath)
}

func (r *replay) run(ctx context.Context) error {
	start := time.Now()
	if err := r.readIndex(ctx); err != nil {
		return err
	}
	if r.rep.Status == StatusEmpty {
		return nil
	}
	r.resolveProvider()
	r.checkIdentity()
	kw, err := r.keywordHits(ctx, r.rep.Query)
	if err != nil {
		return err
	}
	r.kw = kw
	if r.rep.Status == "" && r.rep.Provider != nil {
		if err := r.embed(ctx); err != nil {
			return err
		}
	}
	if err := r.rank(ctx); err != nil {
		return err
	}
	r.rep.Took = time.Since(start) - r.rep.EmbedTook
	return nil
}

// readIndex reads the index's identity and size.
func (r *replay) readIndex(ctx context.Context) error {
	meta, vstate, err := r.mi.Meta(ctx)
	if err != nil {
		return err
	}
	r.rep.Meta, r.vstate = meta, vstate
	if r.rev, err = r.mi.Revision(ctx); err != nil {
		return err
	}
	r.cache = r.s.index(r.req.Agent.SQLitePath, r.rev)
	chunks, semantic, err := r.s.counts(ctx, r.cache, r.mi)
	if err != nil {
		return err
	}
	r.rep.Chunks = chunks
	r.vecOK = semantic > 0 && r.rep.Config.Vector
	if err := r.s.firstChunks(ctx, r.cache, r.mi); err != nil {
		return err
	}
	if chunks == 0 {
		r.rep.Status = StatusEmpty
		r.rep.Reason = "the index holds no chunk: memory_search finds nothing until OpenClaw indexes the memory files (`openclaw memory index`)"
	}
	return nil
}

// resolveProvider finds the provider the agent's searches embed with; a
// provider that cannot be created makes memory_search unavailable.
func (r *replay) resolveProvider() {
	c := r.rep.Config
	if c.Provider == "none" {
		r.rep.Status, r.rep.Reason = StatusKeywordOnly, "memory.search.provider is none: memory_search ranks by keywords alone"
		return
	}
	p, err := embedding.Resolve(c, r.cfg, embedding.Env{Getenv: r.req.Getenv, AuthProfiles: readAuthProfiles(r.req.Agent.Dir)})
	var unsupported *embedding.UnsupportedError
	switch {
	case errors.As(err, &unsupported):
		r.rep.Status, r.rep.Reason = StatusNotReplayed, err.Error()+"; the ranking below is keyword-only, not what the agent gets"
	case err != nil:
		r.rep.Status, r.rep.Reason = StatusUnavailable, "the embedding provider cannot be set up: "+err.Error()
	default:
		r.rep.Provider = p
	}
}

// checkIdentity compares the index's identity with the settings.
func (r *replay) checkIdentity() {
	var want *recall.Identity
	if r.rep.Provider != nil {
		want = r.rep.Provider.Identity()
	} else if r.rep.Status != StatusKeywordOnly {
		return // unavailable or not replayed: the identity is moot
	}
	ws := r.req.Agent.Workspace
	scope := r.rep.Config.ScopeHash(func(p string) string { return resolveFrom(ws, p) })
	st := recall.CheckIdentity(r.rep.Meta, recall.IdentityCheck{Want: want, Config: r.rep.Config, ScopeHash: scope, HasChunks: r.rep.Chunks > 0})
	r.rep.Identity = st
	switch {
	case st.Valid():
	case st.Status == "missing" || st.Older:
		r.rep.Warnings = append(r.rep.Warnings, fmt.Sprintf("the index identity is %s (%s): OpenClaw rebuilds the index before answering this search, so its answer may differ from this replay of the current index", st.Status, st.Reason))
		if st.ChunkingOnly {
			r.rep.Warnings[len(r.rep.Warnings)-1] += "; until then it answers from the keyword index"
		}
	default:
		r.rep.Status = StatusIdentity
		r.rep.Reason = identitySentence(st, r.rep, r.req.Agent.ID)
	}
}

func identitySentence(st recall.IdentityState, rep *Report, agent string) string {
	s := "the index identity does not match the settings (" + st.Reason
	if m := rep.Meta; m != nil && (st.Code == "model" || st.Code == "provider") {
		s += fmt.Sprintf("; the index was built with %s/%s", m.Provider, m.Model)
	}
	return s + "), so OpenClaw pauses memory search until `openclaw memory index --force --agent " + agent + "` rebuilds it"
}

// resolveFrom is path.resolve(workspace, p) with ~ expanded.
func resolveFrom(workspace, p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, strings.TrimPrefix(strings.TrimPrefix(p, "~"), "/"))
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(workspace, p)
}

// embed embeds the query; a failure makes memory_search unavailable.
func (r *replay) embed(ctx context.Context) error {
	cl := r.s.client(r.rep.Provider)
	_, cached := cl.Cached(r.rep.Query)
	if !cached {
		r.req.progress(Progress{Stage: "embedding", Detail: r.rep.Provider.Host()})
	}
	t := time.Now()
	v, err := cl.Embed(ctx, r.rep.Query)
	r.rep.EmbedTook = time.Since(t)
	var ee *embedding.Error
	switch {
	case errors.As(err, &ee) && ee.Kind == "canceled":
		return ctx.Err()
	case err != nil:
		r.rep.Status = StatusUnavailable
		r.rep.Reason = err.Error() + " (OpenClaw's memory_search fails the same way and returns no result)"
		return nil
	}
	r.qvec, r.rep.Embedded, r.rep.Cached = v, true, cached
	return nil
}
