package store

// LLMConfig configures the llm compressor of observation sweeps (issue 3).
type LLMConfig struct{}

// DefaultLLMConfig is the llm section without a file.
func DefaultLLMConfig() LLMConfig { return LLMConfig{} }
