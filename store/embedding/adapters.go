package embedding

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"clawvault-tui/jscompat"
	"clawvault-tui/model/recall"
)

const (
	openAIBaseURL       = "https://api.openai.com/v1"
	openAIDefaultModel  = "text-embedding-3-small"
	ollamaBaseURL       = "http://127.0.0.1:11434"
	ollamaDefaultModel  = "nomic-embed-text"
	openAICompatibleID  = "openai-compatible"
	ollamaCloudBaseHost = "ollama.com"
)

var envTemplateRE = jscompat.LazyRegexp(`^\$\{([A-Z][A-Z0-9_]{0,127})\}$|^\$([A-Z][A-Z0-9_]{0,127})$`)

// secret resolves a configured secret: a literal string, or a reference
// to an environment variable ({source: "env", id}, "${NAME}", "$NAME").
// where names the setting for messages; the value is never in one.
func (r resolver) secret(v any, where string) (value, source string, err error) {
	switch x := v.(type) {
	case nil:
		return "", "", nil
	case string:
		s := jscompat.JSTrim(x)
		if m := envTemplateRE().FindStringSubmatch(s); m != nil {
			name := m[1] + m[2]
			return jscompat.JSTrim(r.env.Getenv(name)), "$" + name + " (named by " + where + ")", nil
		}
		return s, where, nil
	case map[string]any:
		src, _ := x["source"].(string)
		id, _ := x["id"].(string)
		if src == "env" && id != "" {
			return jscompat.JSTrim(r.env.Getenv(id)), "$" + id + " (named by " + where + ")", nil
		}
		return "", "", fmt.Errorf("%s is a %q secret reference, which only a running gateway resolves; put the key in an environment variable and reference it with {source: \"env\", id: …}", where, src)
	}
	return "", "", fmt.Errorf("%s is neither a string nor a secret reference", where)
}

// headerList resolves a headers object in its keys' order.
func (r resolver) headerList(h map[string]any, where string) ([][2]string, error) {
	var out [][2]string
	for _, k := range recall.Keys(h) {
		v, _, err := r.secret(h[k], where+"."+k)
		if err != nil {
			return nil, err
		}
		if v != "" {
			out = append(out, [2]string{k, v})
		}
	}
	return out, nil
}

// setHeader sets name (case-insensitively) keeping the first position,
// as an object assignment does.
func setHeader(h [][2]string, name, value string) [][2]string {
	for i := range h {
		if strings.EqualFold(h[i][0], name) {
			h[i] = [2]string{name, value}
			return h
		}
	}
	return append(h, [2]string{name, value})
}

func headerValue(h [][2]string, name string) string {
	for _, kv := range h {
		if strings.EqualFold(kv[0], name) {
			return kv[1]
		}
	}
	return ""
}

func (r resolver) providerStr(key string) string {
	s, _ := r.entry[key].(string)
	return jscompat.JSTrim(s)
}

func (r resolver) remoteHeaders() ([][2]string, error) {
	return r.headerList(r.c.Remote.Headers, "memory.search.remote.headers")
}

func (r resolver) providerHeaders() ([][2]string, error) {
	h, _ := r.entry["headers"].(map[string]any)
	return r.headerList(h, "models.providers."+r.entryID+".headers")
}

