package store

// SearchConfig configures the search index (issue 5).
type SearchConfig struct{}

// DefaultSearchConfig is the search section without a file.
func DefaultSearchConfig() SearchConfig { return SearchConfig{} }
