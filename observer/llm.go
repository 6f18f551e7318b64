package observer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store"
)

// LLMSettings is a resolved model endpoint.
type LLMSettings struct {
	Provider    string // anthropic | openai
	BaseURL     string
	Model       string
	APIKey      string
	Timeout     time.Duration
	Retries     int
	MaxTokens   int
	ChunkTokens int
}

// providerDefaults are each provider's variables and ClawVault's defaults.
var providerDefaults = map[string]struct {
	keyEnv, baseEnv, baseURL, model string
	keyRequired                     bool // a local OpenAI-compatible server needs none
}{
	"anthropic": {"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "https://api.anthropic.com", "claude-3-5-haiku-latest", true},
	"openai":    {"OPENAI_API_KEY", "OPENAI_BASE_URL", "https://api.openai.com/v1", "gpt-4o-mini", false},
}

// ResolveLLM fills the [llm] section from the environment where it is
// empty: provider from which key is set (ANTHROPIC_API_KEY first, as
// ClawVault), base URL from ANTHROPIC_BASE_URL or OPENAI_BASE_URL, the key
// from api_key, the variable api_key_env names, or the provider's usual
// variable; models default to ClawVault's.
func ResolveLLM(cfg store.LLMConfig, getenv func(string) string) (LLMSettings, error) {
	s := LLMSettings{Provider: strings.ToLower(strings.TrimSpace(cfg.Provider)), BaseURL: strings.TrimSpace(cfg.BaseURL),
		Model: strings.TrimSpace(cfg.Model), Timeout: time.Duration(cfg.Timeout), Retries: cfg.Retries,
		MaxTokens: cfg.MaxTokens, ChunkTokens: cfg.ChunkTokens}
	def := store.DefaultLLMConfig()
	if s.Timeout <= 0 {
		s.Timeout = time.Duration(def.Timeout)
	}
	if s.Retries < 0 {
		s.Retries = 0
	}
	if s.MaxTokens <= 0 {
		s.MaxTokens = def.MaxTokens
	}
	if s.ChunkTokens <= 0 {
		s.ChunkTokens = def.ChunkTokens
	}
	key := strings.TrimSpace(cfg.APIKey)
	if key == "" && cfg.APIKeyEnv != "" {
		key = strings.TrimSpace(getenv(cfg.APIKeyEnv))
	}
	if s.Provider == "" {
		switch {
		case key != "" || s.BaseURL != "":
			s.Provider = "openai"
		case strings.TrimSpace(getenv("ANTHROPIC_API_KEY")) != "":
			s.Provider = "anthropic"
		case strings.TrimSpace(getenv("OPENAI_API_KEY")) != "":
			s.Provider = "openai"
		default:
			return s, errors.New("the llm compressor has no model: set ANTHROPIC_API_KEY or OPENAI_API_KEY, or [llm] provider, base_url and model in the config file (clawvault-tui config)")
		}
	}
	if s.Provider == "openai-compatible" {
		s.Provider = "openai"
	}
	d, ok := providerDefaults[s.Provider]
	if !ok {
		return s, fmt.Errorf("[llm] provider %q is not known: use \"anthropic\" or \"openai\" (any OpenAI-compatible endpoint)", cfg.Provider)
	}
	if key == "" {
		key = strings.TrimSpace(getenv(d.keyEnv))
	}
	if s.BaseURL == "" {
		s.BaseURL = strings.TrimSpace(getenv(d.baseEnv))
	}
	if s.BaseURL == "" {
		s.BaseURL = d.baseURL
	}
	if s.Model == "" {
		s.Model = d.model
	}
	if key == "" && d.keyRequired {
		return s, fmt.Errorf("the %s provider needs a key: set %s, or [llm] api_key_env in the config file", s.Provider, d.keyEnv)
	}
	s.BaseURL = strings.TrimRight(s.BaseURL, "/")
	s.APIKey = key
	return s, nil
}

// LLMCompressor compresses with a model, as ClawVault's Compressor does
// when a provider is configured: the same prompt, the same post-processing
// of the reply. Where ClawVault silently falls back to its rules when the
// model fails, this one reports each fallback with its reason. Sessions
// longer than ChunkTokens (ClawVault's observer threshold) are sent in
// several prompts instead of one that no model would accept.
type LLMCompressor struct {
	settings LLMSettings
	client   *http.Client
	fixes    Fixes
	// sleep waits between retries; tests replace it to run without delay.
	sleep func(ctx context.Context, d time.Duration) error
}

// NewLLMCompressor returns an llm compressor. client may be nil.
func NewLLMCompressor(s LLMSettings, client *http.Client, fixes Fixes) *LLMCompressor {
	if client == nil {
		client = &http.Client{}
	}
	return &LLMCompressor{settings: s, client: client, fixes: fixes, sleep: sleepCtx}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Name is "llm".
func (*LLMCompressor) Name() string { return "llm" }

// Begin starts a session.
func (c *LLMCompressor) Begin(now time.Time) CompressSession {
	return &llmSession{c: c, now: now}
}

type llmSession struct {
	c        *LLMCompressor
	now      time.Time
	messages []string
}

func (s *llmSession) Add(message string) { s.messages = append(s.messages, message) }

func (s *llmSession) Finish(ctx context.Context, existing func() string) (Compressed, error) {
	var out Compressed
	if len(s.messages) == 0 {
		return out, nil
	}
	day := model.ParseDayFile(existing(), false)
	for _, chunk := range chunkMessages(s.messages, s.c.settings.ChunkTokens) {
		prompt := buildPrompt(chunk, day.Render())
		out.Prompts++
		reply, err := s.c.complete(ctx, prompt)
		var obs []model.Observation
		if err == nil {
			if normalized := s.normalizeReply(reply); normalized != "" {
				obs = model.ParseObservationMarkdown(normalized)
			} else {
				err = errors.New("the model's reply held no observation lines")
			}
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return out, ctxErr
		}
		if err != nil {
			out.Fallbacks = append(out.Fallbacks, err.Error())
			rs := newRulesSession(s.now, s.c.fixes)
			for _, m := range chunk {
				rs.add(m)
			}
			obs = rs.finish()
		}
		for _, o := range obs {
			day.Merge(o)
		}
		out.Observations = append(out.Observations, obs...)
	}
	return out, nil
}

// chunkMessages splits messages where the buffer ClawVault's Observer keeps
// (messages joined by newlines) reaches the token threshold (4 characters
// a token, rounded up).
func chunkMessages(messages []string, tokens int) [][]string {
	var out [][]string
	start, chars := 0, 0
	for i, m := range messages {
		if i > start {
			chars++ // the newline joining it
		}
		chars += jscompat.UTF16Len(m)
		if (chars+3)/4 >= tokens {
			out = append(out, messages[start:i+1])
			start, chars = i+1, 0
		}
	}
	if start < len(messages) {
		out = append(out, messages[start:])
	}
	return out
}

// complete sends one prompt, retrying what may pass on a second try
// (timeouts, connection errors, 408, 429, 5xx) with exponential backoff.
func (c *LLMCompressor) complete(ctx context.Context, prompt string) (string, error) {
	var lastErr error
	for attempt := 0; attempt <= c.settings.Retries; attempt++ {
		if attempt > 0 {
			wait := time.Duration(math.Pow(2, float64(attempt-1))) * time.Second
			var re *retryableError
			if errors.As(lastErr, &re) && re.after > 0 {
				wait = min(re.after, 60*time.Second)
			}
			if err := c.sleep(ctx, wait); err != nil {
				return "", err
			}
		}
		reply, err := c.request(ctx, prompt)
		if err == nil {
			return reply, nil
		}
		lastErr = err
		var re *retryableError
		if !errors.As(err, &re) || ctx.Err() != nil {
			break
		}
	}
	if c.settings.Retries > 0 {
		return "", fmt.Errorf("%v (after %d attempts)", lastErr, c.settings.Retries+1)
	}
	return "", lastErr
}

type retryableError struct {
	err   error
	after time.Duration
}

func (e *retryableError) Error() string { return e.err.Error() }
func (e *retryableError) Unwrap() error { return e.err }

func (c *LLMCompressor) request(ctx context.Context, prompt string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.settings.Timeout)
	defer cancel()
	var url string
	var body any
	header := http.Header{"Content-Type": {"application/json"}}
	if c.settings.Provider == "anthropic" {
		url = c.settings.BaseURL + "/v1/messages"
		header.Set("x-api-key", c.settings.APIKey)
		header.Set("anthropic-version", "2023-06-01")
		body = map[string]any{"model": c.settings.Model, "temperature": 0.1, "max_tokens": c.settings.MaxTokens,
			"messages": []map[string]string{{"role": "user", "content": prompt}}}
	} else {
		url = c.settings.BaseURL + "/chat/completions"
		if c.settings.APIKey != "" {
			header.Set("Authorization", "Bearer "+c.settings.APIKey)
		}
		body = map[string]any{"model": c.settings.Model, "temperature": 0.1, "messages": []map[string]string{
			{"role": "system", "content": "You transform session logs into concise observations."},
			{"role": "user", "content": prompt}}}
	}
	data, err := json.Marshal(body)
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return "", err
	}
	req.Header = header
	resp, err := c.client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return "", &retryableError{err: fmt.Errorf("the model did not answer within %s", c.settings.Timeout)}
		}
		return "", &retryableError{err: fmt.Errorf("cannot reach the model at %s: %v", c.settings.BaseURL, err)}
	}
	defer resp.Body.Close()
	payload, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return "", &retryableError{err: fmt.Errorf("the model's reply broke off: %v", err)}
	}
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("the model answered %s: %s", resp.Status, snippet(payload))
		if resp.StatusCode == 408 || resp.StatusCode == 429 || resp.StatusCode >= 500 {
			re := &retryableError{err: err}
			if secs, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && secs > 0 {
				re.after = time.Duration(secs) * time.Second
			}
			return "", re
		}
		return "", err
	}
	text, err := replyText(c.settings.Provider, payload)
	if err != nil {
		return "", fmt.Errorf("the model's reply is not the API's JSON: %v", err)
	}
	return text, nil
}

