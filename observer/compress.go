package observer

import (
	"context"
	"fmt"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store"
)

// Compressor turns one session's messages into observations. Two exist:
// "rules", ClawVault's deterministic compression (the default, offline),
// and "llm", a model behind an OpenAI-compatible or Anthropic API, which
// falls back to the rules when the model fails, and says so.
type Compressor interface {
	// Name is "rules" or "llm".
	Name() string
	// Begin starts one session. now is the session's clock: the date and
	// time of observations whose text names none.
	Begin(now time.Time) CompressSession
}

// CompressSession compresses one session.
type CompressSession interface {
	// Add takes one message, already sanitized (SanitizeMessage).
	Add(message string)
	// Finish compresses what was added. existing returns today's day file
	// before the session, as a model is shown it (the rules never ask).
	Finish(ctx context.Context, existing func() string) (Compressed, error)
}

// Compressed is a compressor's output for one session.
type Compressed struct {
	// Observations are to be merged into the day file, in order.
	Observations []model.Observation
	// Fallbacks say why the rules stood in for the model, one entry per
	// prompt that failed ("" entries never occur).
	Fallbacks []string
	// Prompts is how many requests a model was sent.
	Prompts int
}

// NewCompressor returns the compressor a sweep names: "rules", or "llm"
// with the [llm] settings (resolved against the environment through
// getenv). The CLI and the TUI choose through it.
func NewCompressor(name string, llm store.LLMConfig, getenv func(string) string, fixes Fixes) (Compressor, error) {
	switch name {
	case "", "rules":
		return NewRulesCompressor(fixes), nil
	case "llm":
		settings, err := ResolveLLM(llm, getenv)
		if err != nil {
			return nil, err
		}
		return NewLLMCompressor(settings, nil, fixes), nil
	}
	return nil, fmt.Errorf("no compressor %q: use rules or llm", name)
}

// RulesCompressor is ClawVault's deterministic compression.
type RulesCompressor struct{ fixes Fixes }

// NewRulesCompressor returns the rules compressor with the given fixes.
func NewRulesCompressor(fixes Fixes) *RulesCompressor { return &RulesCompressor{fixes: fixes} }

// Name is "rules".
func (*RulesCompressor) Name() string { return "rules" }

// Begin starts a session.
func (c *RulesCompressor) Begin(now time.Time) CompressSession {
	return &rulesCompressSession{s: newRulesSession(now, c.fixes)}
}

type rulesCompressSession struct {
	s     *rulesSession
	added int
}

func (r *rulesCompressSession) Add(message string) {
	r.added++
	r.s.add(message)
}

func (r *rulesCompressSession) Finish(ctx context.Context, _ func() string) (Compressed, error) {
	if r.added == 0 {
		return Compressed{}, nil
	}
	return Compressed{Observations: r.s.finish()}, ctx.Err()
}
