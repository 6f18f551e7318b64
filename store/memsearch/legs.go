package memsearch

import (
	"context"
	"os"
	"time"

	"clawvault-tui/model/recall"
)

// keywordHits is OpenClaw's searchKeywordWithFallback: the whole query;
// when it leaves room, each of its keywords alone (ranked against the
// whole query), merged; then the recall metadata of what is left.
func (r *replay) keywordHits(ctx context.Context, query string) ([]recall.Hit, error) {
	if !r.mi.Layout.ChunkFTS {
		return nil, nil
	}
	limit := r.rep.Settings.Candidates()
	full, err := r.keywordSearch(ctx, query, query, query, limit)
	if err != nil {
		return nil, err
	}
	hits := full
	words := recall.FallbackWords(query, r.tokenizer())
	if recall.CountNonExact(full) < limit && len(words) > 0 && !(len(full) > 0 && recall.SameKeywordQuery(query, words)) {
		sets := [][]recall.Hit{full}
		for _, w := range words {
			set, err := r.keywordSearch(ctx, w, query, query, limit)
			if err != nil {
				return nil, err
			}
			sets = append(sets, set)
		}
		hits = recall.LimitKeywordHits(recall.MergeKeywordHits(sets, query), limit)
	}
	return r.attach(ctx, hits)
}

func (r *replay) tokenizer() string { return r.rep.Config.Tokenizer }

// keywordSearch is one keyword query: the chunks' text and the paths.
func (r *replay) keywordSearch(ctx context.Context, q, rankingQuery, exactQuery string, limit int) ([]recall.Hit, error) {
	sources := r.rep.Config.SearchSources
	rows, used, err := r.mi.Body(ctx, recall.BodyPlan(q, r.tokenizer()), sources, limit)
	if err != nil {
		return nil, err
	}
	body := recall.BodyHits(rows, used, rankingQuery)
	paths, err := r.pathHits(ctx, q, exactQuery, limit)
	if err != nil {
		return nil, err
	}
	merged := recall.MergeKeywordHits([][]recall.Hit{body, paths}, exactQuery)
	return recall.LimitKeywordHits(merged, limit), nil
}

// pathHits is OpenClaw's searchPathKeyword over memory_index_paths_fts.
func (r *replay) pathHits(ctx context.Context, q, exactQuery string, limit int) ([]recall.Hit, error) {
	if !r.mi.Layout.PathFTS {
		return nil, nil
	}
	sources := r.rep.Config.SearchSources
	ps := recall.PathSearch{ExactQuery: exactQuery, Limit: limit}
	for i, plan := range recall.PathPlans(q, r.tokenizer()) {
		rows, used, failed, err := r.mi.PathRows(ctx, plan, sources)
		if err != nil {
			return nil, err
		}
		ps.Plans = append(ps.Plans, recall.PlanRows{Plan: plan, Rows: rows, UsedMatch: used})
		if i == 0 {
			ps.FirstPlanFailed = failed
		}
	}
	if ps.NeedsLive() {
		live, err := r.mi.LivePaths(ctx, sources)
		if err != nil {
			return nil, err
		}
		ps.Live = live
	}
	hits := ps.Hits()
	return r.withSnippets(ctx, hits)
}

