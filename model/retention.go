package model

import "time"

// RetentionPlan is the three retention dry-runs of one workspace: OpenClaw's
// session maintenance per agent, the retain policy over transcripts, and
// the ClawVault ledger archive. Nothing in it has happened; applying it is
// a separate step that moves files and never deletes them.
type RetentionPlan struct {
	Now      time.Time
	StateDir string
	Vault    string
	// Maintenance has one plan per agent with a sessions folder.
	Maintenance []*MaintenancePlan
	// Transcripts has one plan per live transcript the policy would trim
	// (transcripts it leaves alone are counted in TranscriptsChecked).
	Transcripts        []*TranscriptPlan
	TranscriptsChecked int
	// Ledger is nil when there is no vault.
	Ledger *LedgerPlan
	// Reflect is what `clawvault reflect` would archive: the same pass at
	// 14 days (nil when Ledger is).
	Reflect *LedgerPlan
	// SQLite is what lies beside the agents' SQLite-era stores that can go
	// (nil when no agent has a store).
	SQLite *SQLitePlan
	// Problems name what could not be planned (an unreadable transcript);
	// the rest of the plan stands.
	Problems []string
}

// MaintenanceBytes is what the maintenance plans take out of the sessions
// folders.
func (p *RetentionPlan) MaintenanceBytes() int64 {
	var n int64
	for _, m := range p.Maintenance {
		n += m.FreedBytes()
	}
	return n
}

// TranscriptBytes is what rewriting the transcripts would drop.
func (p *RetentionPlan) TranscriptBytes() int64 {
	var n int64
	for _, t := range p.Transcripts {
		n += t.DropBytes()
	}
	return n
}

// LedgerBytes is what the ledger archive moves.
func (p *RetentionPlan) LedgerBytes() int64 {
	if p.Ledger == nil {
		return 0
	}
	return p.Ledger.Bytes()
}

// Empty reports whether applying the plan would change nothing.
func (p *RetentionPlan) Empty() bool {
	for _, m := range p.Maintenance {
		if m.WouldMutate() {
			return false
		}
	}
	return p.Ledger == nil || !hasMoves(p.Ledger)
}

func hasMoves(l *LedgerPlan) bool {
	for _, m := range l.Moves {
		if !m.Conflict {
			return true
		}
	}
	return false
}
