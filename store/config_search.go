package store

// SearchConfig is the [search] section: what the search index reads and
// where it lives.
type SearchConfig struct {
	// Templates adds the vault's templates/ folder (left out by default:
	// schema stubs full of {{placeholders}}).
	Templates bool `toml:"templates"`
	// Archive adds ledger/archive/ (observations ClawVault archived, which
	// its own search leaves out too).
	Archive bool `toml:"archive"`
	// Transcripts adds the user and assistant text of every agent's
	// transcripts, each hit at its JSONL line.
	Transcripts bool `toml:"transcripts"`
	// CacheDir is where indexes are kept; empty means
	// $XDG_CACHE_HOME/clawvault-tui (~/.cache/clawvault-tui). It must not
	// be inside the vault or a workspace.
	CacheDir string `toml:"cache_dir"`
	// Limit is how many hits `search` prints.
	Limit int `toml:"limit"`
}

// DefaultSearchConfig is the search section without a file.
func DefaultSearchConfig() SearchConfig { return SearchConfig{Limit: 20} }
