package model

import (
	"cmp"
	"math"
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

// ClassifyFileName names a file in agents/<id>/sessions/ (spec §1). It is
// plain string work, no regular expressions: status classifies every file
// of every sessions folder, 10,000 and more.
func ClassifyFileName(name string) FileName {
	switch {
	case name == "sessions.json":
		return FileName{Kind: FileStore}
	case strings.HasPrefix(name, "sessions.json.bak.") && allDigits(name[len("sessions.json.bak."):]):
		return FileName{Kind: FileStoreBackup, Stamp: name[len("sessions.json.bak."):]}
	case strings.HasSuffix(name, ".lock"):
		return FileName{Kind: FileLock, SessionID: strings.TrimSuffix(strings.TrimSuffix(name, ".lock"), ".jsonl")}
	}
	for _, kind := range []struct {
		marker string
		kind   FileKind
	}{{".jsonl.reset.", FileResetArchive}, {".jsonl.deleted.", FileDeletedArchive}} {
		i := strings.LastIndex(name, kind.marker)
		if i <= 0 {
			continue
		}
		stamp := name[i+len(kind.marker):]
		compressed := strings.HasSuffix(stamp, ".zst")
		stamp = strings.TrimSuffix(stamp, ".zst")
		if !isArchiveStamp(stamp) {
			continue
		}
		fn := FileName{Kind: kind.kind, SessionID: name[:i], Stamp: stamp, Compressed: compressed}
		if id, topic, ok := splitTopic(fn.SessionID); ok {
			fn.SessionID, fn.Topic = id, topic
		}
		return fn
	}
	if i := strings.LastIndex(name, ".backup-"); i > 0 && isRepairStamp(name[i+len(".backup-"):]) {
		return FileName{Kind: FileRepairBackup, SessionID: strings.TrimSuffix(name[:i], ".jsonl"), Stamp: name[i+len(".backup-"):]}
	}
	if strings.HasSuffix(name, ".trajectory-path.json") {
		return FileName{Kind: FileTrajectoryPath, SessionID: strings.TrimSuffix(name, ".trajectory-path.json")}
	}
	if !strings.HasSuffix(name, ".jsonl") {
		return FileName{Kind: FileOther}
	}
	base := strings.TrimSuffix(name, ".jsonl")
	// <file>.corrupt-<ts>-<8hex>.jsonl
	if i := strings.Index(base, ".corrupt-"); i > 0 {
		rest := base[i+len(".corrupt-"):]
		if d := strings.LastIndexByte(rest, '-'); d > 0 && len(rest)-d-1 == 8 && isLowerHex(rest[d+1:]) {
			return FileName{Kind: FileCorrupt, SessionID: strings.TrimSuffix(base[:i], ".jsonl"), Stamp: rest[:d]}
		}
	}
	// <id>.checkpoint.<uuid>.jsonl
	if i := strings.LastIndex(base, ".checkpoint."); i > 0 {
		if u := base[i+len(".checkpoint."):]; len(u) >= 8 && isUUIDish(u) {
			return FileName{Kind: FileCheckpoint, SessionID: base[:i], Stamp: u}
		}
	}
	if strings.HasSuffix(base, ".trajectory") {
		return FileName{Kind: FileTrajectory, SessionID: strings.TrimSuffix(base, ".trajectory")}
	}
	// <ts>_<uuid>.jsonl, ts = ISO time with ':' and '.' turned into '-'
	if len(base) > 25 && base[24] == '_' && isForkStamp(base[:24]) {
		return FileName{Kind: FileFork, SessionID: base[25:], Stamp: base[:24]}
	}
	if id, topic, ok := splitTopic(base); ok {
		return FileName{Kind: FileTopic, SessionID: id, Topic: topic}
	}
	return FileName{Kind: FilePrimary, SessionID: base}
}

// splitTopic splits <id>-topic-<n> (n without dots).
func splitTopic(s string) (id, topic string, ok bool) {
	i := strings.LastIndex(s, "-topic-")
	if i <= 0 || i+len("-topic-") == len(s) || strings.ContainsRune(s[i+len("-topic-"):], '.') {
		return "", "", false
	}
	return s[:i], s[i+len("-topic-"):], true
}

// isArchiveStamp matches YYYY-MM-DDTHH-MM-SS[.mmm]Z.
func isArchiveStamp(s string) bool {
	return matchShape(s, "dddd-dd-ddTdd-dd-ddZ") || matchShape(s, "dddd-dd-ddTdd-dd-dd.dddZ")
}

// isForkStamp matches pi's fork names: YYYY-MM-DDTHH-MM-SS-mmmZ.
func isForkStamp(s string) bool { return matchShape(s, "dddd-dd-ddTdd-dd-dd-dddZ") }

// isRepairStamp matches clawvault repair-session's YYYYMMDD-HHMMSS.
func isRepairStamp(s string) bool { return matchShape(s, "dddddddd-dddddd") }

// matchShape compares s with a pattern where 'd' stands for a digit.
func matchShape(s, shape string) bool {
	if len(s) != len(shape) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if shape[i] == 'd' {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		} else if s[i] != shape[i] {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func isUUIDish(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '-') {
			return false
		}
	}
	return true
}

// DirFile is what a stat of one name in a sessions directory gave. Stat
// follows symlinks, as ClawVault's statSync does.
type DirFile struct {
	Name    string
	IsFile  bool
	Size    int64
	ModTime time.Time
	Inode   uint64
	// Link: the name is a symbolic link (the stat facts are its target's).
	Link bool
	// Outside is where a link leads when that is outside the state dir and
	// the agent's sessions folder: such a file is reported, never read.
	Outside string
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
	names := FileNames(files)
	return discover(agentID, rows, files, names, IndexNames(names), nil)
}

// FileNames are the names of files, in their order.
func FileNames(files []DirFile) []string {
	names := make([]string, len(files))
	for i := range files {
		names[i] = files[i].Name
	}
	return names
}

// IndexNames indexes the names of a folder's listing by position (a
// name listed twice is found at its first position).
func IndexNames(names []string) *KeyIndex {
	x := NewKeyIndex(len(names))
	for i := range names {
		x.Add(i, names)
	}
	return x
}

// discover is Discover over files already indexed by name; descOf, when
// not nil (len(files)), gets for each file the position+1 of its
// descriptor in the result (0: not discovered).
func discover(agentID string, rows []IndexRow, files []DirFile, names []string, byName *KeyIndex, descOf []int32) []Descriptor {
	// Newest first, stable: a permutation is sorted, not the rows.
	order := make([]int32, len(rows))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		return cmp.Compare(jsSortNumber(rows[b].UpdatedAt), jsSortNumber(rows[a].UpdatedAt))
	})
	// A session id is seen once its <id>.jsonl is taken: seen is by file.
	seen := make([]bool, len(files))
	out := make([]Descriptor, 0, len(files))
	take := func(i int, d Descriptor) {
		seen[i] = true
		if descOf != nil {
			descOf[i] = int32(len(out) + 1)
		}
		out = append(out, d)
	}
	var nameBuf []byte
	for _, o := range order {
		r := &rows[o]
		if !ValidSessionID(r.SessionID) {
			continue
		}
		// The lookup by <id>.jsonl makes no string; the file's own name is kept.
		nameBuf = append(append(nameBuf[:0], r.SessionID...), ".jsonl"...)
		i := byName.FindBytes(nameBuf, names)
		if i < 0 || !files[i].IsFile || seen[i] {
			continue
		}
		take(i, Descriptor{SessionID: r.SessionID, SessionKey: r.Key, FileName: files[i].Name, FromIndex: true})
	}
	for i := range files {
		f := &files[i]
		name := f.Name
		if !strings.HasSuffix(name, ".jsonl") || strings.Contains(name, ".backup") || strings.Contains(name, ".deleted") {
			continue
		}
		id := strings.TrimSuffix(name, ".jsonl")
		if !ValidSessionID(id) || seen[i] || !f.IsFile {
			continue
		}
		take(i, Descriptor{SessionID: id, SessionKey: FallbackKey(agentID, id), FileName: name})
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
	if !ValidAgentID(id) {
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
