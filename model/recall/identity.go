package recall

import (
	"encoding/json"
	"fmt"
	"slices"
)

// IndexMeta is the index's identity (memory_index_meta_v1): what it was
// built with. OpenClaw searches it only while that matches its settings.
type IndexMeta struct {
	Raw               string
	Model             string
	Provider          string
	ProviderKey       string
	Sources           []string
	ScopeHash         string
	ChunkTokens       *float64
	ChunkOverlap      *float64
	ChunkingVersion   *float64
	FTSTokenizer      string
	ProvenanceVersion *float64
	VectorDims        *float64
}

// ParseIndexMeta reads the meta row's JSON; nil when it is not an object.
// A field of the wrong type reads as absent (it then mismatches, as in
// OpenClaw).
func ParseIndexMeta(raw string) *IndexMeta {
	var o map[string]any
	if raw == "" || json.Unmarshal([]byte(raw), &o) != nil || o == nil {
		return nil
	}
	str := func(k string) string { s, _ := o[k].(string); return s }
	number := func(k string) *float64 {
		if f, ok := o[k].(float64); ok {
			return &f
		}
		return nil
	}
	m := &IndexMeta{Raw: raw, Model: str("model"), Provider: str("provider"), ProviderKey: str("providerKey"),
		ScopeHash: str("scopeHash"), FTSTokenizer: str("ftsTokenizer"), ChunkTokens: number("chunkTokens"),
		ChunkOverlap: number("chunkOverlap"), ChunkingVersion: number("chunkingVersion"),
		ProvenanceVersion: number("provenanceVersion"), VectorDims: number("vectorDims")}
	if list, ok := o["sources"].([]any); ok {
		m.Sources = []string{}
		for _, v := range list {
			if s, ok := v.(string); ok {
				m.Sources = append(m.Sources, s)
			}
		}
	}
	return m
}

// Identity is the embedding provider a search would use: its adapter id,
// model and the hash of its settings (providerKey). Nil for provider none.
type Identity struct {
	Provider, Model, ProviderKey string
}

// IdentityState is OpenClaw's verdict on the index's identity.
type IdentityState struct {
	// Status is valid, missing or mismatched.
	Status string
	Code   string
	Reason string
	// Owner is openclaw (its own versions) or configuration (yours).
	Owner string
	// Older: the index was written by an older OpenClaw (it rebuilds
	// such an index itself on the next search).
	Older bool
	// ChunkingOnly: only the chunking version is older; OpenClaw keeps
	// answering from the keyword index meanwhile.
	ChunkingOnly bool
}

// Valid reports an index memory_search answers from.
func (s IdentityState) Valid() bool { return s.Status == "valid" }

// IdentityCheck is what CheckIdentity compares the meta with.
type IdentityCheck struct {
	Want      *Identity // nil: provider none (keyword only)
	Config    Config
	ScopeHash string
	// VectorReady: the vector store is usable (then dims must be known).
	VectorReady bool
	HasChunks   bool
}

// CheckIdentity is OpenClaw's resolveMemoryIndexIdentityState.
func CheckIdentity(meta *IndexMeta, in IdentityCheck) IdentityState {
	if meta == nil {
		return IdentityState{Status: "missing", Code: "metadata_missing", Reason: "index metadata is missing", Owner: "openclaw"}
	}
	prov, chunking := num(meta.ProvenanceVersion), num(meta.ChunkingVersion)
	if prov > 1 || chunking > 5 {
		code := "chunking_version"
		if prov > 1 {
			code = "provenance_version"
		}
		return IdentityState{Status: "mismatched", Code: code, Owner: "openclaw",
			Reason: "the index was written by a newer OpenClaw version; upgrade OpenClaw or reindex explicitly"}
	}
	if prov < 1 {
		return IdentityState{Status: "mismatched", Code: "provenance_version", Owner: "openclaw", Older: true,
			Reason: "index provenance classifier changed"}
	}
	if chunking < 5 {
		return IdentityState{Status: "mismatched", Code: "chunking_version", Owner: "openclaw", Older: true,
			Reason: "index chunking implementation changed", ChunkingOnly: contentScope(meta, in).Valid()}
	}
	return configurationIdentity(meta, in)
}

func num(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

func configurationIdentity(meta *IndexMeta, in IdentityCheck) IdentityState {
	mismatch := func(code, reason string) IdentityState {
		return IdentityState{Status: "mismatched", Code: code, Reason: reason, Owner: "configuration"}
	}
	wantModel, wantProvider := "fts-only", "none"
	if in.Want != nil {
		wantModel, wantProvider = cmpOr(in.Want.Model, "fts-only"), in.Want.Provider
	}
	if meta.Model != wantModel {
		return mismatch("model", fmt.Sprintf("index was built for model %s, expected %s", meta.Model, wantModel))
	}
	if meta.Provider != wantProvider {
		return mismatch("provider", fmt.Sprintf("index was built for provider %s, expected %s", meta.Provider, wantProvider))
	}
	if in.Want != nil && in.Want.ProviderKey != "" && meta.ProviderKey != in.Want.ProviderKey {
		return mismatch("provider_settings", "index provider settings changed")
	}
	if s := contentScope(meta, in); !s.Valid() {
		return s
	}
	if in.VectorReady && in.HasChunks && num(meta.VectorDims) == 0 {
		return mismatch("vector_dims", "index vector dimensions are missing")
	}
	return IdentityState{Status: "valid"}
}

func contentScope(meta *IndexMeta, in IdentityCheck) IdentityState {
	mismatch := func(code, reason string) IdentityState {
		return IdentityState{Status: "mismatched", Code: code, Reason: reason, Owner: "configuration"}
	}
	if !slices.Equal(metaSources(meta.Sources), in.Config.MetaSources()) {
		return mismatch("sources", "index sources changed")
	}
	if meta.ScopeHash != in.ScopeHash {
		return mismatch("scope", "index scope changed")
	}
	if meta.ChunkTokens == nil || meta.ChunkOverlap == nil || *meta.ChunkTokens != float64(in.Config.ChunkTokens) || *meta.ChunkOverlap != float64(in.Config.ChunkOverlap) {
		return mismatch("chunking", "index chunking changed")
	}
	if cmpOr(meta.FTSTokenizer, "unicode61") != in.Config.Tokenizer {
		return mismatch("fts_tokenizer", "index FTS tokenizer changed")
	}
	return IdentityState{Status: "valid"}
}

// metaSources is the meta's source list as OpenClaw normalises it.
func metaSources(sources []string) []string {
	var out []string
	for _, s := range sources {
		if (s == "memory" || s == "sessions") && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, localeCompare)
	if len(out) == 0 {
		return []string{"memory"}
	}
	return out
}