// openAICompatible is OpenClaw's createOpenAICompatibleEmbeddingClient.
func (r resolver) openAICompatible() (*Provider, error) {
	configured := r.c.Provider
	providerID := configured
	if r.entry != nil && !compatibleEntry(r.entryID, r.entry) {
		r.entry, r.entryID = nil, ""
	}
	if r.entry != nil {
		providerID = r.entryID
	}
	providerBase := r.providerStr("baseUrl")
	base := cmpOr(jscompat.JSTrim(r.c.Remote.BaseURL), providerBase)
	if base == "" {
		return nil, errors.New("openai-compatible embeddings: missing remote.baseUrl (memory.search.remote.baseUrl names the endpoint, for example http://127.0.0.1:11434/v1)")
	}
	base = strings.TrimRight(base, "/")
	model := jscompat.JSTrim(r.c.Model)
	if model == "" {
		return nil, errors.New("openai-compatible embeddings: missing model (memory.search.model names the embedding model your server expects)")
	}
	model = stripPrefixes(model, uniqueStrings(jscompat.JSTrim(configured)+"/", normalizeProviderID(configured)+"/", openAICompatibleID+"/")...)
	owns := providerBase != "" && ownsDestination(base, providerBase)
	h := [][2]string{{"accept", "application/json"}, {"content-type", "application/json"}}
	if owns {
		ph, err := r.providerHeaders()
		if err != nil {
			return nil, err
		}
		for _, kv := range ph {
			h = setHeader(h, strings.ToLower(strings.TrimSpace(kv[0])), kv[1])
		}
	}
	rh, err := r.remoteHeaders()
	if err != nil {
		return nil, err
	}
	for _, kv := range rh {
		h = setHeader(h, strings.ToLower(strings.TrimSpace(kv[0])), kv[1])
	}
	key, source, err := r.secret(r.c.Remote.APIKey, "memory.search.remote.apiKey")
	if err != nil {
		return nil, err
	}
	if key == "" && owns && headerValue(h, "authorization") == "" {
		key, source, err = r.secret(r.entry["apiKey"], "models.providers."+r.entryID+".apiKey")
		if err != nil {
			return nil, err
		}
	}
	var cacheHeaders [][2]string
	for _, kv := range h {
		if !sensitiveHeader(kv[0]) {
			cacheHeaders = append(cacheHeaders, kv)
		}
	}
	if key != "" && headerValue(h, "authorization") == "" {
		h = append(h, [2]string{"authorization", "Bearer " + key})
	}
	endpoint, err := endpointURL(base, "embeddings")
	if err != nil {
		return nil, err
	}
	p := &Provider{ID: openAICompatibleID, Configured: configured, Model: model, BaseURL: base, Endpoint: endpoint,
		headers: h, KeySource: source, Dimensions: r.c.Dimensions, QueryInputType: cmpOr(r.c.QueryInputType, r.c.InputType)}
	var hdr any
	if len(cacheHeaders) > 0 {
		hdr = rawJSON(headersObject(cacheHeaders))
	}
	p.CacheKeyData = jsonObject("provider", providerID, "baseUrl", base, "model", model, "dimensions", intOrNil(r.c.Dimensions),
		"inputType", strOrNil(r.c.InputType), "queryInputType", strOrNil(r.c.QueryInputType),
		"documentInputType", strOrNil(r.c.DocumentInputType), "headers", hdr)
	return p, nil
}

func compatibleEntry(id string, e map[string]any) bool {
	api, _ := e["api"].(string)
	base, _ := e["baseUrl"].(string)
	api = normalizeProviderID(api)
	return normalizeProviderID(id) == openAICompatibleID || api == "openai-completions" || api == "openai-responses" ||
		(api == "" && strings.TrimSpace(base) != "")
}

func sensitiveHeader(name string) bool {
	n := strings.ToLower(name)
	return n == "authorization" || n == "proxy-authorization" || strings.Contains(n, "api-key") ||
		strings.Contains(n, "token") || strings.Contains(n, "secret")
}

func headersObject(h [][2]string) string {
	members := make([]any, 0, 2*len(h))
	for _, kv := range h {
		members = append(members, kv[0], kv[1])
	}
	return jsonObject(members...)
}

