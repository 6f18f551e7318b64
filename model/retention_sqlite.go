package model

import "time"

// The SQLite era's part of a retention plan: files beside an agent store
// that hold nothing the store lacks, moved into the apply's dated archive
// folder (manifest, undo, never deleted):
//   - a leftover JSONL transcript of the sessions folder whose every entry
//     is in the store (import-verified); the importer's own archive folder
//     is left alone, its migration manifest names those files;
//   - a temp database of OpenClaw's memory reindex that OpenClaw itself
//     would remove (no process holds the reindex lock, every file a day
//     old or older).

// Steps of the SQLite-era plan.
const (
	StepImportVerified = "import-verified"
	StepReindexOrphan  = "reindex-orphan"
)

// SQLiteFile is one file of the SQLite-era plan.
type SQLiteFile struct {
	Agent string
	Step  string // StepImportVerified or StepReindexOrphan
	Path  string
	// Key is the session key the store gives a verified transcript.
	Key     string
	Size    int64
	ModTime time.Time
	Inode   uint64
	// Why is the sentence that says why it may go.
	Why string
}

// SQLitePlan is what the plan archives beside the agents' stores.
type SQLitePlan struct {
	Files []SQLiteFile
	// Problems name what could not be planned (a store that cannot be
	// read, a reindex lock that cannot be tested).
	Problems []string
}

// Bytes is what the plan frees.
func (p *SQLitePlan) Bytes() int64 {
	if p == nil {
		return 0
	}
	var n int64
	for _, f := range p.Files {
		n += f.Size
	}
	return n
}
