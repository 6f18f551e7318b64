package model

// A retention apply moves files and rewrites sessions.json, and records
// every change in a manifest.json first, so that `retention --undo` can put
// everything back, even after an apply that stopped halfway. The field
// names are a contract, like --json output: added, never renamed.

// ManifestVersion is the version of the manifest format.
const ManifestVersion = 1

// Manifest statuses.
const (
	ManifestApplying = "applying" // written before the first change
	ManifestApplied  = "applied"  // every change done
	ManifestPartial  = "partial"  // an apply stopped on an error; Done says what happened
	ManifestUndone   = "undone"   // everything put back
)

// RetentionManifest lists what one apply changed.
type RetentionManifest struct {
	Version   int    `json:"version"`
	Tool      string `json:"tool"`
	CreatedAt string `json:"createdAt"`
	// PlannedAt is the plan's clock (--now), which ages were measured from.
	PlannedAt  string `json:"plannedAt"`
	Status     string `json:"status"`
	StateDir   string `json:"stateDir"`
	Vault      string `json:"vault"`
	ArchiveDir string `json:"archiveDir"`
	// Stores are the sessions.json files rewritten without removed rows.
	Stores []ManifestStore `json:"stores"`
	// Moves are the files moved, in the order they moved.
	Moves []ManifestMove `json:"moves"`
	// CreatedDirs are folders the apply created (removed by undo when empty).
	CreatedDirs []string `json:"createdDirs"`
	// Error says why an apply stopped (status partial).
	Error string `json:"error,omitempty"`
	// Kept are the files the plan removes that the apply left in place:
	// transcripts holding bytes no sweep has observed (and the other files
	// of their rows). UnobservedMoved is what --include-unobserved moved
	// of such bytes.
	Kept            []ManifestKept `json:"kept,omitempty"`
	UnobservedMoved int64          `json:"unobservedMoved,omitempty"`
}

// ManifestKept is a file an apply left in place.
type ManifestKept struct {
	Agent      string `json:"agent"`
	Key        string `json:"key,omitempty"`
	Path       string `json:"path"`
	Unobserved int64  `json:"unobserved"`
}

// KeptBytes counts the kept transcripts and their unobserved bytes.
func (m *RetentionManifest) KeptBytes() (files int, bytes int64) {
	for _, k := range m.Kept {
		if k.Unobserved > 0 {
			files++
			bytes += k.Unobserved
		}
	}
	return files, bytes
}

// ManifestStore is one sessions.json rewrite. Original is the old file,
// kept (hard-linked when possible, so with its mtime and inode) in the
// archive folder.
type ManifestStore struct {
	Agent          string   `json:"agent"`
	Path           string   `json:"path"`
	Original       string   `json:"original"`
	OriginalSHA256 string   `json:"originalSha256"`
	WrittenSHA256  string   `json:"writtenSha256"`
	RemovedKeys    []string `json:"removedKeys"`
	Done           bool     `json:"done"`
}

// ManifestMove is one file moved from From to To.
type ManifestMove struct {
	// Plan is "maintenance" or "ledger"; Step the maintenance step or
	// "archive" for the ledger.
	Plan    string `json:"plan"`
	Step    string `json:"step"`
	Agent   string `json:"agent,omitempty"`
	Key     string `json:"key,omitempty"`
	From    string `json:"from"`
	To      string `json:"to"`
	Size    int64  `json:"sizeBytes"`
	ModTime string `json:"modifiedAt"`
	Inode   uint64 `json:"inode,omitempty"`
	Done    bool   `json:"done"`
}
