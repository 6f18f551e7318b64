package store

import "clawvault-tui/store/transcript"

// TranscriptsConfig is the [transcripts] section: how transcripts are read.
type TranscriptsConfig struct {
	// MaxLineMB is the longest transcript line (in MiB) a sweep, status
	// --deep or the search index decodes; a longer one is skipped and
	// reported with its line number, never loaded whole.
	MaxLineMB int `toml:"max_line_mb"`
}

// DefaultTranscriptsConfig is the section without a file.
func DefaultTranscriptsConfig() TranscriptsConfig {
	return TranscriptsConfig{MaxLineMB: transcript.DefaultMaxLineBytes >> 20}
}

// MaxLineBytes is the cap in bytes (the default for 0 or less).
func (c TranscriptsConfig) MaxLineBytes() int64 {
	if c.MaxLineMB <= 0 {
		return transcript.DefaultMaxLineBytes
	}
	return int64(c.MaxLineMB) << 20
}
