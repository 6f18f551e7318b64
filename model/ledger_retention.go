package model

import (
	"cmp"
	"slices"
	"time"
)

// The ClawVault ledger archive (spec clawvault.md §5): `clawvault archive
// --older-than N` moves observation day files dated before today (UTC)
// minus N days from the ledger, or the legacy folder, to
// ledger/archive/observations/YYYY/MM/DD.md. It reads one file per date:
// the ledger's when both hold the date. `clawvault reflect` ends with the
// same archive pass, always at 14 days.

// DefaultArchiveDays is ClawVault's --older-than default, and the age
// `reflect` always archives at.
const DefaultArchiveDays = 14

// LedgerLocation says where an observation day file lives.
type LedgerLocation string

const (
	LedgerMain    LedgerLocation = "ledger"  // ledger/observations/YYYY/MM/DD.md
	LedgerLegacy  LedgerLocation = "legacy"  // observations/YYYY-MM-DD.md
	LedgerArchive LedgerLocation = "archive" // ledger/archive/observations/YYYY/MM/DD.md
)

// rank is listObservationFiles's preference when two files share a date.
func (l LedgerLocation) rank() int {
	switch l {
	case LedgerMain:
		return 3
	case LedgerLegacy:
		return 2
	}
	return 1
}

// LedgerFile is one observation day file.
type LedgerFile struct {
	Date     string // YYYY-MM-DD, from the path
	Rel      string // path inside the vault, with '/'
	Location LedgerLocation
	Size     int64
	ModTime  time.Time
	Inode    uint64
}

// ArchiveRel is where ClawVault archives the observations of a date.
func ArchiveRel(date string) string {
	return "ledger/archive/observations/" + date[0:4] + "/" + date[5:7] + "/" + date[8:10] + ".md"
}

// LedgerMove is one day file the archive pass moves.
type LedgerMove struct {
	LedgerFile
	TargetRel string
	// Conflict: the archive already holds this date. ClawVault would copy
	// over it and lose the archived file; the plan leaves both in place.
	Conflict bool
}

// LedgerPlan is what `clawvault archive --older-than N` would do.
type LedgerPlan struct {
	OlderThanDays int
	// Cutoff is the first date kept (today UTC minus OlderThanDays).
	Cutoff string
	// Scanned counts the day files the pass reads (one per date), as
	// ClawVault's result reports it.
	Scanned int
	// Shadowed lists legacy files the pass never reads because the ledger
	// holds the same date.
	Shadowed []LedgerFile
	Moves    []LedgerMove
}

// Archived counts the files ClawVault would archive (conflicts included:
// it would overwrite those).
func (p *LedgerPlan) Archived() int { return len(p.Moves) }

// Bytes sums the bytes that move.
func (p *LedgerPlan) Bytes() int64 {
	var n int64
	for _, m := range p.Moves {
		if !m.Conflict {
			n += m.Size
		}
	}
	return n
}

// PlanLedgerArchive applies archiveObservations to the vault's day files
// (every location; archived ones only tell conflicts).
func PlanLedgerArchive(files []LedgerFile, olderThanDays int, now time.Time) *LedgerPlan {
	olderThanDays = max(1, olderThanDays)
	today := now.UTC().Truncate(24 * time.Hour)
	p := &LedgerPlan{OlderThanDays: olderThanDays, Cutoff: today.AddDate(0, 0, -olderThanDays).Format(time.DateOnly)}
	archived := map[string]bool{}
	byDate := map[string]LedgerFile{}
	for _, f := range files {
		if f.Location == LedgerArchive {
			archived[f.Date] = true
			continue
		}
		prev, ok := byDate[f.Date]
		switch {
		case !ok:
			byDate[f.Date] = f
		case f.Location.rank() > prev.Location.rank():
			p.Shadowed = append(p.Shadowed, prev)
			byDate[f.Date] = f
		default:
			p.Shadowed = append(p.Shadowed, f)
		}
	}
	p.Scanned = len(byDate)
	for date, f := range byDate {
		if date >= p.Cutoff {
			continue
		}
		target := ArchiveRel(date)
		p.Moves = append(p.Moves, LedgerMove{LedgerFile: f, TargetRel: target, Conflict: archived[date]})
	}
	slices.SortFunc(p.Moves, func(a, b LedgerMove) int { return cmp.Compare(a.Date, b.Date) })
	slices.SortFunc(p.Shadowed, func(a, b LedgerFile) int { return cmp.Compare(a.Rel, b.Rel) })
	return p
}
