package recall

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math"
	"slices"
	"strings"

	"clawvault-tui/jscompat"
)

// OpenClaw 2026.9.6's defaults for memory_search (src/agents/memory-search):
// only the result count and the minimum score are configurable; the hybrid
// weights, MMR and decay are fixed.
const (
	DefaultMaxResults   = 6
	DefaultMinScore     = 0.35
	DefaultVectorWeight = 0.7
	DefaultTextWeight   = 0.3
	DefaultMultiplier   = 4
	DefaultMMRLambda    = 0.7
	DefaultHalfLifeDays = 30
	DefaultChunkTokens  = 400
	DefaultChunkOverlap = 80
	DefaultProvider     = "openai"
)

// Config is what OpenClaw resolves from openclaw.json for an agent's
// memory search (memory.search, then agents.entries.<id>.memory.search
// over it).
type Config struct {
	Enabled  bool
	Provider string
	// Model is the configured model ("" for the provider's default).
	Model    string
	Fallback string
	Remote   Remote
	// InputType, QueryInputType, DocumentInputType: the input_type an
	// OpenAI-compatible endpoint receives.
	InputType, QueryInputType, DocumentInputType string
	Dimensions                                   *int
	// Sources are what the index holds; SearchSources what a search reads.
	Sources, SearchSources []string
	// ExtraPaths are the configured extra files and folders (path and
	// optional pattern), in order, globals first.
	ExtraPaths []ExtraPath
	Multimodal Multimodal
	Tokenizer  string
	Vector     bool
	Settings   Settings
	// ChunkTokens and ChunkOverlap are OpenClaw's fixed chunking.
	ChunkTokens, ChunkOverlap int
}

// Remote is memory.search.remote.
type Remote struct {
	BaseURL string
	// APIKey is the configured key or secret reference (a string, or an
	// object {source, provider, id}); never printed.
	APIKey  any
	Headers map[string]any
	// HeaderOrder is the headers' names in the file's order.
	HeaderOrder []string
	Set         bool
}

// ExtraPath is one entry of memory.search.extraPaths.
type ExtraPath struct {
	Path, Pattern string
	HasPattern    bool
}

// Multimodal is memory.search.multimodal, normalised.
type Multimodal struct {
	Enabled      bool
	Modalities   []string
	MaxFileBytes float64
}

// object is a JSON object read with the keys' order kept where it counts.
type object = map[string]any