// openAI is OpenClaw's OpenAI adapter (resolveRemoteEmbeddingBearerClient
// with api.openai.com as the default destination).
func (r resolver) openAI() (*Provider, error) {
	if e, ok := r.providers["openai"].(map[string]any); ok {
		r.entry, r.entryID = e, "openai"
	} else {
		r.entry, r.entryID = nil, ""
	}
	providerBase := cmpOr(r.providerStr("baseUrl"), openAIBaseURL)
	base := cmpOr(jscompat.JSTrim(r.c.Remote.BaseURL), providerBase)
	owns := ownsDestination(base, providerBase)
	var overrides [][2]string
	if owns {
		ph, err := r.providerHeaders()
		if err != nil {
			return nil, err
		}
		overrides = ph
	}
	rh, err := r.remoteHeaders()
	if err != nil {
		return nil, err
	}
	for _, kv := range rh {
		overrides = setHeader(overrides, kv[0], kv[1])
	}
	key, source, err := r.secret(r.c.Remote.APIKey, "memory.search.remote.apiKey")
	if err != nil {
		return nil, err
	}
	explicitAuth := headerValue(overrides, "authorization") != ""
	if !explicitAuth && key == "" && owns {
		key, source, err = r.openAIKey()
		if err != nil {
			return nil, err
		}
	}
	if !explicitAuth && key == "" {
		return nil, fmt.Errorf("openai embedding credentials are not configured for %s: set memory.search.remote.apiKey, models.providers.openai.apiKey or OPENAI_API_KEY", base)
	}
	h := [][2]string{{"Content-Type", "application/json"}}
	if key != "" && !explicitAuth {
		h = append(h, [2]string{"Authorization", "Bearer " + key})
	}
	for _, kv := range overrides {
		h = setHeader(h, kv[0], kv[1])
	}
	native := isNativeOpenAI(base)
	if native {
		h = setHeader(h, "originator", "openclaw")
		h = setHeader(h, "User-Agent", "openclaw")
	}
	raw := jscompat.JSTrim(r.c.Model)
	model := stripPrefixes(cmpOr(raw, openAIDefaultModel), "openai/")
	if !native && strings.HasPrefix(raw, "openai/") {
		model = "openai/" + model
	}
	endpoint, err := endpointURL(base, "embeddings")
	if err != nil {
		return nil, err
	}
	p := &Provider{ID: "openai", Configured: r.c.Provider, Model: model, BaseURL: base, Endpoint: endpoint, headers: h,
		KeySource: source, Dimensions: r.c.Dimensions, QueryInputType: cmpOr(r.c.QueryInputType, r.c.InputType)}
	excluded := []string{"authorization", "x-api-key", "api-key"}
	if native {
		excluded = append(excluded, "version", "user-agent")
	}
	p.CacheKeyData = jsonObject("provider", "openai", "baseUrl", base, "model", model, "outputDimensionality", intOrNil(r.c.Dimensions),
		"documentInputType", strOrNil(cmpOr(r.c.DocumentInputType, r.c.InputType)), "headers", rawJSON(headerPairs(h, excluded)))
	return p, nil
}

// openAIKey is OpenAI's key where OpenClaw's provider auth finds it.
func (r resolver) openAIKey() (key, source string, err error) {
	if r.entry != nil {
		if key, source, err = r.secret(r.entry["apiKey"], "models.providers.openai.apiKey"); err != nil || key != "" {
			return key, source, err
		}
	}
	if k := jscompat.JSTrim(r.env.Getenv("OPENAI_API_KEY")); k != "" {
		return k, "$OPENAI_API_KEY", nil
	}
	return profileKey(r.env.AuthProfiles, "openai")
}

// profileKey is an api_key profile of provider in auth-profiles.json.
func profileKey(store map[string]any, provider string) (string, string, error) {
	profiles, _ := store["profiles"].(map[string]any)
	ids := make([]string, 0, len(profiles))
	for id := range profiles {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		p, _ := profiles[id].(map[string]any)
		prov, _ := p["provider"].(string)
		typ, _ := p["type"].(string)
		key, _ := p["key"].(string)
		if normalizeProviderID(prov) == provider && (typ == "api_key" || typ == "") && jscompat.JSTrim(key) != "" {
			return jscompat.JSTrim(key), "auth profile " + id, nil
		}
	}
	return "", "", nil
}

func isNativeOpenAI(base string) bool {
	k, ok := destinationKey(base)
	return ok && (strings.HasPrefix(k, "https://api.openai.com:") || strings.HasPrefix(k, "http://api.openai.com:"))
}

// headerPairs is sanitizeEmbeddingCacheHeaders: [name, value] pairs
// without the excluded names, sorted by name.
func headerPairs(h [][2]string, excluded []string) string {
	var kept [][2]string
	for _, kv := range h {
		if !slices.Contains(excluded, strings.ToLower(kv[0])) {
			kept = append(kept, kv)
		}
	}
	slices.SortStableFunc(kept, func(a, b [2]string) int { return recall.LocaleCompare(a[0], b[0]) })
	var b strings.Builder
	b.WriteByte('[')
	for i, kv := range kept {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("[" + jsonValue(kv[0]) + "," + jsonValue(kv[1]) + "]")
	}
	b.WriteByte(']')
	return b.String()
}

var ollamaTemplates = []struct{ prefix, template string }{
	{"qwen3-embedding", "Instruct: Given a user query, retrieve relevant memory notes and documents\nQuery:{query}"},
	{"nomic-embed-text", "search_query: {query}"},
	{"mxbai-embed-large", "Represent this sentence for searching relevant passages: {query}"},
}

