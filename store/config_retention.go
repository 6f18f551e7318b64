package store

// RetentionConfig holds retention policies, with per-agent overrides (issue 4).
type RetentionConfig struct{}

// DefaultRetentionConfig is the retention section without a file.
func DefaultRetentionConfig() RetentionConfig { return RetentionConfig{} }
