package store

import (
	"fmt"
	"time"
)

// LLMConfig configures the llm compressor of observation sweeps: the
// [llm] section of the config file. Empty strings fall back to the usual
// environment variables (ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL,
// ANTHROPIC_BASE_URL), then to ClawVault's defaults.
type LLMConfig struct {
	// Provider is "anthropic" (the Messages API) or "openai" (any
	// OpenAI-compatible chat completions endpoint: OpenAI, a local Ollama or
	// vLLM, a gateway). Empty: anthropic when ANTHROPIC_API_KEY is set,
	// else openai.
	Provider string `toml:"provider"`
	// BaseURL is the API root, e.g. https://api.openai.com/v1 or
	// http://localhost:11434/v1.
	BaseURL string `toml:"base_url"`
	// Model defaults to ClawVault's: claude-3-5-haiku-latest, gpt-4o-mini.
	Model string `toml:"model"`
	// APIKeyEnv names the environment variable that holds the key; APIKey
	// holds the key itself (prefer APIKeyEnv: the config file is not a
	// secret store).
	APIKeyEnv string `toml:"api_key_env"`
	APIKey    string `toml:"api_key"`
	// Timeout bounds one request; Retries is how many times a request that
	// timed out, hit a rate limit or a server error is tried again, with
	// exponential backoff.
	Timeout Duration `toml:"timeout"`
	Retries int      `toml:"retries"`
	// MaxTokens caps the reply (ClawVault asks for 1400).
	MaxTokens int `toml:"max_tokens"`
	// ChunkTokens splits a session's messages into prompts of about this
	// many tokens (4 characters each), ClawVault's observer threshold.
	ChunkTokens int `toml:"chunk_tokens"`
}

// DefaultLLMConfig is the llm section without a file.
func DefaultLLMConfig() LLMConfig {
	return LLMConfig{Timeout: Duration(60 * time.Second), Retries: 2, MaxTokens: 1400, ChunkTokens: 30000}
}

// Duration is a time.Duration written as "60s" in the config file.
type Duration time.Duration

// MarshalText writes the duration as Go writes it ("1m0s").
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText reads "60s", "2m", "1m30s".
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration such as \"60s\" or \"2m\"", b)
	}
	*d = Duration(v)
	return nil
}