// withSnippets fills the hits' snippets from their chunks' text.
func (r *replay) withSnippets(ctx context.Context, hits []recall.Hit) ([]recall.Hit, error) {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	texts, err := r.mi.ChunkTexts(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range hits {
		hits[i].Snippet = recall.Snippet(texts[hits[i].ID])
	}
	return hits, nil
}

// attach is OpenClaw's attachRecallMetadata: hits whose chunk is gone are
// dropped, the rest get their importance, triggers, project and
// provenance, and sessions their file's indexed mtime.
func (r *replay) attach(ctx context.Context, hits []recall.Hit) ([]recall.Hit, error) {
	if len(hits) == 0 {
		return hits, nil
	}
	ids := make([]string, len(hits))
	var sessionPaths []string
	for i, h := range hits {
		ids[i] = h.ID
		if h.Source == "sessions" {
			sessionPaths = append(sessionPaths, h.Path)
		}
	}
	meta, err := r.s.recallMeta(ctx, r.cache, r.mi)
	if err != nil {
		return nil, err
	}
	mtimes, err := r.mi.SourceMtimes(ctx, "sessions", sessionPaths)
	if err != nil {
		return nil, err
	}
	out := hits[:0]
	for _, h := range hits {
		m, ok := meta[h.ID]
		if !ok {
			continue
		}
		h.Meta = m
		if mt, ok := mtimes[h.Path]; ok && h.Source == "sessions" {
			h.SourceMtime, h.HasSourceMtime = mt, true
		}
		out = append(out, h)
	}
	return out, nil
}

// knn reports whether OpenClaw asks sqlite-vec first (its vector state
// is complete and the dimensions agree).
func (r *replay) knn() bool {
	if !r.mi.Layout.VecTable || r.vstate != "clean" || !r.vecOK {
		return false
	}
	m := r.rep.Meta
	return m == nil || m.VectorDims == nil || int(*m.VectorDims) == len(r.qvec)
}

// vectorHits is the vector leg: the chunks nearest to the query by cosine,
// scored exactly from their stored vectors.
func (r *replay) vectorHits(ctx context.Context) ([]recall.Hit, error) {
	if !hasNonZero(r.qvec) || !r.vecOK {
		return nil, nil
	}
	t, err := r.vectors(ctx)
	if err != nil {
		return nil, err
	}
	limit := r.rep.Settings.Candidates()
	vq := recall.VectorQuery{Models: []string{r.rep.Provider.Model}, Sources: r.rep.Config.SearchSources, Limit: limit, KNN: r.knn()}
	cands := t.Candidates(r.qvec, vq, 1e-5)
	var top []recall.Scored
	if vq.KNN {
		// sqlite-vec's own arithmetic, from the float32 copy it keeps
		// (which is the table's).
		q32 := make([]float32, len(r.qvec))
		for i, x := range r.qvec {
			q32[i] = float32(x)
		}
		top = recall.Refine(r.qvec, cands, nil, func(row int) float64 { return t.CosineVec(q32, row) }, limit)
	} else {
		exact, err := r.exactVectors(ctx, t, cands)
		if err != nil {
			return nil, err
		}
		top = recall.Refine(r.qvec, cands, exact, nil, limit)
	}
	hits := make([]recall.Hit, len(top))
	for i, sc := range top {
		hits[i] = recall.Hit{ID: t.IDs[sc.Row], Path: t.Paths[sc.Row], Source: t.Sources[sc.Row],
			StartLine: int(t.StartLine[sc.Row]), EndLine: int(t.EndLine[sc.Row]), Score: sc.Score}
	}
	if hits, err = r.withSnippets(ctx, hits); err != nil {
		return nil, err
	}
	return r.attach(ctx, hits)
}

// exactVectors gives the candidates' stored vectors: from the table when
// it kept them, else read from the store.
func (r *replay) exactVectors(ctx context.Context, t *recall.VectorTable, cands []recall.Scored) (func(row int) []float64, error) {
	if _, kept := t.Exact(0); kept || t.Len() == 0 {
		return func(row int) []float64 { v, _ := t.Exact(row); return v }, nil
	}
	rowids := make([]int64, len(cands))
	for i, c := range cands {
		rowids[i] = t.Rowids[c.Row]
	}
	exact, err := r.mi.ExactEmbeddings(ctx, rowids)
	if err != nil {
		return nil, err
	}
	return func(row int) []float64 { return exact[t.Rowids[row]] }, nil
}

// vectors is the index's vector table (from the session when unchanged).
func (r *replay) vectors(ctx context.Context) (*recall.VectorTable, error) {
	if r.table != nil {
		return r.table, nil
	}
	t, err := r.s.table(ctx, r.cache, r.mi, func(done, total int) {
		r.req.progress(Progress{Stage: "vectors", Done: done, Total: total})
	})
	r.table = t
	return t, err
}

func hasNonZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return true
		}
	}
	return false
}

// rank merges the legs as memory_search does for the status.
func (r *replay) rank(ctx context.Context) error {
	s := r.rep.Settings
	universe := max(recall.CandidateLimit, s.MaxResults)
	switch r.rep.Status {
	case "":
		r.rep.Status = StatusOK
	case StatusKeywordOnly:
		r.rep.Mode = "keyword-only"
		r.rep.Results = jsSlice(recall.KeywordOnly(r.kw, s, r.timestamps(r.kw), universe), s.MaxResults)
		r.rep.Merged = r.rep.Results
		return nil
	default:
		r.rep.Mode = "keyword-only"
		r.rep.Fallback = jsSlice(recall.KeywordOnly(r.kw, s, r.timestamps(r.kw), universe), s.MaxResults)
		r.rep.Merged = r.rep.Fallback
		return nil
	}
	vec, err := r.vectorHits(ctx)
	if err != nil {
		return err
	}
	all := append(append([]recall.Hit{}, r.kw...), vec...)
	ts := r.timestamps(all)
	if !r.mi.Layout.ChunkFTS {
		r.rep.Mode = "vector-only"
		r.rep.Results = jsSlice(recall.VectorOnly(vec, s, ts, universe), s.MaxResults)
		r.rep.Merged = r.rep.Results
		return nil
	}
	r.rep.Mode = "hybrid"
	r.rep.Merged = recall.Merge(r.rep.Query, vec, r.kw, s, ts)
	recall.MarkRanks(r.rep.Merged, s.MinScore)
	r.rep.Results = jsSlice(recall.SelectHybrid(r.rep.Merged, r.kw, universe, s.MinScore), s.MaxResults)
	return nil
}

// nodeMtimeMs is Node's stat().mtimeMs.
func nodeMtimeMs(t time.Time) float64 {
	return float64(t.Unix())*1e3 + float64(t.Nanosecond())/1e6
}

// jsSlice is Array.prototype.slice(0, n).
func jsSlice(e []*recall.Entry, n int) []*recall.Entry {
	if n < 0 {
		n = max(0, len(e)+n)
	}
	return e[:min(n, len(e))]
}

// timestamps are the clock and the mtimes decay reads: memory files that
// are neither dated nor evergreen are aged by their mtime now, as
// OpenClaw stats them at search time.
func (r *replay) timestamps(hits []recall.Hit) recall.Timestamps {
	ts := recall.Timestamps{NowMs: float64(r.req.Now.UnixNano()) / 1e6, FileMtimeMs: map[string]float64{}}
	for _, h := range hits {
		if _, done := ts.FileMtimeMs[h.Path]; done || !recall.NeedsFileTime(h.Source, h.Path) {
			continue
		}
		if fi, err := os.Stat(resolveFrom(r.req.Agent.Workspace, h.Path)); err == nil {
			ts.FileMtimeMs[h.Path] = nodeMtimeMs(fi.ModTime())
		}
	}
	return ts
}
