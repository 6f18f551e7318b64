package recall

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"
)

// jsCases are OpenClaw 2026.9.6's own answers for its small functions
// (conformance/recall-cases.mjs, run by make conformance).
type jsCases struct {
	ExtractKeywords []struct {
		Q, Tokenizer string
		Keywords     []string
	}
	BuildFtsQuery []struct {
		Q   string
		Fts *string
	}
	ExactPath []struct {
		Q, Path     string
		Specificity int
	}
	Rank []struct {
		Rank  string
		Score float64
	}
	MmrTokens []struct {
		Q      string
		Tokens []string
	}
	Truncate []struct {
		S   string
		N   int
		Out string
	}
	LocaleCompare [][3]any
	Jaccard       []struct {
		A, B []string
		J    float64
	}
}

func loadJSCases(t *testing.T) jsCases {
	t.Helper()
	data, err := os.ReadFile("testdata/js-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var c jsCases
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.ExtractKeywords) == 0 || len(c.LocaleCompare) == 0 {
		t.Fatal("js-cases.json holds no cases")
	}
	return c
}

func TestAgreesWithOpenClawFunctions(t *testing.T) {
	t.Parallel()
	c := loadJSCases(t)
	for _, k := range c.ExtractKeywords {
		if got := ExtractKeywords(k.Q, k.Tokenizer); !slices.Equal(nonNilStrings(got), nonNilStrings(k.Keywords)) {
			t.Errorf("ExtractKeywords(%q, %s) = %q, OpenClaw says %q", k.Q, k.Tokenizer, got, k.Keywords)
		}
	}
	for _, b := range c.BuildFtsQuery {
		got, ok := FTSQuery(b.Q)
		if want := b.Fts; (want == nil) == ok || (ok && got != *want) {
			t.Errorf("FTSQuery(%q) = %q %v, OpenClaw says %v", b.Q, got, ok, deref(want))
		}
	}
	for _, e := range c.ExactPath {
		if got := NewExactPath(e.Q).Specificity(e.Path); got != e.Specificity {
			t.Errorf("exact path %q of %q = %d, OpenClaw says %d", e.Q, e.Path, got, e.Specificity)
		}
	}
	for _, r := range c.Rank {
		rank, _ := strconv.ParseFloat(r.Rank, 64)
		if got := RankToScore(rank); math.Abs(got-r.Score) > 1e-15 {
			t.Errorf("RankToScore(%s) = %v, OpenClaw says %v", r.Rank, got, r.Score)
		}
	}
	for _, m := range c.MmrTokens {
		var got []string
		for tok := range mmrTokens(m.Q) {
			got = append(got, tok)
		}
		slices.Sort(got)
		if !slices.Equal(nonNilStrings(got), nonNilStrings(m.Tokens)) {
			t.Errorf("mmrTokens(%q) = %q, OpenClaw says %q", m.Q, got, m.Tokens)
		}
	}
	for _, tr := range c.Truncate {
		if got := truncateUTF16(tr.S, tr.N); got != tr.Out {
			t.Errorf("truncateUTF16(%q, %d) = %q, OpenClaw says %q", tr.S, tr.N, got, tr.Out)
		}
	}
	for _, j := range c.Jaccard {
		ids := map[string]int32{}
		if got := jaccardSorted(internTokens(set(j.A), ids), internTokens(set(j.B), ids)); got != j.J {
			t.Errorf("jaccard(%q, %q) = %v, OpenClaw says %v", j.A, j.B, got, j.J)
		}
	}
}

func TestLocaleCompareIsICU(t *testing.T) {
	t.Parallel()
	c := loadJSCases(t)
	for _, lc := range c.LocaleCompare {
		a, b, want := lc[0].(string), lc[1].(string), int(lc[2].(float64))
		if got := localeCompare(a, b); sign(got) != want {
			t.Errorf("localeCompare(%q, %q) = %d, Node says %d", a, b, sign(got), want)
		}
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func set(items []string) map[string]bool {
	m := map[string]bool{}
	for _, s := range items {
		m[s] = true
	}
	return m
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func deref(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}