func snippet(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	return jscompat.SliceUTF16(s, 200)
}

// replyText extracts the text as ClawVault does: Anthropic's text blocks
// joined by newlines; OpenAI's first choice, a string or text parts.
func replyText(provider string, payload []byte) (string, error) {
	if provider == "anthropic" {
		var r struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal(payload, &r); err != nil {
			return "", err
		}
		var parts []string
		for _, p := range r.Content {
			if p.Type == "text" && p.Text != "" {
				parts = append(parts, p.Text)
			}
		}
		return jscompat.JSTrim(strings.Join(parts, "\n")), nil
	}
	var r struct {
		Choices []struct {
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(payload, &r); err != nil {
		return "", err
	}
	if len(r.Choices) == 0 {
		return "", nil
	}
	raw := r.Choices[0].Message.Content
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return jscompat.JSTrim(s), nil
	}
	var parts []json.RawMessage
	if json.Unmarshal(raw, &parts) != nil {
		return "", nil
	}
	var texts []string
	for _, p := range parts {
		var t string
		if json.Unmarshal(p, &t) != nil {
			var obj struct {
				Text *string `json:"text"`
			}
			if json.Unmarshal(p, &obj) == nil && obj.Text != nil {
				t = *obj.Text
			}
		}
		if jscompat.JSTrim(t) != "" {
			texts = append(texts, t)
		}
	}
	return jscompat.JSTrim(strings.Join(texts, "\n")), nil
}

var (
	fenceOpenRE     = jscompat.MustJSRegexp("^```(?:markdown)?\\s*", "i")
	fenceCloseRE    = jscompat.MustJSRegexp("\\s*```$", "")
	emojiStartRE    = jscompat.MustJSRegexp(`^(?:-\s*)?(🔴|🟡|🟢)\s+`, "")
	fusedLinkOpenRE = jscompat.MustJSRegexp(`\w+\[\[`, "g")
	fusedLinkEndRE  = jscompat.MustJSRegexp(`\]\]\w+`, "g")
	multiSpaceRE    = jscompat.MustJSRegexp(` {2,}`, "g")
	commitmentTagRE = jscompat.MustJSRegexp(`\[COMMITMENT\]`, "i")
	decisionPrefRE  = jscompat.MustJSRegexp(`^Decision:\s`, "i")
	todoPrefRE      = jscompat.MustJSRegexp(`^TODO:\s`, "i")
	sceneSetterRE   = jscompat.MustJSRegexp(`\b(?:meeting (?:recap|started|begins)|session (?:started|opened|begins)|kickoff (?:started|begins)|standup (?:started|begins))\b`, "i")
	ackNoiseRE      = jscompat.MustJSRegexp(`^(?:(?:acknowledged|confirmed|noted|ok(?:ay)?|sounds good|got it|understood|thanks|thank you)\b.*[.!]?\s*$)`, "i")
)

// normalizeReply is normalizeLlmOutput: fences stripped, a date heading
// added when missing, fused wiki-links repaired, then the importance rules
// and the noise filter applied. "" means the reply is unusable.
func (s *llmSession) normalizeReply(output string) string {
	if jscompat.JSTrim(output) == "" {
		return ""
	}
	cleaned := jscompat.JSTrim(fenceCloseRE.ReplaceFirst(fenceOpenRE.ReplaceFirst(output, ""), ""))
	hasObservation, hasHeading := false, false
	for _, line := range strings.Split(cleaned, "\n") {
		line = jscompat.JSTrim(strings.TrimSuffix(line, "\r"))
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "- [") || emojiStartRE.MatchString(line) {
			hasObservation = true
		}
		if _, ok := model.ParseDateHeading(line); ok {
			hasHeading = true
		}
	}
	if !hasObservation {
		return ""
	}
	result := cleaned
	if !hasHeading {
		result = "## " + s.now.UTC().Format("2006-01-02") + "\n\n" + cleaned
	}
	result = multiSpaceRE.ReplaceAll(fusedLinkEndRE.ReplaceAll(fusedLinkOpenRE.ReplaceAll(result, " [["), "]]"), " ")
	var kept []model.Observation
	for _, o := range model.ParseObservationMarkdown(result) {
		o = enforceImportance(o)
		if sceneSetterRE.MatchString(o.Content) && o.Importance < 0.5 || ackNoiseRE.MatchString(o.Content) && o.Importance < 0.4 {
			continue
		}
		kept = append(kept, o)
	}
	return model.RenderObservations(kept)
}

