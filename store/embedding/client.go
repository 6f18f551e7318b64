package embedding

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"clawvault-tui/jscompat"
)

// DefaultTimeout bounds one query embedding. OpenClaw waits up to 60 s
// for a remote provider; an interactive replay gives up sooner (the
// --timeout flag changes it).
const DefaultTimeout = 20 * time.Second

// maxResponse bounds an endpoint's answer (a 3072-dimension vector is
// under 100 KB; anything near this is not an embedding).
const maxResponse = 16 << 20

// Client embeds queries for one provider and remembers them for the
// session: the same query text is sent once.
type Client struct {
	P       *Provider
	HTTP    *http.Client
	Timeout time.Duration

	mu    sync.Mutex
	cache map[string][]float64
	// Calls counts the requests actually sent.
	Calls int
}

// NewClient makes a client with its own HTTP client (no cookies, proxies
// from the environment as OpenClaw honours them).
func NewClient(p *Provider) *Client {
	return &Client{P: p, HTTP: &http.Client{Transport: http.DefaultTransport}, Timeout: DefaultTimeout}
}

// Cached returns the vector of a query already embedded this session.
func (c *Client) Cached(query string) ([]float64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.cache[query]
	return v, ok
}

// Error is an embedding failure: Kind is timeout, unreachable, http,
// garbage or canceled; the message is a sentence that never holds the key.
type Error struct {
	Kind string
	msg  string
}

func (e *Error) Error() string { return e.msg }

// Embed returns the query's vector, from the cache or the endpoint.
func (c *Client) Embed(ctx context.Context, query string) ([]float64, error) {
	if v, ok := c.Cached(query); ok {
		return v, nil
	}
	v, err := c.request(ctx, query)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.cache == nil {
		c.cache = map[string][]float64{}
	}
	c.cache[query] = v
	c.Calls++
	c.mu.Unlock()
	return v, nil
}

func (c *Client) request(ctx context.Context, query string) ([]float64, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	body := c.P.requestBody(query)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.P.Endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, &Error{"unreachable", fmt.Sprintf("the embedding endpoint %q is not a URL", c.P.Endpoint)}
	}
	for _, kv := range c.P.headers {
		req.Header.Set(kv[0], kv[1])
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, err, timeout)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return nil, c.transportError(ctx, err, timeout)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &Error{"http", fmt.Sprintf("the embedding endpoint %s answered HTTP %d%s", c.P.Host(), resp.StatusCode, c.snippet(data))}
	}
	if len(data) > maxResponse {
		return nil, &Error{"garbage", fmt.Sprintf("the embedding endpoint %s answered more than %d MB: not an embedding", c.P.Host(), maxResponse>>20)}
	}
	v, err := c.P.parse(data)
	if err != nil {
		return nil, &Error{"garbage", fmt.Sprintf("the embedding endpoint %s answered something that is not an embedding (%v)", c.P.Host(), err)}
	}
	return v, nil
}

func (c *Client) transportError(ctx context.Context, err error, timeout time.Duration) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &Error{"timeout", fmt.Sprintf("the embedding endpoint %s did not answer within %v", c.P.Host(), timeout)}
	case errors.Is(ctx.Err(), context.Canceled):
		return &Error{"canceled", "the query embedding was cancelled"}
	}
	msg := err.Error()
	var ue *url.Error
	if errors.As(err, &ue) {
		msg = ue.Err.Error()
	}
	return &Error{"unreachable", fmt.Sprintf("the embedding endpoint %s cannot be reached (%s)", c.P.Host(), c.redact(msg))}
}

// snippet is the start of an error body, without the key.
func (c *Client) snippet(data []byte) string {
	s := strings.TrimSpace(jscompat.DecodeUTF8(data))
	if s == "" {
		return ""
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return ": " + c.redact(strings.Join(strings.Fields(s), " "))
}

// redact removes every header value that carries a credential.
func (c *Client) redact(s string) string {
	for _, kv := range c.P.headers {
		if !sensitiveHeader(kv[0]) {
			continue
		}
		v := kv[1]
		for _, secret := range []string{v, strings.TrimPrefix(v, "Bearer ")} {
			if len(secret) >= 4 {
				s = strings.ReplaceAll(s, secret, "[redacted]")
			}
		}
	}
	return s
}

// requestBody is the JSON OpenClaw posts for one query.
func (p *Provider) requestBody(query string) []byte {
	text := p.QueryText(query)
	input := jsonValue(text)
	if p.ollama {
		return []byte(jsonObject("model", p.Model, "input", rawJSON(input)))
	}
	arr := rawJSON("[" + input + "]")
	if p.ID == "openai" {
		return []byte(jsonObject("dimensions", intOrNil(p.Dimensions), "input_type", strOrNil(p.QueryInputType), "model", p.Model, "input", arr))
	}
	return []byte(jsonObject("model", p.Model, "input", arr, "dimensions", intOrNil(p.Dimensions), "input_type", strOrNil(p.QueryInputType)))
}

// parse reads the one vector of an answer as OpenClaw validates it.
func (p *Provider) parse(data []byte) ([]float64, error) {
	if p.ollama {
		var r struct {
			Embeddings []json.RawMessage `json:"embeddings"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, errors.New("not JSON")
		}
		if len(r.Embeddings) != 1 {
			return nil, fmt.Errorf("%d embeddings for 1 input", len(r.Embeddings))
		}
		v, err := numbers(r.Embeddings[0])
		if err != nil {
			return nil, err
		}
		if p.Dimensions != nil && *p.Dimensions < len(v) {
			v = v[:max(0, *p.Dimensions)]
		}
		return normalize(v), nil
	}
	var r struct {
		Data []struct {
			Embedding json.RawMessage `json:"embedding"`
			Index     *float64        `json:"index"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, errors.New("not the JSON of an embedding list")
	}
	if len(r.Data) != 1 {
		return nil, fmt.Errorf("%d vectors for 1 input", len(r.Data))
	}
	if i := r.Data[0].Index; i != nil && *i != 0 {
		return nil, fmt.Errorf("a vector for input %v of 1", *i)
	}
	v, err := numbers(r.Data[0].Embedding)
	if err != nil {
		return nil, err
	}
	if len(v) == 0 {
		return nil, errors.New("an empty vector")
	}
	return v, nil
}

func numbers(raw json.RawMessage) ([]float64, error) {
	var items []any
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, errors.New("the embedding is not an array")
	}
	v := make([]float64, len(items))
	for i, it := range items {
		f, ok := it.(float64)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("coordinate %d is not a finite number", i)
		}
		v[i] = f
	}
	return v, nil
}

// normalize is sanitizeAndNormalizeEmbedding: unit length unless nearly 0.
func normalize(v []float64) []float64 {
	var sum float64
	for _, x := range v {
		sum += x * x
	}
	m := math.Sqrt(sum)
	if m < 1e-10 {
		return v
	}
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x / m
	}
	return out
}
