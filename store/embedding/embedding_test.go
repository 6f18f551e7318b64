package embedding

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"clawvault-tui/model/recall"
	"clawvault-tui/store/embedding/embedtest"
)

func config(t *testing.T, raw string) (recall.Config, map[string]any) {
	t.Helper()
	o, err := recall.DecodeJSON([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := recall.ResolveConfig(o, "main", strings.ToLower)
	return c, o
}

func noEnv(string) string { return "" }

func TestProviderKeysMatchOpenClaw(t *testing.T) {
	t.Parallel()
	// The providerKey OpenClaw 2026.9.6 wrote into an index built with
	// these settings (conformance/openclaw-memsearch.sh's corpus).
	c, o := config(t, `{"memory":{"search":{"provider":"openai-compatible","model":"det-embed","remote":{"baseUrl":"http://127.0.0.1:45317/v1","apiKey":"sk-test"}}}}`)
	p, err := Resolve(c, o, Env{Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.ProviderKey(); got != "50ef1d34a0af7cd10e6690d65f60b7d38d09ff5b46d3f34bd4d67153691c2a12" {
		t.Errorf("providerKey %s from %s", got, p.CacheKeyData)
	}
	if p.Endpoint != "http://127.0.0.1:45317/v1/embeddings" || p.KeySource != "memory.search.remote.apiKey" {
		t.Errorf("endpoint %s, key from %s", p.Endpoint, p.KeySource)
	}
}

func TestResolveProviders(t *testing.T) {
	t.Parallel()
	env := func(k string) string {
		return map[string]string{"OPENAI_API_KEY": "sk-env", "EMB_KEY": "sk-ref"}[k]
	}
	cases := []struct {
		name, cfg, endpoint, keyFrom, err string
	}{
		{"openai default", `{}`, "https://api.openai.com/v1/embeddings", "$OPENAI_API_KEY", ""},
		{"openai through a config key", `{"models":{"providers":{"openai":{"apiKey":"sk-cfg"}}}}`, "https://api.openai.com/v1/embeddings", "models.providers.openai.apiKey", ""},
		{"env reference", `{"memory":{"search":{"provider":"openai-compatible","model":"m","remote":{"baseUrl":"http://h:1/v1/","apiKey":{"source":"env","id":"EMB_KEY"}}}}}`, "http://h:1/v1/embeddings", "$EMB_KEY (named by memory.search.remote.apiKey)", ""},
		{"ollama default", `{"memory":{"search":{"provider":"ollama"}}}`, "http://127.0.0.1:11434/api/embed", "", ""},
		{"custom ollama provider", `{"models":{"providers":{"gpu":{"api":"ollama","baseUrl":"http://gpu:11435/v1"}}},"memory":{"search":{"provider":"gpu","model":"qwen3-embedding:0.6b"}}}`, "http://gpu:11435/api/embed", "", ""},
		{"custom compatible provider", `{"models":{"providers":{"lab":{"api":"openai-completions","baseUrl":"http://lab/v1","apiKey":"k"}}},"memory":{"search":{"provider":"lab","model":"lab/e5"}}}`, "http://lab/v1/embeddings", "models.providers.lab.apiKey", ""},
		{"no base URL", `{"memory":{"search":{"provider":"openai-compatible","model":"m"}}}`, "", "", "missing remote.baseUrl"},
		{"no model", `{"memory":{"search":{"provider":"openai-compatible","remote":{"baseUrl":"http://h/v1"}}}}`, "", "", "missing model"},
		{"unsupported", `{"memory":{"search":{"provider":"gemini"}}}`, "", "", "not one this build can call"},
		{"file secret", `{"memory":{"search":{"provider":"openai-compatible","model":"m","remote":{"baseUrl":"http://h/v1","apiKey":{"source":"file","id":"x"}}}}}`, "", "", "only a running gateway resolves"},
	}
	for _, c := range cases {
		cfg, o := config(t, c.cfg)
		p, err := Resolve(cfg, o, Env{Getenv: env})
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one saying %q", c.name, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case p.Endpoint != c.endpoint || p.KeySource != c.keyFrom:
			t.Errorf("%s: endpoint %s key from %q, want %s %q", c.name, p.Endpoint, p.KeySource, c.endpoint, c.keyFrom)
		}
	}
	cfg, o := config(t, `{"memory":{"search":{"provider":"ollama"}}}`)
	p, _ := Resolve(cfg, o, Env{Getenv: env})
	if p.Model != "nomic-embed-text" || p.QueryText("x") != "search_query: x" || p.CacheKeyData != `{"provider":"ollama","model":"nomic-embed-text"}` {
		t.Errorf("ollama: model %s, query %q, cache key %s", p.Model, p.QueryText("x"), p.CacheKeyData)
	}
}

func compatible(t *testing.T, url string) *Provider {
	t.Helper()
	cfg, o := config(t, `{"memory":{"search":{"provider":"openai-compatible","model":"m","remote":{"baseUrl":"`+url+`/v1","apiKey":"sk-secret-123456"}}}}`)
	p, err := Resolve(cfg, o, Env{Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEmbedCachesAndSendsTheKey(t *testing.T) {
	t.Parallel()
	srv := &embedtest.Server{Auth: "Bearer sk-secret-123456"}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	c := NewClient(compatible(t, hs.URL))
	v1, err := c.Embed(context.Background(), "dark roast")
	if err != nil {
		t.Fatal(err)
	}
	v2, err := c.Embed(context.Background(), "dark roast")
	if err != nil || len(v1) != 64 || srv.Requests.Load() != 1 || v1[0] != v2[0] {
		t.Fatalf("second embedding: %v, %d requests; want one request, the same vector", err, srv.Requests.Load())
	}
	if want := srv.Vector("dark roast"); v1[3] != want[3] {
		t.Errorf("vector differs from the endpoint's")
	}
}

func TestEmbedFailuresAreSentences(t *testing.T) {
	t.Parallel()
	cases := []struct{ fail, kind, says string }{
		{"hang", "timeout", "did not answer within 200ms"},
		{"500", "http", "answered HTTP 500: {\"error\":{\"message\":\"upstream exploded\"}}"},
		{"garbage", "garbage", "not an embedding (not the JSON of an embedding list)"},
		{"nan", "garbage", "coordinate 0 is not a finite number"},
		{"short", "garbage", "0 vectors for 1 input"},
	}
	for _, c := range cases {
		hs := httptest.NewServer(&embedtest.Server{Fail: c.fail})
		cl := NewClient(compatible(t, hs.URL))
		cl.Timeout = 200 * time.Millisecond
		_, err := cl.Embed(context.Background(), "q")
		hs.Close()
		var ee *Error
		if !errors.As(err, &ee) || ee.Kind != c.kind || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), "sk-secret") {
			t.Errorf("%s: %v, want a %s error saying %q without the key", c.fail, err, c.kind, c.says)
		}
	}
	cl := NewClient(compatible(t, "http://127.0.0.1:1"))
	if _, err := cl.Embed(context.Background(), "q"); err == nil || !strings.Contains(err.Error(), "cannot be reached") {
		t.Errorf("closed port: %v", err)
	}
}

func TestEmbedIsCancellable(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(&embedtest.Server{Fail: "hang"})
	defer hs.Close()
	cl := NewClient(compatible(t, hs.URL))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := cl.Embed(ctx, "q"); done <- err }()
	cancel()
	select {
	case err := <-done:
		var ee *Error
		if !errors.As(err, &ee) || ee.Kind != "canceled" {
			t.Errorf("cancelled embedding: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled embedding did not return")
	}
}

func TestErrorBodiesLoseTheKey(t *testing.T) {
	t.Parallel()
	p := compatible(t, "http://h")
	c := NewClient(p)
	if got := c.snippet([]byte(`bad key sk-secret-123456 (Bearer sk-secret-123456)`)); strings.Contains(got, "sk-secret") {
		t.Errorf("snippet kept the key: %s", got)
	}
}

func TestOllamaNormalisesAndCuts(t *testing.T) {
	t.Parallel()
	two := 2
	p := &Provider{ollama: true, Dimensions: &two}
	v, err := p.parse([]byte(`{"embeddings":[[3,4,12]]}`))
	if err != nil || len(v) != 2 || v[0] != .6 || v[1] != .8 {
		t.Errorf("ollama vector %v %v, want [0.6 0.8] (cut to 2, then unit length)", v, err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"data":[{"embedding":[0.1,0.2],"index":0}]}`), false)
	f.Add([]byte(`{"embeddings":[[1,2,3]]}`), true)
	f.Add([]byte(`{"data":[{"embedding":"x"}]}`), false)
	f.Fuzz(func(t *testing.T, data []byte, ollama bool) {
		p := &Provider{ollama: ollama}
		v, err := p.parse(data)
		if err == nil && len(v) == 0 && !ollama {
			t.Fatalf("an empty vector from %q", data)
		}
	})
}
