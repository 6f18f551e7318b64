// Package embedtest is a deterministic embedding endpoint for tests and for
// make conformance: the same text always gets the same vector, texts that
// share words get similar vectors, and nothing leaves the machine. It
// serves OpenAI's /v1/embeddings and Ollama's /api/embed.
package embedtest

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"

	"clawvault-tui/store/demo"
)

// Embedder makes the vectors.
type Embedder struct {
	// Dims is the vector length (64 when 0).
	Dims int
	// Raw leaves vectors unnormalised (most real endpoints return unit
	// vectors; OpenClaw must cope with both).
	Raw bool
}

func (e Embedder) dims() int {
	if e.Dims <= 0 {
		return 64
	}
	return e.Dims
}

// Vector embeds text with the demo's embedding model (demo.Embed):
// texts that share words get near vectors. Raw scales each vector by a
// factor that depends on the text.
func (e Embedder) Vector(text string) []float64 {
	v := demo.Embed(text, e.dims())
	if e.Raw {
		// A length that varies with the text, so that cosine and the dot
		// product (and sqlite-vec's L2 preselection) disagree as they
		// would on such an endpoint.
		scale := 1 + float64(len(strings.Fields(text))%7)
		for i := range v {
			v[i] *= scale
		}
	}
	return v
}

// Server is an http.Handler answering embedding requests with Embedder's
// vectors. Mode changes its behaviour for bad-input tests.
type Server struct {
	Embedder
	// Requests counts the embedding requests served.
	Requests atomic.Int64
	// Inputs receives every input text, when set (tests read the query
	// the client sent).
	Inputs chan<- string
	// Fail makes every answer bad: "500" an HTTP error, "echo" a 401 whose
	// body repeats the Authorization header (as some servers do),
	// "garbage" a body that is not JSON, "nan" a vector of nulls, "short"
	// one vector too few; "hang" never answers until the request is
	// cancelled.
	Fail string
	// Auth, when set, is the Authorization header every request must carry.
	Auth string
}

type openAIRequest struct {
	Model string          `json:"model"`
	Input json.RawMessage `json:"input"`
}

func inputs(raw json.RawMessage) ([]string, bool) {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, true
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many, true
	}
	return nil, false
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	if s.Auth != "" && r.Header.Get("Authorization") != s.Auth {
		http.Error(w, `{"error":{"message":"invalid api key"}}`, http.StatusUnauthorized)
		return
	}
	var req openAIRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<20)).Decode(&req); err != nil {
		http.Error(w, "bad JSON", http.StatusBadRequest)
		return
	}
	texts, ok := inputs(req.Input)
	if !ok {
		http.Error(w, "input must be a string or strings", http.StatusBadRequest)
		return
	}
	s.Requests.Add(1)
	for _, t := range texts {
		if s.Inputs != nil {
			s.Inputs <- t
		}
	}
	switch s.Fail {
	case "hang":
		<-r.Context().Done()
		return
	case "echo":
		http.Error(w, "invalid credentials: "+r.Header.Get("Authorization"), http.StatusUnauthorized)
		return
	case "500":
		http.Error(w, `{"error":{"message":"upstream exploded"}}`, http.StatusInternalServerError)
		return
	case "garbage":
		w.Write([]byte("<html>this is not an embedding</html>"))
		return
	}
	vectors := make([][]float64, len(texts))
	for i, t := range texts {
		vectors[i] = s.Vector(t)
	}
	if s.Fail == "short" && len(vectors) > 0 {
		vectors = vectors[:len(vectors)-1]
	}
	w.Header().Set("Content-Type", "application/json")
	if strings.HasSuffix(r.URL.Path, "/api/embed") {
		json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": vectors})
		return
	}
	type datum struct {
		Object    string `json:"object"`
		Index     int    `json:"index"`
		Embedding any    `json:"embedding"`
	}
	data := make([]datum, len(vectors))
	for i, v := range vectors {
		data[i] = datum{"embedding", i, v}
		if s.Fail == "nan" {
			data[i].Embedding = []any{nil, nil}
		}
	}
	json.NewEncoder(w).Encode(map[string]any{
		"object": "list", "data": data, "model": req.Model,
		"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1},
	})
}
