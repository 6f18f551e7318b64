package agentdb

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"clawvault-tui/model/recall"
)

// The keyword leg's reads: the chunks' full-text table (bm25 ranks) and
// the paths' one, with the filters OpenClaw's SQL applies. The plan's
// substring terms are checked here in Go, row by row in the order SQLite
// returns them, which is what its SQL function does before the LIMIT.

// Body runs one plan over memory_index_chunks_fts: matching chunks that
// still exist, of the given sources, by rank (in table order without a
// MATCH), at most limit. When FTS5 refuses the MATCH, the query's words
// are matched as substrings instead (usedMatch false), as OpenClaw does.
func (m *MemIndex) Body(ctx context.Context, plan recall.Plan, sources []string, limit int) (rows []recall.BodyRow, usedMatch bool, err error) {
	if !m.Layout.ChunkFTS || limit <= 0 || plan.Empty() {
		return nil, false, nil
	}
	if plan.Match != "" {
		rows, err = m.bodyRows(ctx, plan.Match, plan.Substring, sources, limit)
		if err == nil {
			return rows, true, nil
		}
		if !isQueryError(err) {
			return nil, false, err
		}
		terms := uniqueTerms(append(recall.Words(plan.Query), plan.Substring...))
		rows, err = m.bodyRows(ctx, "", terms, sources, limit)
		return rows, false, err
	}
	rows, err = m.bodyRows(ctx, "", plan.Substring, sources, limit)
	return rows, false, err
}

func (m *MemIndex) bodyRows(ctx context.Context, match string, terms, sources []string, limit int) ([]recall.BodyRow, error) {
	filter, args := sourceFilter("", sources)
	where, rank, order := "1=1", "0", ""
	if match != "" {
		where = "memory_index_chunks_fts MATCH ? AND memory_index_chunks_fts.rank MATCH 'bm25()'"
		rank, order = "memory_index_chunks_fts.rank", " ORDER BY rank ASC"
		args = append([]any{match}, args...)
	}
	q := `SELECT id, path, source, start_line, end_line, text, ` + rank + ` AS rank FROM memory_index_chunks_fts WHERE ` + where +
		` AND EXISTS (SELECT 1 FROM memory_index_chunks c WHERE c.id = memory_index_chunks_fts.id)` + filter + order
	if len(terms) == 0 {
		q += ` LIMIT ?`
		args = append(args, limit)
	}
	rs, err := m.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, m.queryErr(err)
	}
	defer rs.Close()
	var out []recall.BodyRow
	var fold recall.ContainsFold
	for rs.Next() && len(out) < limit {
		var r recall.BodyRow
		var start, end sql.NullFloat64
		if err := rs.Scan(&r.ID, &r.Path, &r.Source, &start, &end, &r.Text, &r.Rank); err != nil {
			return nil, m.db.explain(err)
		}
		r.StartLine, r.EndLine = int(start.Float64), int(end.Float64)
		if containsAll(&fold, r.Text, terms) {
			out = append(out, r)
		}
	}
	return out, m.queryErr(rs.Err())
}

func containsAll(fold *recall.ContainsFold, value string, terms []string) bool {
	for _, t := range terms {
		if !fold.Contains(value, t) {
			return false
		}
	}
	return true
}

// queryErr keeps SQLite's own error (a MATCH it refused) recognisable
// and explains the rest.
func (m *MemIndex) queryErr(err error) error {
	if err == nil || isQueryError(err) {
		return err
	}
	return m.db.explain(err)
}

// isQueryError reports an error of the statement itself (FTS5 refusing
// a MATCH expression), not of the file.
func isQueryError(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_ERROR
}

