package memsearch

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"clawvault-tui/model/recall"
	"clawvault-tui/store"
)

// RelatedRequest asks for the memories nearest to a chunk, or to any
// chunk of a file, by the index's stored vectors: no provider involved.
type RelatedRequest struct {
	Agent store.Agent
	// ChunkID names one chunk; else Path (as the index names it) a file.
	ChunkID, Path string
	Limit         int
}

// RelatedHit is one near memory.
type RelatedHit struct {
	ID, Path, Source   string
	StartLine, EndLine int
	// Score is the cosine similarity of the stored vectors (for a file,
	// with its nearest chunk); Of names that chunk (path:start-end).
	Score   float64
	Of      string
	Snippet string
}

// Related lists the chunks of other files nearest to the request's chunk
// or file, best first: near-duplicates across MEMORY.md and daily notes.
func (s *Session) Related(ctx context.Context, req RelatedRequest) ([]RelatedHit, error) {
	db, err := s.open(ctx, req.Agent)
	if err != nil {
		return nil, err
	}
	mi, err := db.OpenMemIndex(ctx)
	if err != nil {
		return nil, err
	}
	defer mi.Close()
	rev, err := mi.Revision(ctx)
	if err != nil {
		return nil, err
	}
	t, err := s.table(ctx, s.index(req.Agent.SQLitePath, rev), mi, nil)
	if err != nil {
		return nil, err
	}
	hits, err := nearest(t, req)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	texts, err := mi.ChunkTexts(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range hits {
		hits[i].Snippet = recall.Snippet(texts[hits[i].ID])
	}
	return hits, nil
}

// nearest picks the source rows and scores every other file's chunks.
func nearest(t *recall.VectorTable, req RelatedRequest) ([]RelatedHit, error) {
	limit := req.Limit
	if limit <= 0 {
		limit = 10
	}
	var rows []int
	for i := range t.IDs {
		if (req.ChunkID != "" && t.IDs[i] == req.ChunkID) || (req.ChunkID == "" && t.Paths[i] == req.Path) {
			rows = append(rows, i)
		}
	}
	if len(rows) == 0 {
		what := "chunk " + req.ChunkID
		if req.ChunkID == "" {
			what = req.Path
		}
		return nil, fmt.Errorf("%s is not in the memory search index", what)
	}
	path := t.Paths[rows[0]]
	best := map[int]recall.Scored{}
	from := map[int]int{}
	for _, r := range rows {
		model := t.Models[r]
		for _, sc := range t.Related(r, limit, func(i int) bool { return t.Paths[i] == path || t.Models[i] != model }) {
			if b, ok := best[sc.Row]; !ok || sc.Score > b.Score {
				best[sc.Row], from[sc.Row] = sc, r
			}
		}
	}
	out := make([]RelatedHit, 0, len(best))
	for row, sc := range best {
		of := from[row]
		out = append(out, RelatedHit{ID: t.IDs[row], Path: t.Paths[row], Source: t.Sources[row], StartLine: int(t.StartLine[row]),
			EndLine: int(t.EndLine[row]), Score: sc.Score, Of: fmt.Sprintf("%s:%d-%d", t.Paths[of], t.StartLine[of], t.EndLine[of])})
	}
	slices.SortFunc(out, func(a, b RelatedHit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Path, b.Path), strings.Compare(a.ID, b.ID))
	})
	return out[:min(len(out), limit)], nil
}
