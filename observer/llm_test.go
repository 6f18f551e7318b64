package observer

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

func TestResolveLLM(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	def := store.DefaultLLMConfig()
	tests := []struct {
		name    string
		cfg     func(*store.LLMConfig)
		env     map[string]string
		want    LLMSettings
		wantErr string
	}{
		{"nothing configured", nil, nil, LLMSettings{}, "has no model"},
		{"Anthropic key first, as ClawVault", nil, map[string]string{"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"},
			LLMSettings{Provider: "anthropic", BaseURL: "https://api.anthropic.com", Model: "claude-3-5-haiku-latest", APIKey: "a"}, ""},
		{"OpenAI with its base URL variable", nil, map[string]string{"OPENAI_API_KEY": "o", "OPENAI_BASE_URL": "http://gw/v1/"},
			LLMSettings{Provider: "openai", BaseURL: "http://gw/v1", Model: "gpt-4o-mini", APIKey: "o"}, ""},
		{"a local OpenAI-compatible server needs no key", func(c *store.LLMConfig) { c.BaseURL = "http://localhost:11434/v1"; c.Model = "llama3.2" }, nil,
			LLMSettings{Provider: "openai", BaseURL: "http://localhost:11434/v1", Model: "llama3.2"}, ""},
		{"key from a named variable", func(c *store.LLMConfig) { c.Provider = "anthropic"; c.APIKeyEnv = "MY_KEY" }, map[string]string{"MY_KEY": "k"},
			LLMSettings{Provider: "anthropic", BaseURL: "https://api.anthropic.com", Model: "claude-3-5-haiku-latest", APIKey: "k"}, ""},
		{"anthropic without a key", func(c *store.LLMConfig) { c.Provider = "anthropic" }, nil, LLMSettings{}, "needs a key"},
		{"unknown provider", func(c *store.LLMConfig) { c.Provider = "zai" }, nil, LLMSettings{}, "not known"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := def
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			got, err := ResolveLLM(cfg, env(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.Timeout, got.Retries, got.MaxTokens, got.ChunkTokens = 0, 0, 0, 0
			if got != tt.want {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// fakeModel is an httptest server speaking both APIs; reply decides each
// answer (status and text) from the request number.
type fakeModel struct {
	mu       sync.Mutex
	requests []map[string]any
	headers  []http.Header
	reply    func(n int) (status int, text string)
}

func (m *fakeModel) serve(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req map[string]any
		json.Unmarshal(body, &req)
		m.mu.Lock()
		m.requests = append(m.requests, req)
		m.headers = append(m.headers, r.Header.Clone())
		n := len(m.requests)
		m.mu.Unlock()
		status, text := m.reply(n)
		if status == -1 { // hang until the client gives up
			<-r.Context().Done()
			return
		}
		w.WriteHeader(status)
		if strings.HasSuffix(r.URL.Path, "/v1/messages") {
			json.NewEncoder(w).Encode(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
		} else {
			json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": text}}}})
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func (m *fakeModel) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.requests)
}

const goodReply = "```markdown\n## 2026-11-21\n\n- [fact|c=0.80|i=0.30] 12:00 Decision: ship the bot on Friday.\n- [fact|c=0.90|i=0.10] ok thanks\n```"

// llmFor makes a compressor of the fake model whose requests time out
// after a minute: only a test of the timeout itself (llmTimingOut) may
// depend on one passing, so a loaded machine cannot turn an answer into a
// timeout.
func llmFor(t *testing.T, provider string, m *fakeModel, retries int) (*LLMCompressor, *[]time.Duration) {
	return llmWithTimeout(t, provider, m, retries, time.Minute)
}

func llmWithTimeout(t *testing.T, provider string, m *fakeModel, retries int, timeout time.Duration) (*LLMCompressor, *[]time.Duration) {
	srv := m.serve(t)
	s := LLMSettings{Provider: provider, BaseURL: srv.URL, Model: "m", APIKey: "key", Timeout: timeout,
		Retries: retries, MaxTokens: 1400, ChunkTokens: 30000}
	c := NewLLMCompressor(s, srv.Client(), DefaultFixes())
	var waits []time.Duration
	c.sleep = func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return ctx.Err() }
	return c, &waits
}

func runLLM(t *testing.T, c *LLMCompressor, messages ...string) Compressed {
	s := c.Begin(testNow)
	for _, m := range messages {
		s.Add(m)
	}
	out, err := s.Finish(context.Background(), func() string { return "## 2026-11-21\n\n- [fact|c=0.70|i=0.20] 08:00 earlier" })
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestLLMCompressor(t *testing.T) {
	t.Parallel()
	for _, provider := range []string{"openai", "anthropic"} {
		t.Run(provider, func(t *testing.T) {
			m := &fakeModel{reply: func(int) (int, string) { return 200, goodReply }}
			c, _ := llmFor(t, provider, m, 2)
			out := runLLM(t, c, "[main] user: let's ship the bot on Friday")
			// The reply goes through ClawVault's post-processing (Node gives
			// the same): the fence goes, "Decision:" is critical and makes a
			// decision, the low-importance acknowledgement is noise.
			if got := model.RenderObservations(out.Observations); got != "## 2026-11-21\n\n- [decision|c=0.85|i=0.85] 12:00 Decision: ship the bot on Friday." {
				t.Errorf("observations:\n%s", got)
			}
			if len(out.Fallbacks) != 0 || out.Prompts != 1 {
				t.Errorf("out = %+v", out)
			}
			req, h := m.requests[0], m.headers[0]
			prompt := ""
			if provider == "anthropic" {
				if h.Get("x-api-key") != "key" || h.Get("anthropic-version") != "2023-06-01" || req["max_tokens"] != float64(1400) {
					t.Errorf("anthropic request: %v %v", h, req)
				}
				prompt = req["messages"].([]any)[0].(map[string]any)["content"].(string)
			} else {
				if h.Get("Authorization") != "Bearer key" || req["temperature"] != 0.1 {
					t.Errorf("openai request: %v %v", h, req)
				}
				prompt = req["messages"].([]any)[1].(map[string]any)["content"].(string)
			}
			if !strings.HasPrefix(prompt, "You are an observer that compresses raw AI session messages") ||
				!strings.Contains(prompt, "Existing observations (may be empty):\n## 2026-11-21\n\n- [fact|c=0.70|i=0.20] 08:00 earlier\n\nRaw messages:\n[1] [main] user: let's ship the bot on Friday\n\nReturn only the updated observation markdown.") {
				t.Errorf("prompt:\n%s", prompt)
			}
		})
	}
}

// Retries with backoff on what may pass (429 with Retry-After, 5xx); a
// model that never answers or answers garbage falls back to the rules, and
// the outcome says why.
func TestLLMCompressorFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		reply     func(n int) (int, string)
		retries   int
		fallback  string
		requests  int
		waits     []time.Duration
		rulesUsed bool
	}{
		{"rate limited, then fine", func(n int) (int, string) {
			if n == 1 {
				return 429, ""
			}
			return 200, goodReply
		}, 2, "", 2, []time.Duration{time.Second}, false},
		{"server errors every time", func(int) (int, string) { return 503, "" }, 2, "503 Service Unavailable", 3, []time.Duration{time.Second, 2 * time.Second}, true},
		{"a key the server refuses is not retried", func(int) (int, string) { return 401, "" }, 2, "401 Unauthorized", 1, nil, true},
		{"garbage", func(int) (int, string) { return 200, "I cannot help with that." }, 2, "no observation lines", 1, nil, true},
		{"times out", func(int) (int, string) { return -1, "" }, 1, "did not answer within", 2, []time.Duration{time.Second}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeModel{reply: tt.reply}
			timeout := time.Minute
			if tt.name == "times out" { // the model never answers: the timeout is what is tested
				timeout = 200 * time.Millisecond
			}
			c, waits := llmWithTimeout(t, "openai", m, tt.retries, timeout)
			out := runLLM(t, c, "[main] user: We decided to use PostgreSQL.")
			if tt.fallback == "" && len(out.Fallbacks) != 0 || tt.fallback != "" && (len(out.Fallbacks) != 1 || !strings.Contains(out.Fallbacks[0], tt.fallback)) {
				t.Errorf("fallbacks = %q, want %q", out.Fallbacks, tt.fallback)
			}
			if n := m.count(); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
			if len(*waits) != len(tt.waits) || len(tt.waits) > 0 && (*waits)[0] != tt.waits[0] {
				t.Errorf("waits = %v, want %v", *waits, tt.waits)
			}
			rules := model.RenderObservations(out.Observations) == "## 2026-11-21\n\n- [decision|c=0.95|i=0.90] 12:00 [main] user: We decided to use PostgreSQL."
			if rules != tt.rulesUsed {
				t.Errorf("observations: %+v", out.Observations)
			}
		})
	}
}

func TestChunkMessages(t *testing.T) {
	t.Parallel()
	msgs := []string{strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)}
	// 40 characters are 10 tokens; with the joining newline, two make 21.
	if got := chunkMessages(msgs, 20); len(got) != 2 || len(got[0]) != 2 || len(got[1]) != 1 {
		t.Errorf("chunks = %v", got)
	}
	if got := chunkMessages(msgs, 1000); len(got) != 1 {
		t.Errorf("one prompt: %v", got)
	}
}

// A sweep with a failing model still observes everything, and the report
// says the rules stood in.
func TestSweepReportsFallbacks(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.session("agent:main:main", "s1", testdataSession(t))
	m := &fakeModel{reply: func(int) (int, string) { return 500, "" }}
	c, _ := llmFor(t, "openai", m, 0)
	r := f.mustSweep(SweepOptions{Compressor: c})
	if r.Compressor != "llm" || len(r.Fallbacks) != 1 || !strings.Contains(r.Fallbacks[0].Reason, "500") || r.Observations != 4 {
		t.Errorf("report: compressor %s, fallbacks %+v, observations %d", r.Compressor, r.Fallbacks, r.Observations)
	}
}

func FuzzNormalizeReply(f *testing.F) {
	f.Add(goodReply)
	f.Add("- [todo|c=2|i=0.5] x\n🔴 12:00 y\n## 2026-13-45")
	f.Fuzz(func(t *testing.T, reply string) {
		s := &llmSession{now: testNow}
		out := s.normalizeReply(reply)
		if out != "" && len(model.ParseObservationMarkdown(out)) == 0 {
			t.Fatalf("a usable reply without observations: %q", out)
		}
		for _, raw := range []string{`{"choices":[{"message":{"content":` + jsonString(reply) + `}}]}`, `{"content":[{"type":"text","text":` + jsonString(reply) + `}]}`} {
			replyText("openai", []byte(raw))
			replyText("anthropic", []byte(raw))
		}
	})
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