// ollama is OpenClaw's Ollama adapter: /api/embed, vectors normalised,
// queries wrapped in the model's instruction.
func (r resolver) ollama() (*Provider, error) {
	providerID := cmpOr(jscompat.JSTrim(r.c.Provider), "ollama")
	if r.entry == nil {
		if e, ok := r.providers["ollama"].(map[string]any); ok {
			r.entry, r.entryID = e, "ollama"
		}
	}
	providerBase := ollamaBase(r.providerStr("baseUrl"))
	base, fromRemote := providerBase, false
	if rb := jscompat.JSTrim(r.c.Remote.BaseURL); rb != "" {
		base, fromRemote = ollamaBase(rb), true
	}
	owns := !fromRemote || sameOllamaHost(base, providerBase)
	h := [][2]string{{"Content-Type", "application/json"}}
	rh, err := r.remoteHeaders()
	if err != nil {
		return nil, err
	}
	if owns && r.entry != nil {
		ph, err := r.providerHeaders()
		if err != nil {
			return nil, err
		}
		for _, kv := range ph {
			if headerValue(rh, kv[0]) == "" {
				h = setHeader(h, kv[0], kv[1])
			}
		}
	}
	for _, kv := range rh {
		h = setHeader(h, kv[0], kv[1])
	}
	key, source, err := r.ollamaKey(base, owns)
	if err != nil {
		return nil, err
	}
	if key != "" && headerValue(h, "authorization") == "" {
		h = append(h, [2]string{"Authorization", "Bearer " + key})
	}
	model := cmpOr(jscompat.JSTrim(r.c.Model), ollamaDefaultModel)
	model = stripPrefixes(model, uniqueStrings(providerID+"/", "ollama/")...)
	endpoint := strings.TrimRight(base, "/") + "/api/embed"
	p := &Provider{ID: "ollama", Configured: r.c.Provider, Model: model, BaseURL: base, Endpoint: endpoint, headers: h,
		KeySource: source, Dimensions: r.c.Dimensions, ollama: true}
	var kept [][2]string
	for _, kv := range h {
		if n := strings.ToLower(kv[0]); n != "authorization" && n != "content-type" && n != "x-api-key" {
			kept = append(kept, kv)
		}
	}
	var hash any
	if len(kept) > 0 {
		sum := sha256.Sum256([]byte(headerPairs(kept, nil)))
		hash = hex.EncodeToString(sum[:])
	}
	var baseField any = base
	if providerID == "ollama" && base == ollamaBaseURL && hash == nil {
		baseField = nil
	}
	p.CacheKeyData = jsonObject("provider", providerID, "baseUrl", baseField, "model", model,
		"outputDimensionality", intOrNil(r.c.Dimensions), "headersHash", hash)
	return p, nil
}

func (r resolver) ollamaKey(base string, owns bool) (string, string, error) {
	if r.c.Remote.APIKey != nil {
		return r.secret(r.c.Remote.APIKey, "memory.search.remote.apiKey")
	}
	if owns && r.entry != nil {
		k, src, err := r.secret(r.entry["apiKey"], "models.providers."+r.entryID+".apiKey")
		if err != nil || (k != "" && k != "ollama-local") {
			return k, src, err
		}
	}
	if k := jscompat.JSTrim(r.env.Getenv("OLLAMA_API_KEY")); k != "" && sameOllamaHost(base, "https://"+ollamaCloudBaseHost) {
		return k, "$OLLAMA_API_KEY", nil
	}
	return "", "", nil
}

// ollamaBase is resolveOllamaApiBase: no trailing slash, no /v1.
func ollamaBase(configured string) string {
	if configured == "" {
		return ollamaBaseURL
	}
	s := strings.TrimRight(configured, "/")
	if len(s) >= 3 && strings.EqualFold(s[len(s)-3:], "/v1") {
		s = s[:len(s)-3]
	}
	return s
}

func sameOllamaHost(a, b string) bool {
	ka, okA := destinationKey(a)
	kb, okB := destinationKey(b)
	fix := func(k string) string {
		for _, local := range []string{"//localhost:", "//[::1]:", "//::1:"} {
			k = strings.Replace(k, local, "//127.0.0.1:", 1)
		}
		return k
	}
	return okA && okB && fix(ka) == fix(kb)
}

// QueryText is the text the provider embeds for a query.
func (p *Provider) QueryText(query string) string {
	if !p.ollama {
		return query
	}
	m := strings.ToLower(strings.TrimSpace(p.Model))
	if i := strings.LastIndex(m, "/"); i >= 0 {
		m = m[i+1:]
	}
	for _, t := range ollamaTemplates {
		if strings.HasPrefix(m, t.prefix) {
			return strings.Replace(t.template, "{query}", query, 1)
		}
	}
	return query
}

func intOrNil(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func strOrNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func uniqueStrings(in ...string) []string {
	var out []string
	for _, s := range in {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