// enforceImportance is enforceImportanceForRecord.
func enforceImportance(o model.Observation) model.Observation {
	typ := o.Type
	switch {
	case commitmentTagRE.MatchString(o.Content):
		typ = "commitment"
	case decisionPrefRE.MatchString(o.Content):
		typ = "decision"
	case todoPrefRE.MatchString(o.Content):
		typ = "todo"
	}
	t := jscompat.NewText(o.Content)
	task := inferTaskType(t)
	importance, confidence := o.Importance, o.Confidence
	if isCritical(t) {
		importance, confidence = max(importance, 0.85), max(confidence, 0.85)
		if typ == "fact" {
			typ = model.InferObservationTypeText(t)
		}
	} else if notableRE.MatchText(t) {
		importance, confidence = max(importance, 0.5), max(confidence, 0.75)
	}
	if task != "" && typ != "commitment" && typ != "decision" {
		if typ == "fact" {
			typ = task
		}
		floor := 0.65
		if task == "commitment-unresolved" {
			floor = 0.72
		}
		importance, confidence = max(importance, floor), max(confidence, 0.8)
	}
	if typ == "decision" || typ == "commitment" || typ == "milestone" {
		importance = max(importance, 0.6)
	}
	o.Type, o.Importance, o.Confidence = typ, model.Clamp01(importance), model.Clamp01(confidence)
	return o
}

// buildPrompt is ClawVault's prompt, word for word.
func buildPrompt(messages []string, existing string) string {
	var b strings.Builder
	b.WriteString(promptHead)
	if e := jscompat.JSTrim(existing); e != "" {
		b.WriteString(e)
	} else {
		b.WriteString("(none)")
	}
	b.WriteString("\n\nRaw messages:\n")
	for i, m := range messages {
		b.WriteString("[" + strconv.Itoa(i+1) + "] " + m + "\n")
	}
	b.WriteString("\nReturn only the updated observation markdown.")
	return b.String()
}