func get(o object, path ...string) any {
	var v any = o
	for _, k := range path {
		m, ok := v.(object)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// AgentEntry is the agent's own entry: agents.entries.<id>, else the item
// of agents.list with that id (ids compared normalised).
func AgentEntry(cfg object, agentID string, normalize func(string) string) object {
	if entries, ok := get(cfg, "agents", "entries").(object); ok {
		for _, id := range Keys(entries) {
			if normalize(id) == normalize(agentID) {
				m, _ := entries[id].(object)
				return m
			}
		}
		return nil
	}
	list, _ := get(cfg, "agents", "list").([]any)
	for _, item := range list {
		m, _ := item.(object)
		if id, _ := m["id"].(string); m != nil && normalize(id) == normalize(agentID) {
			return m
		}
	}
	return nil
}

// layered reads a setting from the agent's override, else the defaults.
type layered struct{ over, def object }

func (l layered) get(path ...string) any {
	if v := get(l.over, path...); v != nil {
		return v
	}
	return get(l.def, path...)
}

func (l layered) str(path ...string) string {
	s, _ := l.get(path...).(string)
	return s
}

func (l layered) boolOr(def bool, path ...string) bool {
	if b, ok := l.get(path...).(bool); ok {
		return b
	}
	return def
}

// ResolveConfig is OpenClaw's resolveMemorySearchConfig for agentID over
// the decoded openclaw.json. ok is false when memory search is disabled.
func ResolveConfig(cfg object, agentID string, normalize func(string) string) (Config, bool) {
	entry := AgentEntry(cfg, agentID, normalize)
	l := layered{over: objectAt(entry, "memory", "search"), def: objectAt(cfg, "memory", "search")}
	c := Config{Enabled: l.boolOr(true, "enabled"), ChunkTokens: DefaultChunkTokens, ChunkOverlap: DefaultChunkOverlap}
	if !c.Enabled {
		return c, false
	}
	remember := rememberAcross(cfg, l)
	sessionMemory, _ := l.get("experimental", "sessionMemory").(bool)
	configured := stringList(l.get("sources"))
	c.SearchSources = normalizeSources(configured, sessionMemory || (remember && slices.Contains(configured, "sessions")))
	if remember {
		c.Sources = normalizeSources(append(slices.Clone(c.SearchSources), "sessions"), true)
	} else {
		c.Sources = normalizeSources(configured, sessionMemory)
	}
	c.ExtraPaths = dedupeExtraPaths(append(extraPaths(get(l.def, "extraPaths")), extraPaths(get(l.over, "extraPaths"))...))
	c.Settings = Settings{
		MaxResults: DefaultMaxResults, MinScore: DefaultMinScore,
		VectorWeight: DefaultVectorWeight, TextWeight: DefaultTextWeight, Multiplier: DefaultMultiplier,
		MMR: true, MMRLambda: DefaultMMRLambda, Decay: true, HalfLifeDays: DefaultHalfLifeDays,
	}
	if n, ok := l.get("query", "maxResults").(float64); ok {
		c.Settings.MaxResults = int(n)
	}
	if n, ok := l.get("query", "minScore").(float64); ok {
		c.Settings.MinScore = math.Max(0, math.Min(1, n))
	}
	raw := strings.TrimSpace(l.str("provider"))
	c.Provider = raw
	if raw == "" || raw == "auto" {
		c.Provider = DefaultProvider
	}
	c.Fallback = cmpOr(l.str("fallback"), "none")
	c.Model = l.str("model")
	c.InputType = strings.TrimSpace(l.str("inputType"))
	c.QueryInputType = strings.TrimSpace(l.str("queryInputType"))
	c.DocumentInputType = strings.TrimSpace(l.str("documentInputType"))
	if n, ok := l.get("outputDimensionality").(float64); ok {
		d := int(n)
		c.Dimensions = &d
	}
	c.Remote = resolveRemote(objectAt(entry, "memory", "search", "remote"), objectAt(cfg, "memory", "search", "remote"))
	c.Multimodal = resolveMultimodal(l)
	c.Tokenizer = cmpOr(l.str("store", "fts", "tokenizer"), "unicode61")
	c.Vector = l.boolOr(true, "store", "vector", "enabled")
	return c, true
}

func objectAt(o object, path ...string) object {
	m, _ := get(o, path...).(object)
	return m
}

func stringList(v any) []string {
	items, _ := v.([]any)
	var out []string
	for _, it := range items {
		if s, ok := it.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// rememberAcross is rememberAcrossConversations: explicit, else on unless
// direct messages are isolated (session.dmScope, or a binding's).
func rememberAcross(cfg object, l layered) bool {
	if b, ok := l.get("rememberAcrossConversations").(bool); ok {
		return b
	}
	if scope := get(cfg, "session", "dmScope"); scope != nil && scope != "main" {
		return false
	}
	bindings, _ := get(cfg, "bindings").([]any)
	for _, b := range bindings {
		if s, ok := get(objectOf(b), "session").(object); ok && s["dmScope"] != nil {
			return false
		}
	}
	return true
}

func objectOf(v any) object {
	m, _ := v.(object)
	return m
}

func normalizeSources(sources []string, sessions bool) []string {
	if len(sources) == 0 {
		sources = []string{"memory"}
	}
	var out []string
	for _, s := range sources {
		if (s == "memory" || (s == "sessions" && sessions)) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		out = []string{"memory"}
	}
	return out
}

func extraPaths(v any) []ExtraPath {
	items, _ := v.([]any)
	var out []ExtraPath
	for _, it := range items {
		var e ExtraPath
		switch x := it.(type) {
		case string:
			e.Path = jscompat.JSTrim(x)
		case object:
			p, _ := x["path"].(string)
			pat, _ := x["pattern"].(string)
			e.Path, e.Pattern = jscompat.JSTrim(p), jscompat.JSTrim(pat)
			e.HasPattern = e.Pattern != ""
		}
		if e.Path != "" && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// dedupeExtraPaths keeps the first of each (path, pattern), as OpenClaw's
// normalizeConfiguredMemoryExtraPaths does over the joined lists.
func dedupeExtraPaths(in []ExtraPath) []ExtraPath {
	var out []ExtraPath
	for _, e := range in {
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

func resolveRemote(over, def object) Remote {
	r := Remote{}
	pick := func(k string) any {
		if v := get(over, k); v != nil {
			return v
		}
		return get(def, k)
	}
	r.BaseURL, _ = pick("baseUrl").(string)
	r.APIKey = pick("apiKey")
	if h, ok := pick("headers").(object); ok {
		r.Headers = h
	}
	r.Set = over != nil || def != nil
	return r
}

func resolveMultimodal(l layered) Multimodal {
	m := Multimodal{MaxFileBytes: 10 * 1024 * 1024}
	m.Enabled, _ = l.get("multimodal", "enabled").(bool)
	if n, ok := l.get("multimodal", "maxFileBytes").(float64); ok && !math.IsInf(n, 0) && !math.IsNaN(n) {
		m.MaxFileBytes = math.Max(1, math.Floor(n))
	}
	if !m.Enabled {
		return m
	}
	raw, listed := l.get("multimodal", "modalities").([]any)
	mods := stringList(raw)
	if !listed || slices.Contains(mods, "all") {
		m.Modalities = []string{"image", "audio"}
		return m
	}
	for _, s := range mods {
		if (s == "image" || s == "audio") && !slices.Contains(m.Modalities, s) {
			m.Modalities = append(m.Modalities, s)
		}
	}
	return m
}

// ScopeHash is the index identity's scopeHash: the SHA-256 of the extra
// paths (resolved against the workspace, sorted) and the multimodal
// settings, as OpenClaw serialises them. resolve turns a configured path
// into the absolute one OpenClaw would (path.resolve, ~ expanded).
func (c Config) ScopeHash(resolve func(string) string) string {
	var entries []string
	for _, e := range c.ExtraPaths {
		p := strings.ReplaceAll(resolve(e.Path), `\`, "/")
		if e.HasPattern && e.Pattern != "" {
			entries = append(entries, `{"path":`+jsString(p)+`,"pattern":`+jsString(strings.ReplaceAll(e.Pattern, `\`, "/"))+`}`)
		} else {
			entries = append(entries, jsString(p))
		}
	}
	slices.SortStableFunc(entries, localeCompare)
	mods := slices.Clone(c.Multimodal.Modalities)
	slices.Sort(mods)
	var b strings.Builder
	b.WriteString(`{"extraPaths":[` + strings.Join(entries, ",") + `],"multimodal":{"enabled":`)
	b.WriteString(boolJSON(c.Multimodal.Enabled) + `,"modalities":[`)
	for i, m := range mods {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsString(m))
	}
	b.WriteString(`],"maxFileBytes":` + string(jscompat.AppendJSNumber(nil, c.Multimodal.MaxFileBytes)) + `}}`)
	return sha256Hex(b.String())
}

func jsString(s string) string { return string(jscompat.AppendJSString(nil, s)) }

func boolJSON(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// MetaSources is the configured sources as the index meta lists them.
func (c Config) MetaSources() []string {
	out := slices.Clone(c.Sources)
	slices.SortFunc(out, localeCompare)
	return out
}

// OrderKey is the member of every object DecodeJSON returns that lists
// the object's keys in the file's order (JSON.stringify of a config
// object follows it; Go maps do not).
const OrderKey = "\x00order"

// DecodeJSON decodes openclaw.json's object (after JSON5 comments and
// trailing commas are stripped): numbers as float64, every object with
// its keys' order under OrderKey.
func DecodeJSON(data []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the top-level value")
	}
	o, ok := v.(object)
	if !ok {
		return nil, errors.New("the top-level value is not an object")
	}
	return o, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := object{}
			var order []string
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				if _, dup := o[k]; !dup {
					order = append(order, k)
				}
				o[k] = v
			}
			o[OrderKey] = order
			_, err := dec.Token()
			return o, err
		case '[':
			var a []any
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			if a == nil {
				a = []any{}
			}
			_, err := dec.Token()
			return a, err
		}
	}
	return tok, nil
}

// Keys are an object's keys in order (OrderKey's, else sorted).
func Keys(o map[string]any) []string {
	if order, ok := o[OrderKey].([]string); ok {
		return order
	}
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// LocaleCompare is JavaScript's localeCompare (ICU root collation).
func LocaleCompare(a, b string) int { return localeCompare(a, b) }

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// DefaultAgentID is OpenClaw's resolveDefaultAgentId: among
// agents.entries (else agents.list), the one marked default, else the
// first; main when there is none.
func DefaultAgentID(cfg object, normalize func(string) string) string {
	var ids []string
	var def string
	if entries, ok := get(cfg, "agents", "entries").(object); ok {
		for _, id := range Keys(entries) {
			ids = append(ids, id)
			if b, _ := get(objectOf(entries[id]), "default").(bool); b && def == "" {
				def = id
			}
		}
	} else {
		list, _ := get(cfg, "agents", "list").([]any)
		for _, item := range list {
			id, _ := objectOf(item)["id"].(string)
			ids = append(ids, id)
			if b, _ := objectOf(item)["default"].(bool); b && def == "" {
				def = id
			}
		}
	}
	if def == "" && len(ids) > 0 {
		def = ids[0]
	}
	if def == "" {
		return "main"
	}
	return normalize(def)
}
