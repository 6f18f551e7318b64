// Package embedding embeds a memory_search query the way OpenClaw does for
// the agent's configured provider (openai-compatible, openai, ollama, or a
// models.providers entry served by one of them): the same endpoint, model,
// request fields and API key, with a timeout, cancellation and a cache of
// the queries a session already embedded. The key is read where OpenClaw
// reads it and is never printed or logged: errors name where it came
// from, never what it is.
package embedding

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"

	"clawvault-tui/jscompat"
	"clawvault-tui/model/recall"
)

// Provider is a resolved embedding endpoint.
type Provider struct {
	// ID is the adapter (openai-compatible, openai, ollama); Configured
	// what memory.search.provider says (a custom id maps to an adapter).
	ID, Configured string
	Model          string
	BaseURL        string
	// Endpoint is the URL a query is posted to.
	Endpoint string
	// headers go with every request; authorization among them.
	headers [][2]string
	// KeySource says where the API key came from ("" for none).
	KeySource string
	// Dimensions asks the endpoint for vectors of this length.
	Dimensions     *int
	QueryInputType string
	// Ollama: normalise the vector (after cutting it to Dimensions) and
	// wrap the query in the model's instruction template.
	ollama bool
	// CacheKeyData is the JSON OpenClaw hashes into the index identity's
	// providerKey.
	CacheKeyData string
}

// ProviderKey is the index identity's providerKey for this provider.
func (p *Provider) ProviderKey() string {
	sum := sha256.Sum256([]byte(p.CacheKeyData))
	return hex.EncodeToString(sum[:])
}

// Identity is what the index identity is compared with.
func (p *Provider) Identity() *recall.Identity {
	return &recall.Identity{Provider: p.ID, Model: p.Model, ProviderKey: p.ProviderKey()}
}

// Host is the endpoint's host, for messages.
func (p *Provider) Host() string {
	if u, err := url.Parse(p.Endpoint); err == nil && u.Host != "" {
		return u.Host
	}
	return p.Endpoint
}

// Env is what resolving reads besides openclaw.json.
type Env struct {
	Getenv func(string) string
	// AuthProfiles is the agent's auth-profiles.json (decoded), if any.
	AuthProfiles map[string]any
}

// UnsupportedError is a provider this build does not replay.
type UnsupportedError struct{ Provider string }

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("memory.search.provider %q is not one this build can call (openai, openai-compatible, ollama, or a models.providers entry served by one of them)", e.Provider)
}

// Resolve finds the provider OpenClaw would create for c.
func Resolve(c recall.Config, cfg map[string]any, env Env) (*Provider, error) {
	id := c.Provider
	providers, _ := getPath(cfg, "models", "providers").(map[string]any)
	entryID, entry := findProvider(providers, id)
	adapter := id
	switch id {
	case "openai-compatible", "openai", "ollama":
	default:
		api, _ := entry["api"].(string)
		base, _ := entry["baseUrl"].(string)
		switch {
		case entry == nil:
			return nil, &UnsupportedError{id}
		case normalizeProviderID(api) == "ollama":
			adapter = "ollama"
		case api == "openai-completions" || api == "openai-responses" || (api == "" && strings.TrimSpace(base) != ""):
			adapter = "openai-compatible"
		default:
			return nil, &UnsupportedError{id}
		}
	}
	r := resolver{c: c, cfg: cfg, env: env, providers: providers, entryID: entryID, entry: entry}
	switch adapter {
	case "openai-compatible":
		return r.openAICompatible()
	case "openai":
		return r.openAI()
	default:
		return r.ollama()
	}
}

type resolver struct {
	c         recall.Config
	cfg       map[string]any
	env       Env
	providers map[string]any
	entryID   string
	entry     map[string]any
}

func getPath(o map[string]any, path ...string) any {
	var v any = o
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// normalizeProviderID is OpenClaw's normalizeProviderId for the ids that
// matter here: trimmed, lower case.
func normalizeProviderID(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// findProvider is models.providers[id], else the entry whose id
// normalises the same.
func findProvider(providers map[string]any, id string) (string, map[string]any) {
	if e, ok := providers[id].(map[string]any); ok {
		return id, e
	}
	for _, k := range recall.Keys(providers) {
		if normalizeProviderID(k) == normalizeProviderID(id) {
			e, _ := providers[k].(map[string]any)
			return k, e
		}
	}
	return "", nil
}

// stripPrefixes removes the first of prefixes model starts with.
func stripPrefixes(model string, prefixes ...string) string {
	for _, p := range prefixes {
		if p != "/" && strings.HasPrefix(model, p) {
			return model[len(p):]
		}
	}
	return model
}

// destinationKey is OpenClaw's normalizeEmbeddingDestinationKey.
func destinationKey(raw string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", false
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	q := ""
	if u.RawQuery != "" {
		q = "?" + u.RawQuery
	}
	return u.Scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port + path + q, true
}

func ownsDestination(baseURL, providerBase string) bool {
	a, okA := destinationKey(baseURL)
	b, okB := destinationKey(providerBase)
	return okA && okB && a == b
}

// endpointURL is resolveEmbeddingEndpointUrl: the base URL's path with
// /endpoint appended, its query kept, no fragment.
func endpointURL(base, endpoint string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("the embedding base URL %q is not a URL", base)
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/" + strings.TrimLeft(endpoint, "/")
	u.RawPath, u.Fragment = "", ""
	return u.String(), nil
}

// jsonObject writes an object's members in order, as JSON.stringify does
// (members whose value is nil are left out, as undefined is).
func jsonObject(members ...any) string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for i := 0; i+1 < len(members); i += 2 {
		v := members[i+1]
		if v == nil {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.Write(jscompat.AppendJSString(nil, members[i].(string)))
		b.WriteByte(':')
		b.WriteString(jsonValue(v))
	}
	b.WriteByte('}')
	return b.String()
}

type rawJSON string

func jsonValue(v any) string {
	switch x := v.(type) {
	case string:
		return string(jscompat.AppendJSString(nil, x))
	case int:
		return fmt.Sprint(x)
	case float64:
		return string(jscompat.AppendJSNumber(nil, x))
	case rawJSON:
		return string(x)
	}
	return "null"
}
