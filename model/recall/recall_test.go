package recall

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func defaults() Settings {
	return Settings{MaxResults: 6, MinScore: .35, VectorWeight: .7, TextWeight: .3, Multiplier: 4,
		MMR: true, MMRLambda: .7, Decay: true, HalfLifeDays: 30}
}

const now = 1795262400000.0 // 2026-11-21T12:00:00Z

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestMergeScoresDecayAndImportance(t *testing.T) {
	t.Parallel()
	nine := 9.0
	vector := []Hit{
		{ID: "mem", Path: "MEMORY.md", Source: "memory", StartLine: 4, EndLine: 4, Score: .6, Snippet: "dark roast coffee morning"},
		{ID: "day", Path: "memory/2026-10-22.md", Source: "memory", StartLine: 1, EndLine: 2, Score: .8, Snippet: "beans from ethiopia"},
		{ID: "imp", Path: "memory/projects/x.md", Source: "memory", StartLine: 1, EndLine: 1, Score: .5, Snippet: "tuesday deploys",
			Meta: Meta{Importance: &nine}},
	}
	keyword := []Hit{{ID: "mem", Path: "MEMORY.md", Source: "memory", StartLine: 4, EndLine: 4, Score: 1, TextScore: .7, HasBody: true, Snippet: "dark roast coffee morning"}}
	s := defaults()
	s.MMR = false
	out := Merge("dark roast", vector, keyword, s, Timestamps{NowMs: now})
	got := map[string]*Entry{}
	for _, e := range out {
		got[e.ID] = e
	}
	if e := got["mem"]; !near(e.Score, .7*.6+.3*1) || e.Decayed {
		t.Errorf("MEMORY.md: score %v decayed %v, want 0.72 undecayed (evergreen, boosted keyword score 1)", e.Score, e.Decayed)
	}
	// 2026-10-22 midnight UTC is 30.5 days before now.
	if e := got["day"]; !near(e.Score, .7*.8*math.Exp(-math.Ln2/30*30.5)) || !near(e.AgeDays, 30.5) {
		t.Errorf("daily note: score %v age %v, want 0.56 halved over 30.5 days", e.Score, e.AgeDays)
	}
	if e := got["imp"]; !near(e.Score, .7*.5*(.75+9*.05)) || e.ImportanceFactor != 1.2 {
		t.Errorf("importance 9: score %v factor %v, want ×1.2", e.Score, e.ImportanceFactor)
	}
	if out[0].ID != "mem" || out[1].ID != "imp" || out[2].ID != "day" {
		t.Errorf("order %v, want mem, imp, day by score", ids(out))
	}
}

