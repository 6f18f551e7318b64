package recall

import (
	"math"
	"testing"
)

func table(budget int, vecs ...[]float64) *VectorTable {
	t := &VectorTable{ExactBudget: budget}
	for i, v := range vecs {
		t.Append(int64(i+1), string(rune('a'+i)), "p", "memory", "m", 1, 1, v)
	}
	return t
}

func TestVectorTable(t *testing.T) {
	t.Parallel()
	vt := table(1<<20, []float64{1, 0}, []float64{0, 1}, []float64{1, 1}, nil, []float64{0.1, 0.2, 0.3})
	if v, ok := vt.Exact(2); !ok || v[0] != 1 || v[1] != 1 {
		t.Errorf("exact row 2: %v %v", v, ok)
	}
	if c := vt.Cosine([]float64{1, 0}, 1, 2); math.Abs(c-math.Sqrt(.5)) > 1e-7 {
		t.Errorf("cosine %v, want √½", c)
	}
	if c := vt.Cosine([]float64{1, 0}, 1, 3); c != 0 {
		t.Errorf("an undecodable vector scores %v, want 0", c)
	}
	// Over the shorter length, as OpenClaw's cosineSimilarity does.
	if c := vt.Cosine([]float64{1, 2}, math.Sqrt(5), 4); math.Abs(c-1) > 1e-6 {
		t.Errorf("prefix cosine %v, want 1", c)
	}
	got := vt.Candidates([]float64{1, 0.1}, VectorQuery{Models: []string{"m"}, Limit: 2}, 0)
	if len(got) != 2 || got[0].Row != 0 || got[1].Row != 2 {
		t.Errorf("candidates %+v, want rows 0 and 2", got)
	}
	if r := vt.Related(0, 1, nil); len(r) != 1 || r[0].Row != 2 {
		t.Errorf("related to row 0: %+v, want row 2", r)
	}
	small := table(16, []float64{1, 0}, []float64{0, 1, 0})
	if _, ok := small.Exact(0); ok {
		t.Error("a table over its budget keeps no exact vectors")
	}
	// sqlite-vec's float32 arithmetic, as OpenClaw's KNN scores.
	q32 := []float32{1, 0.5}
	if c := vt.CosineVec(q32, 2); c != 1-float64(float32(1-1.5/(math.Sqrt(2)*math.Sqrt(1.25)))) {
		t.Errorf("CosineVec %v", c)
	}
}
