package model

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Observation thresholds, as ClawVault 3.5.2 scales them by total file size.
const (
	KiB = 1024
	MiB = 1024 * KiB

	SmallThresholdBytes  = 50 * KiB
	MediumThresholdBytes = 150 * KiB
	LargeThresholdBytes  = 300 * KiB

	// StaleAfter is ClawVault's STALE_CURSOR_THRESHOLD_MS.
	StaleAfter = 12 * time.Hour
)

// ThresholdBytes is getScaledObservationThresholdBytes: 50 KiB below 1 MiB,
// 150 KiB up to and including 5 MiB, 300 KiB above.
func ThresholdBytes(fileSize int64) int64 {
	switch {
	case fileSize < MiB:
		return SmallThresholdBytes
	case fileSize <= 5*MiB:
		return MediumThresholdBytes
	}
	return LargeThresholdBytes
}

// FileKind names what a file in a sessions directory is.
type FileKind uint8

const (
	FileOther FileKind = iota
	FilePrimary
	FileTopic
	FileFork
	FileResetArchive
	FileDeletedArchive
	FileCheckpoint
	FileTrajectory
	FileTrajectoryPath
	FileCorrupt
	FileRepairBackup
	FileLock
	FileStore
	FileStoreBackup
)

var fileKindNames = [...]string{
	FileOther:          "other",
	FilePrimary:        "primary",
	FileTopic:          "topic",
	FileFork:           "fork",
	FileResetArchive:   "reset-archive",
	FileDeletedArchive: "deleted-archive",
	FileCheckpoint:     "checkpoint",
	FileTrajectory:     "trajectory",
	FileTrajectoryPath: "trajectory-path",
	FileCorrupt:        "corrupt-copy",
	FileRepairBackup:   "repair-backup",
	FileLock:           "lock",
	FileStore:          "sessions.json",
	FileStoreBackup:    "sessions.json-backup",
}

func (k FileKind) String() string {
	if int(k) < len(fileKindNames) {
		return fileKindNames[k]
	}
	return "other"
}

// IsTranscript reports whether files of this kind hold transcript lines.
func (k FileKind) IsTranscript() bool {
	switch k {
	case FilePrimary, FileTopic, FileFork, FileResetArchive, FileDeletedArchive, FileCheckpoint, FileCorrupt, FileRepairBackup:
		return true
	}
	return false
}

// IsArchive reports the kinds OpenClaw leaves behind when a session is reset
// or deleted.
func (k FileKind) IsArchive() bool {
	return k == FileResetArchive || k == FileDeletedArchive
}

// FileName is a classified name in a sessions directory.
type FileName struct {
	Kind FileKind
	// SessionID is the session the file belongs to: the transcript's id for
	// primaries, topics, archives, checkpoints and trajectories; the uuid of
	// a fork.
	SessionID string
	// Topic is the thread id of a -topic- file.
	Topic string
	// Stamp is the archive, fork or backup timestamp as written in the name.
	Stamp string
	// Compressed marks a .zst archive.
	Compressed bool
}

