package agentdb

import (
	"context"
	"database/sql"
	"encoding/binary"
	"math"

	"clawvault-tui/model/recall"
)

// The vector leg's reads: every chunk's embedding once (a session keeps
// the table, keyed by the index's revision), then the exact vectors of a
// search's few candidates.

// decodeEmbedding reads a stored embedding as OpenClaw does: little-endian
// Float64s (schema 23; a length not a multiple of 8 or a coordinate that
// is not finite makes it unusable), or a JSON array (schema 21).
func decodeEmbedding(v any) []float64 {
	switch b := v.(type) {
	case []byte:
		if len(b)%8 != 0 {
			return nil
		}
		out := make([]float64, len(b)/8)
		for i := range out {
			x := math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil
			}
			out[i] = x
		}
		return out
	case string:
		return decodeJSONNumbers(b)
	}
	return nil
}

// Vectors reads every chunk's embedding into a table. progress, when set,
// is told how many chunks were read so far.
func (m *MemIndex) Vectors(ctx context.Context, progress func(done, total int)) (*recall.VectorTable, error) {
	var total int
	if err := m.tx.QueryRowContext(ctx, `SELECT count(*) FROM memory_index_chunks`).Scan(&total); err != nil {
		return nil, m.db.explain(err)
	}
	rs, err := m.tx.QueryContext(ctx, `SELECT `+m.rowid()+`, id, path, source, start_line, end_line, model, embedding FROM memory_index_chunks ORDER BY `+m.rowid())
	if err != nil {
		return nil, m.db.explain(err)
	}
	defer rs.Close()
	t := &recall.VectorTable{ExactBudget: recall.DefaultExactBudget}
	for rs.Next() {
		var rowid int64
		var id, path, source, model string
		var start, end sql.NullFloat64
		var emb any
		if err := rs.Scan(&rowid, &id, &path, &source, &start, &end, &model, &emb); err != nil {
			return nil, m.db.explain(err)
		}
		t.Append(rowid, id, path, source, model, int(start.Float64), int(end.Float64), decodeEmbedding(emb))
		if n := t.Len(); progress != nil && n%2048 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(n, total)
		}
	}
	if err := rs.Err(); err != nil {
		return nil, m.db.explain(err)
	}
	return t, nil
}

// ExactEmbeddings reads the stored embeddings of the given rows.
func (m *MemIndex) ExactEmbeddings(ctx context.Context, rowids []int64) (map[int64][]float64, error) {
	out := make(map[int64][]float64, len(rowids))
	err := inChunks(rowids, func(part []int64, ph string) error {
		rs, err := m.tx.QueryContext(ctx, `SELECT `+m.rowid()+`, embedding FROM memory_index_chunks WHERE `+m.rowid()+` IN (`+ph+`)`, anys(part)...)
		if err != nil {
			return m.db.explain(err)
		}
		defer rs.Close()
		for rs.Next() {
			var rowid int64
			var emb any
			if err := rs.Scan(&rowid, &emb); err != nil {
				return m.db.explain(err)
			}
			out[rowid] = decodeEmbedding(emb)
		}
		return m.db.explain(rs.Err())
	})
	return out, err
}
