package recall

import (
	"cmp"
	"math"
	"slices"
	"sync"
)

// VectorTable holds the index's chunk embeddings in memory, as float32
// (half the memory of the stored float64; a search re-scores its
// candidates from the exact vectors, see Refine).
type VectorTable struct {
	Rowids    []int64
	IDs       []string
	Paths     []string
	Sources   []string
	Models    []string
	StartLine []int32
	EndLine   []int32
	// offsets[i]:offsets[i+1] is row i's vector in data (empty when the
	// stored embedding does not decode: OpenClaw then scores it 0).
	offsets []int
	data    []float32
	norms   []float64
	// exact keeps the stored float64 vectors too while they fit in
	// ExactBudget bytes: then Exact needs no read of the store.
	exact       []float64
	exactOff    bool
	ExactBudget int
}

// DefaultExactBudget is how many bytes of float64 vectors a table keeps
// (10,000 chunks of 1,536 dimensions take 123 MB: those are re-read).
const DefaultExactBudget = 64 << 20

// Append adds a chunk.
func (t *VectorTable) Append(rowid int64, id, path, source, model string, start, end int, vec []float64) {
	if len(t.offsets) == 0 {
		t.offsets = append(t.offsets, 0)
	}
	t.Rowids = append(t.Rowids, rowid)
	t.IDs = append(t.IDs, id)
	t.Paths = append(t.Paths, path)
	t.Sources = append(t.Sources, source)
	t.Models = append(t.Models, model)
	t.StartLine = append(t.StartLine, int32(start))
	t.EndLine = append(t.EndLine, int32(end))
	var sum float64
	for _, x := range vec {
		t.data = append(t.data, float32(x))
		sum += float64(float32(x)) * float64(float32(x))
	}
	if !t.exactOff {
		if 8*(len(t.exact)+len(vec)) <= t.ExactBudget {
			t.exact = append(t.exact, vec...)
		} else {
			t.exact, t.exactOff = nil, true
		}
	}
	t.norms = append(t.norms, math.Sqrt(sum))
	t.offsets = append(t.offsets, len(t.data))
}

// Len is the number of chunks.
func (t *VectorTable) Len() int { return len(t.IDs) }

// Bytes is the memory the vectors take.
func (t *VectorTable) Bytes() int { return 4*len(t.data) + 8*len(t.norms) }

// Exact is row i's stored (float64) embedding, when the table kept them.
func (t *VectorTable) Exact(i int) ([]float64, bool) {
	if t.exactOff {
		return nil, false
	}
	return t.exact[t.offsets[i]:t.offsets[i+1]], true
}

// Vector is row i's (float32) embedding.
func (t *VectorTable) Vector(i int) []float32 { return t.data[t.offsets[i]:t.offsets[i+1]] }

// Cosine is OpenClaw's cosineSimilarity of q with row i: over the shorter
// length, 0 when either is empty or zero.
func (t *VectorTable) Cosine(q []float64, qnorm float64, i int) float64 {
	v := t.Vector(i)
	if len(v) == 0 || len(q) == 0 {
		return 0
	}
	n := min(len(v), len(q))
	var dot, nv float64
	for k := 0; k < n; k++ {
		x := float64(v[k])
		dot += q[k] * x
		nv += x * x
	}
	nq := qnorm
	if len(q) != n {
		nq = l2(q[:n])
	}
	if len(v) == n {
		nv = t.norms[i] * t.norms[i]
	}
	if nq == 0 || nv == 0 {
		return 0
	}
	return dot / (nq * math.Sqrt(nv))
}