var (
	archiveRE    = regexp.MustCompile(`^(.+)\.jsonl\.(reset|deleted)\.(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{3})?Z)(\.zst)?$`)
	checkpointRE = regexp.MustCompile(`^(.+)\.checkpoint\.([0-9a-fA-F-]{8,})\.jsonl$`)
	corruptRE    = regexp.MustCompile(`^(.+?)(?:\.jsonl)?\.corrupt-(.+)-([0-9a-f]{8})\.jsonl$`)
	repairRE     = regexp.MustCompile(`^(.+?)(?:\.jsonl)?\.backup-(\d{8}-\d{6})$`)
	forkRE       = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)_(.+)\.jsonl$`)
	topicRE      = regexp.MustCompile(`^(.+)-topic-([^.]+)\.jsonl$`)
	storeBakRE   = regexp.MustCompile(`^sessions\.json\.bak\.(\d+)$`)
)

// ClassifyFileName names a file in agents/<id>/sessions/ (spec §1).
func ClassifyFileName(name string) FileName {
	if name == "sessions.json" {
		return FileName{Kind: FileStore}
	}
	if m := storeBakRE.FindStringSubmatch(name); m != nil {
		return FileName{Kind: FileStoreBackup, Stamp: m[1]}
	}
	if strings.HasSuffix(name, ".lock") {
		return FileName{Kind: FileLock, SessionID: strings.TrimSuffix(strings.TrimSuffix(name, ".lock"), ".jsonl")}
	}
	if m := archiveRE.FindStringSubmatch(name); m != nil {
		kind := FileResetArchive
		if m[2] == "deleted" {
			kind = FileDeletedArchive
		}
		fn := FileName{Kind: kind, SessionID: m[1], Stamp: m[3], Compressed: m[4] != ""}
		if t := topicRE.FindStringSubmatch(m[1] + ".jsonl"); t != nil {
			fn.SessionID, fn.Topic = t[1], t[2]
		}
		return fn
	}
	if m := repairRE.FindStringSubmatch(name); m != nil {
		return FileName{Kind: FileRepairBackup, SessionID: m[1], Stamp: m[2]}
	}
	if strings.HasSuffix(name, ".trajectory-path.json") {
		return FileName{Kind: FileTrajectoryPath, SessionID: strings.TrimSuffix(name, ".trajectory-path.json")}
	}
	if !strings.HasSuffix(name, ".jsonl") {
		return FileName{Kind: FileOther}
	}
	if m := corruptRE.FindStringSubmatch(name); m != nil {
		return FileName{Kind: FileCorrupt, SessionID: m[1], Stamp: m[2]}
	}
	if m := checkpointRE.FindStringSubmatch(name); m != nil {
		return FileName{Kind: FileCheckpoint, SessionID: m[1], Stamp: m[2]}
	}
	if strings.HasSuffix(name, ".trajectory.jsonl") {
		return FileName{Kind: FileTrajectory, SessionID: strings.TrimSuffix(name, ".trajectory.jsonl")}
	}
	if m := forkRE.FindStringSubmatch(name); m != nil {
		return FileName{Kind: FileFork, SessionID: m[2], Stamp: m[1]}
	}
	if m := topicRE.FindStringSubmatch(name); m != nil {
		return FileName{Kind: FileTopic, SessionID: m[1], Topic: m[2]}
	}
	return FileName{Kind: FilePrimary, SessionID: strings.TrimSuffix(name, ".jsonl")}
}

// DirFile is what a stat of one name in a sessions directory gave. Stat
// follows symlinks, as ClawVault's statSync does.
type DirFile struct {
	Name    string
	IsFile  bool
	Size    int64
	ModTime time.Time
	Inode   uint64
}

// IndexRow is the part of one sessions.json row that ClawVault's discovery
// reads, with JavaScript's coercions already applied.
type IndexRow struct {
	Key string
	// SessionID is the trimmed sessionId, or "" when it is not a string.
	SessionID string
	// UpdatedAt is Number(updatedAt ?? 0); NaN is kept, and sorts as 0.
	UpdatedAt float64
}

// Descriptor is one session ClawVault's discovery finds.
type Descriptor struct {
	SessionID  string
	SessionKey string
	FileName   string
	// FromIndex is true when sessions.json named it, false for the
	// directory scan's agent:<a>:unknown:<id> fallback.
	FromIndex bool
}

// Discover is discoverSessionDescriptors of ClawVault 3.5.2: rows of
// sessions.json newest first whose <sessionId>.jsonl is a file, then every
// other *.jsonl without .backup or .deleted in its name, in name order, under
// the key agent:<agentID>:unknown:<id>. files must be in name order.
func Discover(agentID string, rows []IndexRow, files []DirFile) []Descriptor {
	byName := make(map[string]*DirFile, len(files))
	for i := range files {
		byName[files[i].Name] = &files[i]
	}
	sorted := slices.Clone(rows)
	slices.SortStableFunc(sorted, func(a, b IndexRow) int {
		return cmp.Compare(jsSortNumber(b.UpdatedAt), jsSortNumber(a.UpdatedAt))
	})
	seen := map[string]bool{}
	var out []Descriptor
	for _, r := range sorted {
		if !SessionIDPattern.MatchString(r.SessionID) || seen[r.SessionID] {
			continue
		}
		name := r.SessionID + ".jsonl"
		if f := byName[name]; f == nil || !f.IsFile {
			continue
		}
		seen[r.SessionID] = true
		out = append(out, Descriptor{SessionID: r.SessionID, SessionKey: r.Key, FileName: name, FromIndex: true})
	}
	for _, f := range files {
		name := f.Name
		if !strings.HasSuffix(name, ".jsonl") || strings.Contains(name, ".backup") || strings.Contains(name, ".deleted") {
			continue
		}
		id := strings.TrimSuffix(name, ".jsonl")
		if !SessionIDPattern.MatchString(id) || seen[id] || !f.IsFile {
			continue
		}
		seen[id] = true
		out = append(out, Descriptor{SessionID: id, SessionKey: FallbackKey(agentID, id), FileName: name})
	}
	return out
}

// FallbackKey is the key ClawVault gives a transcript found only by its scan.
func FallbackKey(agentID, sessionID string) string {
	return "agent:" + agentID + ":unknown:" + sessionID
}

func jsSortNumber(f float64) float64 {
	if math.IsNaN(f) {
		return 0
	}
	return f
}

// NormalizeAgentID is ClawVault's normalizeAgentId: the trimmed id when it
// matches the agent id pattern, else "main".
func NormalizeAgentID(id string) string {
	id = strings.TrimSpace(id)
	if !AgentIDPattern.MatchString(id) {
		return "main"
	}
	return id
}

// Selection is the outcome of ClawVault's candidate rule for one transcript.
type Selection struct {
	StartOffset    int64
	NewBytes       int64
	ThresholdBytes int64
	Candidate      bool
	// PastEOF: the cursor lies beyond the end of the file, so the next sweep
	// re-reads it from 0.
	PastEOF bool
}

// Select applies selectCandidates to one file: start at the cursor unless it
// lies past the end, and qualify when the new bytes reach the threshold
// (minNewBytes when positive, else the scaled one).
func Select(fileSize int64, cursor *Cursor, minNewBytes int64) Selection {
	var s Selection
	if cursor != nil {
		if cursor.Offset() <= fileSize {
			s.StartOffset = cursor.Offset()
		} else {
			s.PastEOF = true
		}
	}
	s.NewBytes = max(0, fileSize-s.StartOffset)
	s.ThresholdBytes = ThresholdBytes(fileSize)
	if minNewBytes > 0 {
		s.ThresholdBytes = minNewBytes
	}
	s.Candidate = s.NewBytes >= s.ThresholdBytes
	return s
}

// IsStale is ClawVault's staleness rule (getObserverStaleness): observed more
// than 12 h ago and the file has grown past the size the cursor recorded. A
// session without a cursor is never stale.
func IsStale(cursor *Cursor, fileSize int64, now time.Time) bool {
	if cursor == nil {
		return false
	}
	at, ok := cursor.ObservedAt()
	if !ok {
		return false
	}
	return max(0, now.Sub(at)) > StaleAfter && cursor.FileSize() < fileSize
}
