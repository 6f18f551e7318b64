package model

import (
	"fmt"
	"path/filepath"
	"time"
)

// CodeMemoryReindexOrphans: temp databases of OpenClaw's memory reindex
// lie beside the agent's store while no reindex holds its lock (an agent
// diagnosis).
const CodeMemoryReindexOrphans DiagnosisCode = "memory-reindex-orphans"

// ReindexOrphanAge is how old every file of a reindex temp database must be
// before OpenClaw removes it (MEMORY_REINDEX_ORPHAN_MIN_AGE_MS): retention
// archives no younger one either.
const ReindexOrphanAge = 24 * time.Hour

// ReindexShadow is one temp database of OpenClaw's memory reindex,
// <store>.memory-reindex-<uuid>, with its -wal, -shm and -journal.
type ReindexShadow struct {
	Name  string   // the database's name
	Files []string // its files, paths
	Bytes int64
	// ModTime is the newest of its files'.
	ModTime time.Time
}

// ReindexState is what lies beside a store of OpenClaw's memory reindex.
type ReindexState struct {
	Shadows []ReindexShadow
	// Lock is the reindex lock's path; LockHeld: an OpenClaw process holds
	// it (a reindex runs); LockErr says why that could not be told.
	Lock     string
	LockHeld bool
	LockErr  string
}

// Orphans are the temp databases OpenClaw would remove itself were a
// reindex to take the lock now: no process holds the lock, and every file
// of each is at least ReindexOrphanAge old.
func (r *ReindexState) Orphans(now time.Time) []ReindexShadow {
	if r == nil || r.LockHeld || r.LockErr != "" {
		return nil
	}
	var out []ReindexShadow
	for _, s := range r.Shadows {
		if now.Sub(s.ModTime) >= ReindexOrphanAge {
			out = append(out, s)
		}
	}
	return out
}

// Diagnosis says what the temp databases are: a running reindex's (no
// diagnosis), or orphans, with their bytes, and what retention does.
func (r *ReindexState) Diagnosis(now time.Time) *Diagnosis {
	if r == nil || len(r.Shadows) == 0 || r.LockHeld {
		return nil
	}
	var bytes int64
	newest := r.Shadows[0].ModTime
	for _, s := range r.Shadows {
		bytes += s.Bytes
		if s.ModTime.After(newest) {
			newest = s.ModTime
		}
	}
	lock := filepath.Base(r.Lock)
	lie := "lie"
	if len(r.Shadows) == 1 {
		lie = "lies"
	}
	msg := fmt.Sprintf("%s of OpenClaw's memory reindex (%s) %s beside the store, the newest written %s ago", plural(len(r.Shadows), "temp database", "temp databases"), Bytes(bytes), lie, Ago(now.Sub(newest)))
	if r.LockErr != "" {
		return &Diagnosis{CodeMemoryReindexOrphans, fmt.Sprintf("%s; whether a reindex holds its lock %s cannot be told (%s), so they are left alone.", msg, lock, r.LockErr)}
	}
	orphans := r.Orphans(now)
	var freed int64
	for _, s := range orphans {
		freed += s.Bytes
	}
	msg += fmt.Sprintf("; no OpenClaw process holds the reindex lock %s, so no reindex is writing them", lock)
	if len(orphans) == len(r.Shadows) {
		return &Diagnosis{CodeMemoryReindexOrphans, msg + fmt.Sprintf(": `clawvault-tui retention --apply` archives them (frees %s).", Bytes(freed))}
	}
	return &Diagnosis{CodeMemoryReindexOrphans, msg + fmt.Sprintf(". `clawvault-tui retention --apply` archives those a day old, as OpenClaw's next reindex removes them (%s now, frees %s).", plural(len(orphans), "database", "databases"), Bytes(freed))}
}