func l2(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

// CosineExact is the same over float64 vectors.
func CosineExact(a, b []float64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	n := min(len(a), len(b))
	var dot, na, nb float64
	for i := 0; i < n; i++ {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / (math.Sqrt(na) * math.Sqrt(nb))
}

// Scored is a row with its approximate cosine.
type Scored struct {
	Row   int
	Score float64
}

// VectorQuery is one vector leg: the models and sources it may read, how
// many chunks it keeps, and whether sqlite-vec's KNN preselects them.
type VectorQuery struct {
	Models  []string
	Sources []string
	Limit   int
	// KNN: OpenClaw asks sqlite-vec for the nearest Limit×8 (at most
	// 4096) vectors by L2 distance over the whole vector table first
	// (the vector state is complete), then orders those by cosine.
	KNN bool
}

// knnOversample and maxKNN are sqlite-vec's query sizes in OpenClaw.
const (
	knnOversample = 8
	maxKNN        = 4096
)

// Candidates ranks the chunks for q: cosine order of those the query may
// read (after the KNN preselection when on), ties in table order, with
// every row within margin of the last kept one so that Refine can
// reorder them exactly.
func (t *VectorTable) Candidates(q []float64, vq VectorQuery, margin float64) []Scored {
	if vq.Limit <= 0 || len(q) == 0 {
		return nil
	}
	qn := l2(q)
	eligible := func(i int) bool {
		return slices.Contains(vq.Models, t.Models[i]) && (len(vq.Sources) == 0 || slices.Contains(vq.Sources, t.Sources[i]))
	}
	buf := scoreBuffers.Get().(*scoreBuffer)
	defer scoreBuffers.Put(buf)
	// Every row the query reads, scored once (NaN: not read, or not a
	// number); then only those near the top are kept and ordered: the
	// limit-th best score less the margin is the cut.
	byRow := slices.Grow(buf.byRow[:0], t.Len())[:t.Len()]
	valid := buf.valid[:0]
	for i := range byRow {
		byRow[i] = math.NaN()
	}
	score := func(i int) {
		if s := t.Cosine(q, qn, i); !math.IsNaN(s) && !math.IsInf(s, 0) {
			byRow[i] = s
			valid = append(valid, s)
		}
	}
	if vq.KNN {
		for _, i := range t.eligibleRows(q, vq, eligible) {
			score(i)
		}
	} else {
		for i := range t.IDs {
			if eligible(i) {
				score(i)
			}
		}
	}
	cut := math.Inf(-1)
	if len(valid) > vq.Limit {
		slices.Sort(valid)
		cut = valid[len(valid)-vq.Limit] - margin
	}
	var scored []Scored
	for i, s := range byRow {
		if s >= cut {
			scored = append(scored, Scored{i, s})
		}
	}
	buf.byRow, buf.valid = byRow, valid
	slices.SortStableFunc(scored, func(a, b Scored) int { return cmp.Compare(b.Score, a.Score) })
	return scored
}

// scoreBuffer holds one search's scores, kept between searches.
type scoreBuffer struct{ byRow, valid []float64 }

var scoreBuffers = sync.Pool{New: func() any { return &scoreBuffer{} }}

// eligibleRows are the rows the query reads, in table order: all it may
// read, or with KNN those among the nearest by L2 (widened to the whole
// table, at most 4096, when too few are eligible).
func (t *VectorTable) eligibleRows(q []float64, vq VectorQuery, eligible func(int) bool) []int {
	var all []int
	for i := range t.IDs {
		if eligible(i) {
			all = append(all, i)
		}
	}
	if !vq.KNN {
		return all
	}
	k := min(vq.Limit*knnOversample, maxKNN)
	rows := t.nearestL2(q, k, eligible)
	if len(rows) < vq.Limit && len(all) > len(rows) {
		if wide := min(t.Len(), maxKNN); wide > k {
			rows = t.nearestL2(q, wide, eligible)
		}
	}
	return rows
}

// nearestL2 is the eligible rows among the k nearest to q by L2 distance
// (squared), in table order.
func (t *VectorTable) nearestL2(q []float64, k int, eligible func(int) bool) []int {
	dist := make([]float64, t.Len())
	for i := range dist {
		v := t.Vector(i)
		var s float64
		for j := 0; j < len(v) && j < len(q); j++ {
			x := float64(float32(q[j])) - float64(v[j])
			s += x * x
		}
		dist[i] = s
	}
	bound := math.Inf(1)
	if k < len(dist) {
		sorted := slices.Clone(dist)
		slices.Sort(sorted)
		bound = sorted[k-1]
	}
	var out []int
	for i, d := range dist {
		if d <= bound && eligible(i) {
			out = append(out, i)
		}
	}
	return out
}

// CosineVec is sqlite-vec's vec_distance_cosine as OpenClaw's KNN uses
// it, turned back into a similarity (1 − distance): float32 vectors and
// sums, the division in double, the distance rounded to float32. Row i's
// stored vector is the first argument, the query the second.
func (t *VectorTable) CosineVec(q32 []float32, i int) float64 {
	v := t.Vector(i)
	n := min(len(v), len(q32))
	var dot, a, b float32
	for k := 0; k < n; k++ {
		dot += float32(v[k] * q32[k])
		a += float32(v[k] * v[k])
		b += float32(q32[k] * q32[k])
	}
	dist := float32(1 - float64(dot)/(math.Sqrt(float64(a))*math.Sqrt(float64(b))))
	return 1 - float64(dist)
}

// Refine re-scores candidates, from their exact (float64) embeddings or
// with score, keeps the best limit (ties in table order) and returns them.
func Refine(q []float64, cands []Scored, exact func(row int) []float64, score func(row int) float64, limit int) []Scored {
	out := make([]Scored, len(cands))
	for i, c := range cands {
		if score != nil {
			out[i] = Scored{c.Row, score(c.Row)}
		} else {
			out[i] = Scored{c.Row, CosineExact(q, exact(c.Row))}
		}
	}
	slices.SortStableFunc(out, func(a, b Scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return a.Row - b.Row
	})
	return out[:min(len(out), limit)]
}

// Related are the chunks nearest to row by cosine of the stored vectors,
// other than those skip rejects, best first (ties in table order).
func (t *VectorTable) Related(row, limit int, skip func(i int) bool) []Scored {
	v := t.Vector(row)
	q := make([]float64, len(v))
	for i, x := range v {
		q[i] = float64(x)
	}
	qn := l2(q)
	top := make([]Scored, 0, limit+1)
	for i := range t.IDs {
		if i == row || (skip != nil && skip(i)) {
			continue
		}
		s := t.Cosine(q, qn, i)
		if len(top) == limit && s <= top[limit-1].Score {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, s, func(e Scored, target float64) int {
			if e.Score >= target {
				return -1
			}
			return 1
		})
		top = slices.Insert(top, at, Scored{i, s})
		if len(top) > limit {
			top = top[:limit]
		}
	}
	return top
}