func uniqueTerms(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// PathRows runs one path plan over memory_index_paths_fts: every file of
// the given sources that matches and still has a chunk, with its bm25
// rank and first chunk. failed reports that FTS5 refused the MATCH (the
// words were then matched as substrings).
func (m *MemIndex) PathRows(ctx context.Context, plan recall.Plan, sources []string) (rows []recall.PathRow, usedMatch, failed bool, err error) {
	if !m.Layout.PathFTS || plan.Empty() {
		return nil, false, false, nil
	}
	if plan.Match != "" {
		rows, err = m.pathRows(ctx, plan.Match, plan.Substring, sources)
		if err == nil {
			return rows, true, false, nil
		}
		if !isQueryError(err) {
			return nil, false, false, err
		}
		terms := uniqueTerms(append(recall.MarkWords(plan.Query), plan.Substring...))
		rows, err = m.pathRows(ctx, "", terms, sources)
		return rows, false, true, err
	}
	rows, err = m.pathRows(ctx, "", plan.Substring, sources)
	return rows, false, false, err
}

func (m *MemIndex) pathRows(ctx context.Context, match string, terms, sources []string) ([]recall.PathRow, error) {
	first, err := m.FirstChunks(ctx)
	if err != nil {
		return nil, err
	}
	filter, args := sourceFilter("memory_index_paths_fts", sources)
	where, rank := "1=1", "0"
	if match != "" {
		where, rank = "memory_index_paths_fts MATCH ?", "bm25(memory_index_paths_fts)"
		args = append([]any{match}, args...)
	}
	rs, err := m.tx.QueryContext(ctx, `SELECT path, source, `+rank+` FROM memory_index_paths_fts WHERE `+where+filter, args...)
	if err != nil {
		return nil, m.queryErr(err)
	}
	defer rs.Close()
	var out []recall.PathRow
	var fold recall.ContainsFold
	for rs.Next() {
		var r recall.PathRow
		var path, source sql.NullString
		if err := rs.Scan(&path, &source, &r.Rank); err != nil {
			return nil, m.db.explain(err)
		}
		r.Path, r.Source = path.String, source.String
		c, live := first[r.Source+"\x00"+r.Path]
		if !live || !containsAll(&fold, r.Path, terms) {
			continue
		}
		r.ChunkID, r.StartLine, r.EndLine = c.ChunkID, c.StartLine, c.EndLine
		out = append(out, r)
	}
	return out, m.queryErr(rs.Err())
}

// LivePaths are every file of the given sources that has a chunk, with
// its first chunk (the exact-path candidates when the query's words
// cannot preselect them).
func (m *MemIndex) LivePaths(ctx context.Context, sources []string) ([]recall.PathRow, error) {
	first, err := m.FirstChunks(ctx)
	if err != nil {
		return nil, err
	}
	var out []recall.PathRow
	for _, r := range first {
		if len(sources) == 0 || slices.Contains(sources, r.Source) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b recall.PathRow) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Source, b.Source))
	})
	return out, nil
}

// UseFirstChunks gives the read FirstChunks's map of an earlier read of
// the same index (unchanged: the caller checked its revision).
func (m *MemIndex) UseFirstChunks(first map[string]recall.PathRow) { m.first = first }

// FirstChunks maps source NUL path to each file's first chunk (by start
// line, end line, id): the files that have a chunk. Read once per
// MemIndex.
func (m *MemIndex) FirstChunks(ctx context.Context) (map[string]recall.PathRow, error) {
	if m.first != nil {
		return m.first, nil
	}
	rs, err := m.tx.QueryContext(ctx, `SELECT path, source, id, start_line, end_line FROM memory_index_chunks ORDER BY path, source, start_line, end_line, id`)
	if err != nil {
		return nil, m.db.explain(err)
	}
	defer rs.Close()
	first := map[string]recall.PathRow{}
	for rs.Next() {
		var r recall.PathRow
		var start, end sql.NullFloat64
		if err := rs.Scan(&r.Path, &r.Source, &r.ChunkID, &start, &end); err != nil {
			return nil, m.db.explain(err)
		}
		k := r.Source + "\x00" + r.Path
		if _, seen := first[k]; !seen {
			r.StartLine, r.EndLine = int(start.Float64), int(end.Float64)
			first[k] = r
		}
	}
	if err := rs.Err(); err != nil {
		return nil, m.db.explain(err)
	}
	m.first = first
	return first, nil
}

// ChunkTexts reads the text of chunks by id.
func (m *MemIndex) ChunkTexts(ctx context.Context, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	err := inChunks(uniqueTerms(ids), func(part []string, ph string) error {
		rs, err := m.tx.QueryContext(ctx, `SELECT id, text FROM memory_index_chunks WHERE id IN (`+ph+`)`, anys(part)...)
		if err != nil {
			return m.db.explain(err)
		}
		defer rs.Close()
		for rs.Next() {
			var id, text string
			if err := rs.Scan(&id, &text); err != nil {
				return m.db.explain(err)
			}
			out[id] = text
		}
		return m.db.explain(rs.Err())
	})
	return out, err
}

// ChunksOf lists a file's chunks (id and lines), in order.
func (m *MemIndex) ChunksOf(ctx context.Context, path, source string) ([]recall.PathRow, error) {
	rs, err := m.tx.QueryContext(ctx, `SELECT id, start_line, end_line FROM memory_index_chunks WHERE path = ? AND source = ? ORDER BY start_line, end_line, id`, path, source)
	if err != nil {
		return nil, m.db.explain(err)
	}
	defer rs.Close()
	var out []recall.PathRow
	for rs.Next() {
		r := recall.PathRow{Path: path, Source: source}
		var start, end sql.NullFloat64
		if err := rs.Scan(&r.ChunkID, &start, &end); err != nil {
			return nil, m.db.explain(err)
		}
		r.StartLine, r.EndLine = int(start.Float64), int(end.Float64)
		out = append(out, r)
	}
	return out, m.db.explain(rs.Err())
}