func ids(es []*Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

func TestMergeExactPathFirstScoredOne(t *testing.T) {
	t.Parallel()
	vector := []Hit{
		{ID: "a", Path: "memory/2026-11-01.md", Source: "memory", Score: .9, Snippet: "lots about vlans"},
		{ID: "v", Path: "memory/vlan.md", Source: "memory", Score: .1, Snippet: "vlan notes"},
	}
	out := Merge("vlan", vector, nil, defaults(), Timestamps{NowMs: now})
	if out[0].ID != "v" || out[0].Score != 1 || out[0].Specificity != 1 {
		t.Fatalf("first %s score %v specificity %d, want the file named by the query, scored 1 (stem match)", out[0].ID, out[0].Score, out[0].Specificity)
	}
}

func TestMMRPushesNearDuplicateDown(t *testing.T) {
	t.Parallel()
	vector := []Hit{
		{ID: "a", Path: "MEMORY.md", Score: .90, Snippet: "the user likes dark roast coffee in the morning"},
		{ID: "b", Path: "USER.md", Score: .89, Snippet: "the user likes dark roast coffee in the morning"},
		{ID: "c", Path: "memory/projects/x.md", Score: .885, Snippet: "router vlan migration on tuesday"},
	}
	out := Merge("coffee", vector, nil, defaults(), Timestamps{NowMs: now})
	if got := ids(out); !slices.Equal(got, []string{"a", "c", "b"}) {
		t.Fatalf("order %v, want a, c, b: b repeats a word for word", got)
	}
	if b := out[2]; b.SimilarTo != "a" || b.Similarity != 1 || b.PreMMR != 1 {
		t.Errorf("b similar to %q (%v), pre-MMR %d; want a, 1, 1", b.SimilarTo, b.Similarity, b.PreMMR)
	}
}

func TestSelectHybridFillsWithKeywordMatches(t *testing.T) {
	t.Parallel()
	mk := func(id string, score, vec float64) *Entry {
		return &Entry{Hit: Hit{ID: id, Path: id, Source: "memory", StartLine: 1, EndLine: 1, Score: score, VectorScore: vec}}
	}
	kw := func(ids ...string) []Hit {
		var out []Hit
		for _, id := range ids {
			out = append(out, Hit{ID: id, Path: id, Source: "memory", StartLine: 1, EndLine: 1})
		}
		return out
	}
	cases := []struct {
		name    string
		merged  []*Entry
		keyword []Hit
		limit   int
		want    []string
	}{
		{"strict only without keywords", []*Entry{mk("a", .5, .5), mk("b", .2, 0)}, nil, 6, []string{"a"}},
		{"keyword-only below the minimum fills up", []*Entry{mk("a", .5, .5), mk("b", .2, 0), mk("c", .1, .1)}, kw("b", "c"), 6, []string{"a", "b"}},
		{"full list takes no fill", []*Entry{mk("a", .5, .5), mk("b", .2, 0)}, kw("b"), 1, []string{"a"}},
		{"nothing reaches it: keyword matches with a score", []*Entry{mk("a", .2, .2), mk("b", .1, 0), mk("c", .3, .3)}, kw("a", "b"), 6, []string{"a", "b"}},
	}
	for _, c := range cases {
		got := ids(SelectHybrid(c.merged, c.keyword, c.limit, .35))
		if !slices.Equal(nonNilStrings(got), c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDatesAndEvergreen(t *testing.T) {
	t.Parallel()
	cases := []struct {
		path             string
		dated, evergreen bool
		fileTime         bool
	}{
		{"MEMORY.md", false, true, false},
		{"USER.md", false, true, false},
		{"memory.md", false, false, true},
		{"memory/2026-11-20.md", true, false, false},
		{"memory/2026-11-01-meeting.md", true, false, false},
		{"memory/2026/2026-11-01.md", true, false, false},
		{"./memory/2026-11-20.md", true, false, false},
		{"memory/2026-02-30.md", false, false, true},
		{"memory/0099-01-01.md", false, false, true},
		{"memory/projects/router.md", false, true, false},
		{"notes/team.md", false, false, true},
		{"../outside/2026-11-20.md", false, false, true},
		{"archive/memory/2026-11-20.md", true, false, false},
	}
	for _, c := range cases {
		_, dated := NoteDate(c.path)
		if dated != c.dated || Evergreen(c.path) != c.evergreen || NeedsFileTime("memory", c.path) != c.fileTime {
			t.Errorf("%s: dated %v evergreen %v file time %v, want %v %v %v", c.path, dated, Evergreen(c.path),
				NeedsFileTime("memory", c.path), c.dated, c.evergreen, c.fileTime)
		}
	}
	if d, _ := NoteDate("memory/2026-11-20.md"); d != 1795132800000 {
		t.Errorf("2026-11-20 is %v ms, want midnight UTC", d)
	}
}

func TestPlans(t *testing.T) {
	t.Parallel()
	if p := BodyPlan("AI in the UK", "trigram"); p.Match != `"the"` || !slices.Equal(p.Substring, []string{"AI", "in", "UK"}) {
		t.Errorf("trigram plan %+v: words under three characters are substrings", p)
	}
	if p := BodyPlan("AI in the UK", "unicode61"); p.Match != `"AI" AND "in" AND "the" AND "UK"` || p.Substring != nil {
		t.Errorf("unicode61 plan %+v: every word in the MATCH", p)
	}
	plans := PathPlans("café notes", "unicode61")
	if len(plans) != 3 || plans[1].Match != `"notes"` || !slices.Equal(plans[1].Substring, []string{"café"}) ||
		!slices.Equal(plans[2].Substring, []string{"cafe\u0301"}) {
		t.Errorf("path plans %+v: the MATCH, then ASCII words matched and the others (NFC, NFD) as substrings", plans)
	}
	if p := PathPlans("...", "unicode61"); len(p) != 1 || !p[0].Empty() {
		t.Errorf("a query without words has one empty plan, got %+v", p)
	}
}

func TestBoosterScore(t *testing.T) {
	t.Parallel()
	b := NewBooster("dark roast coffee")
	text := "- The user prefers dark roast coffee in the morning."
	// 3 of 3 words, 3 of 9 distinct tokens, no word in the path, 52/160.
	want := math.Min(1, .5+(1*.45+3.0/9*.2+0+52.0/160))
	if got := b.Score("MEMORY.md", text, .5); !near(got, want) {
		t.Errorf("boost %v, want %v", got, want)
	}
	if got := NewBooster("coffee").Score("memory/coffee.md", "tea", 0); !near(got, .18+3.0/160) {
		t.Errorf("path boost %v, want 0.18 for the word in the path plus the length", got)
	}
}

func TestKeywordMergeAndLimit(t *testing.T) {
	t.Parallel()
	body := []Hit{{ID: "1", Path: "memory/a.md", Source: "memory", Score: .8, TextScore: .6, HasBody: true, Snippet: "short"}}
	path := []Hit{
		{ID: "1", Path: "memory/a.md", Source: "memory", Score: .4, PathScore: .4, Snippet: "longer snippet"},
		{ID: "2", Path: "memory/b.md", Source: "memory", Score: .5, PathScore: .5, Snippet: "b"},
		{ID: "3", Path: "memory/router.md", Source: "memory", Score: .1, PathScore: .1, Snippet: "r"},
	}
	got := MergeKeywordHits([][]Hit{body, path}, "router")
	if got[0].ID != "3" || got[0].Score != 1 || got[0].Specificity != 1 {
		t.Fatalf("first %+v: the exact path comes first scored 1", got[0])
	}
	if h := got[1]; h.ID != "1" || h.Score != .8 || h.PathScore != .4 || h.Snippet != "short" || !h.HasBody {
		t.Errorf("merged hit %+v: body score kept, best path score, the body's snippet", h)
	}
	if lim := LimitKeywordHits(got, 1); len(lim) != 2 || lim[0].ID != "3" || lim[1].ID != "1" {
		t.Errorf("limit 1 keeps the exact path and one other: %v", lim)
	}
}

func TestLike(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pattern, s string
		want       bool
	}{
		{"vlan", "VLAN", true}, {"%/vlan.%", "memory/vlan.md", true}, {`memory\_x`, "memory_x", true},
		{`memory\_x`, "memoryax", false}, {"a_c", "abc", true}, {"a_c", "ac", false}, {"é", "É", false}, {"%", "", true},
	}
	for _, c := range cases {
		if got := Like(c.pattern, c.s); got != c.want {
			t.Errorf("%q LIKE %q = %v, want %v", c.s, c.pattern, got, c.want)
		}
	}
}

func TestCheckIdentity(t *testing.T) {
	t.Parallel()
	c, _ := ResolveConfig(map[string]any{}, "main", strings.ToLower)
	meta := func(edit string) *IndexMeta {
		raw := `{"model":"m","provider":"openai","providerKey":"k","sources":["memory","sessions"],"scopeHash":"s",` +
			`"chunkTokens":400,"chunkOverlap":80,"chunkingVersion":5,"ftsTokenizer":"unicode61","provenanceVersion":1,"vectorDims":64` + edit + `}`
		return ParseIndexMeta(raw)
	}
	want := &Identity{Provider: "openai", Model: "m", ProviderKey: "k"}
	cases := []struct {
		edit, code string
	}{
		{"", ""}, {`,"model":"other"`, "model"}, {`,"provider":"ollama"`, "provider"}, {`,"providerKey":"x"`, "provider_settings"},
		{`,"sources":["memory"]`, "sources"}, {`,"scopeHash":"t"`, "scope"}, {`,"chunkTokens":300`, "chunking"},
		{`,"ftsTokenizer":"trigram"`, "fts_tokenizer"}, {`,"chunkingVersion":4`, "chunking_version"}, {`,"provenanceVersion":2`, "provenance_version"},
	}
	for _, tc := range cases {
		st := CheckIdentity(meta(tc.edit), IdentityCheck{Want: want, Config: c, ScopeHash: "s", HasChunks: true})
		if st.Code != tc.code || st.Valid() != (tc.code == "") {
			t.Errorf("meta%s: %+v, want code %q", tc.edit, st, tc.code)
		}
	}
	if st := CheckIdentity(nil, IdentityCheck{Want: want, Config: c}); st.Status != "missing" {
		t.Errorf("no meta: %+v, want missing", st)
	}
}

func TestResolveConfig(t *testing.T) {
	t.Parallel()
	raw, err := DecodeJSON([]byte(`{
  "memory": {"search": {"provider": "auto", "query": {"maxResults": 10, "minScore": 1.5}, "sources": ["memory", "sessions"]}},
  "agents": {"entries": {"Work": {"memory": {"search": {"model": "m2", "query": {"minScore": 0.2}, "rememberAcrossConversations": false}}}}},
  "session": {"dmScope": "per-peer"}
}`))
	if err != nil {
		t.Fatal(err)
	}
	main, _ := ResolveConfig(raw, "main", strings.ToLower)
	if main.Provider != "openai" || main.Settings.MaxResults != 10 || main.Settings.MinScore != 1 ||
		!slices.Equal(main.Sources, []string{"memory"}) || !slices.Equal(main.SearchSources, []string{"memory"}) {
		t.Errorf("main: %+v; want openai, 10 results, min score clamped to 1, memory only (sessions need sessionMemory)", main)
	}
	work, _ := ResolveConfig(raw, "work", strings.ToLower)
	if work.Model != "m2" || work.Settings.MinScore != .2 || work.Settings.MaxResults != 10 {
		t.Errorf("work: %+v; want the override's model and min score over the defaults", work)
	}
	def, _ := ResolveConfig(map[string]any{}, "main", strings.ToLower)
	if !slices.Equal(def.Sources, []string{"memory", "sessions"}) || !slices.Equal(def.SearchSources, []string{"memory"}) {
		t.Errorf("defaults: sources %v search %v; remembering across conversations indexes sessions but searches memory", def.Sources, def.SearchSources)
	}
	if _, on := ResolveConfig(map[string]any{"memory": map[string]any{"search": map[string]any{"enabled": false}}}, "main", strings.ToLower); on {
		t.Error("memory.search.enabled false must disable it")
	}
}

func TestExplainCodes(t *testing.T) {
	t.Parallel()
	s := defaults()
	decayed := &Entry{Hit: Hit{ID: "d", Path: "memory/2026-09-01.md", Score: .1}, BaseScore: .6, ImportanceFactor: 1,
		Decayed: true, DecayFactor: .15, AgeDays: 81}
	low := &Entry{Hit: Hit{ID: "l", Path: "USER.md", Score: .2}, BaseScore: .2, ImportanceFactor: 1, DecayFactor: 1}
	mmrd := &Entry{Hit: Hit{ID: "m", Path: "memory/x.md", Score: .5}, RankPassing: 8, RankPassingNoMMR: 3, SimilarTo: "r", Similarity: .9}
	far := &Entry{Hit: Hit{ID: "f", Path: "memory/y.md", Score: .5}, RankPassing: 9, RankPassingNoMMR: 9}
	ret := &Entry{Hit: Hit{ID: "r", Path: "MEMORY.md", Score: .7}}
	sc := Scene{Status: "ok", Settings: s, Results: []*Entry{ret}, Candidates: 200, Describe: func(id string) string { return id }}
	chunk := func(e *Entry, rank int) []ChunkFacts { return []ChunkFacts{{ID: e.ID, Entry: e, ResultRank: rank}} }
	cases := []struct {
		f    FileFacts
		sc   Scene
		code string
	}{
		{FileFacts{Path: "x", OnDisk: false}, sc, NoSuchFile},
		{FileFacts{Path: "x", NotRegular: "is a named pipe (FIFO), not a regular file"}, sc, NotRegular},
		{FileFacts{Path: "notes/a.md", OnDisk: true}, sc, NotMemory},
		{FileFacts{Path: "memory/new.md", OnDisk: true, Eligible: true}, sc, NotIndexed},
		{FileFacts{Path: "e.md", Indexed: true}, sc, NoChunks},
		{FileFacts{Path: "MEMORY.md", Indexed: true, Chunks: chunk(ret, 1)}, sc, Returned},
		{FileFacts{Path: "d", Indexed: true, Chunks: chunk(decayed, 0)}, sc, DecayedBelow},
		{FileFacts{Path: "l", Indexed: true, Chunks: chunk(low, 0)}, sc, BelowMinScore},
		{FileFacts{Path: "m", Indexed: true, Chunks: chunk(mmrd, 0)}, sc, DroppedByMMR},
		{FileFacts{Path: "f", Indexed: true, Chunks: chunk(far, 0)}, sc, BeyondCount},
		{FileFacts{Path: "n", Indexed: true, Chunks: []ChunkFacts{{ID: "n", HasVector: true, Vector: .1, VectorRank: 300, VectorOf: 400}}}, sc, NotCandidate},
		{FileFacts{Path: "MEMORY.md", Indexed: true, Chunks: chunk(ret, 1)}, Scene{Status: Unavailable, StatusReason: "down"}, Unavailable},
		{FileFacts{Path: "MEMORY.md", Indexed: true, Chunks: chunk(ret, 1)}, Scene{Status: IdentityMismatch, StatusReason: "model"}, IdentityMismatch},
	}
	for _, c := range cases {
		e := Explain(c.f, c.sc)
		if e.Code != c.code || e.Reason == "" {
			t.Errorf("%s: %s (%s), want %s", c.f.Path, e.Code, e.Reason, c.code)
		}
	}
}

func TestDefaultAgentID(t *testing.T) {
	t.Parallel()
	cases := []struct{ cfg, want string }{
		{`{}`, "main"},
		{`{"agents":{"list":[{"id":"ops"},{"id":"Work","default":true}]}}`, "work"},
		{`{"agents":{"list":[{"id":"ops"},{"id":"work"}]}}`, "ops"},
		{`{"agents":{"entries":{"zed":{},"alpha":{"default":true}}}}`, "alpha"},
		{`{"agents":{"entries":{"zed":{},"alpha":{}}}}`, "zed"},
	}
	for _, c := range cases {
		raw, err := DecodeJSON([]byte(c.cfg))
		if err != nil {
			t.Fatal(err)
		}
		if got := DefaultAgentID(raw, strings.ToLower); got != c.want {
			t.Errorf("%s: %s, want %s", c.cfg, got, c.want)
		}
	}
}
