// Package model holds the pure types and rules of clawvault-tui: transcript
// entries and their tree, session keys and source labels, observation
// thresholds, cursors, candidate selection, staleness and diagnosis. It does no
// I/O and imports nothing else of this module.
package model

// EntryType is the "type" field of one transcript line.
type EntryType uint8

const (
	// TypeOther is a JSON object whose type is missing or not one pi knows.
	// pi keeps such lines as entries, so we do too.
	TypeOther EntryType = iota
	// TypeSession is the header line, or a duplicate header further down.
	TypeSession
	TypeMessage
	TypeThinkingLevelChange
	TypeModelChange
	TypeCompaction
	TypeBranchSummary
	TypeCustom
	TypeCustomMessage
	TypeLabel
	TypeSessionInfo
	// TypeReset is OpenClaw 2026.9's reset boundary: resets happen in place,
	// and the model context restarts after it.
	TypeReset
	// TypeLeaf is OpenClaw 2026.9's navigation control: it selects the
	// active leaf (targetId) instead of being one.
	TypeLeaf
	// TypeUsage is pi 1.5's usage record (cache warming and the like): no
	// context message of its own.
	TypeUsage
	// TypeContextEdit is pi 1.5's edit of an earlier entry's contribution
	// to the model context.
	TypeContextEdit
)

var entryTypeNames = [...]string{
	TypeOther:               "other",
	TypeSession:             "session",
	TypeMessage:             "message",
	TypeThinkingLevelChange: "thinking_level_change",
	TypeModelChange:         "model_change",
	TypeCompaction:          "compaction",
	TypeBranchSummary:       "branch_summary",
	TypeCustom:              "custom",
	TypeCustomMessage:       "custom_message",
	TypeLabel:               "label",
	TypeSessionInfo:         "session_info",
	TypeReset:               "reset",
	TypeLeaf:                "leaf",
	TypeUsage:               "usage",
	TypeContextEdit:         "context_edit",
}

func (t EntryType) String() string {
	if int(t) < len(entryTypeNames) {
		return entryTypeNames[t]
	}
	return "other"
}

// OpenClawCanonical reports the entry types OpenClaw 2026.9 counts as
// session entries (isCanonicalSessionEntryType): only they move the active
// leaf. usage, context_edit, leaf and unknown types do not.
func (t EntryType) OpenClawCanonical() bool {
	switch t {
	case TypeMessage, TypeThinkingLevelChange, TypeModelChange, TypeCompaction, TypeReset,
		TypeBranchSummary, TypeCustom, TypeCustomMessage, TypeLabel, TypeSessionInfo:
		return true
	}
	return false
}

// ParseEntryType maps the JSON "type" string to an EntryType.
func ParseEntryType(s string) EntryType {
	switch s {
	case "session":
		return TypeSession
	case "message":
		return TypeMessage
	case "thinking_level_change":
		return TypeThinkingLevelChange
	case "model_change":
		return TypeModelChange
	case "compaction":
		return TypeCompaction
	case "branch_summary":
		return TypeBranchSummary
	case "custom":
		return TypeCustom
	case "custom_message":
		return TypeCustomMessage
	case "label":
		return TypeLabel
	case "session_info":
		return TypeSessionInfo
	case "reset":
		return TypeReset
	case "leaf":
		return TypeLeaf
	case "usage":
		return TypeUsage
	case "context_edit":
		return TypeContextEdit
	}
	return TypeOther
}

// Role is the role of a message entry's AgentMessage.
type Role uint8

const (
	RoleNone Role = iota
	RoleUser
	RoleAssistant
	RoleToolResult
	RoleBashExecution
	// RoleCustom covers v3 "custom" and its v2 name "hookMessage".
	RoleCustom
	RoleOther
	// RoleSystem is pi 1.5's system message: the prompt sections and tools.
	RoleSystem
)

var roleNames = [...]string{
	RoleNone:          "",
	RoleUser:          "user",
	RoleAssistant:     "assistant",
	RoleToolResult:    "toolResult",
	RoleBashExecution: "bashExecution",
	RoleCustom:        "custom",
	RoleOther:         "other",
	RoleSystem:        "system",
}

func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "other"
}

// ParseRole maps a message role string to a Role. The v2 name hookMessage is
// migrated to custom, as pi's v2→v3 migration does.
func ParseRole(s string) Role { return parseRole(s) }

// ParseRoleBytes is ParseRole without converting to a string.
func ParseRoleBytes(b []byte) Role { return parseRole(b) }

func parseRole[T string | []byte](s T) Role {
	switch string(s) {
	case "user":
		return RoleUser
	case "assistant":
		return RoleAssistant
	case "toolResult":
		return RoleToolResult
	case "bashExecution":
		return RoleBashExecution
	case "custom", "hookMessage":
		return RoleCustom
	case "system":
		return RoleSystem
	case "":
		return RoleNone
	}
	return RoleOther
}

// NoTime marks an entry whose timestamp is missing or does not parse.
const NoTime int64 = -1 << 63

// Entry is the index record of one transcript entry. It holds what the tree
// needs and where the entry is, never its body: bodies are decoded on demand,
// by position. The position is container-neutral: a JSONL line's byte offset,
// or a SQLite transcript event's seq. Keep it small: a 300 MB transcript has
// ~10^5 of them.
type Entry struct {
	Offset   int64   // byte offset of the line's first byte (JSONL), or the event's seq (SQLite)
	TimeMs   int64   // entry timestamp, ms since the epoch, or NoTime
	ID       EntryID // NoID when absent
	ParentID EntryID // NoID when null or absent: both make a root
	Length   int32   // bytes of the line, without "\n" and a trailing "\r" (0 for SQLite events)
	Line     int32   // 1-based line number in the file, or the event's seq
	Type     EntryType
	Role     Role
	Flags    EntryFlags
}

// EntryFlags are facts about a line that the tree rules need.
type EntryFlags uint8

const (
	// FlagStringID: the line has an "id" that is a JSON string (pi's header
	// check is typeof id === "string", so "" counts).
	FlagStringID EntryFlags = 1 << iota
	// FlagUnterminated: the line is the file's last and has no newline yet.
	FlagUnterminated
	// FlagPrefixOnly: only the line's canonical prefix was read; the rest
	// of it awaits validation.
	FlagPrefixOnly
	// FlagParentKey: the entry has a "parentId" key (OpenClaw attaches a
	// canonical entry without one to the current leaf).
	FlagParentKey
	// FlagParentBad: "parentId" is neither null nor a non-blank string;
	// OpenClaw's tree leaves such an entry out.
	FlagParentBad
	// FlagSideAppend: appendMode is "side": OpenClaw appends the entry
	// without moving the active leaf.
	FlagSideAppend
	// FlagExcludeContext: message.excludeFromContext is true.
	FlagExcludeContext
)

// RefState says what a reference field of an entry holds.
type RefState uint8

const (
	RefAbsent  RefState = iota // no such key
	RefNull                    // null
	RefID                      // a non-blank string
	RefInvalid                 // anything else
)

// TreeFacts are the few body fields of compaction, reset, branch_summary,
// label, session_info, leaf and context_edit entries that the tree and the
// model context need. The index keeps them in a sparse side table, keyed by
// the entry's position.
type TreeFacts struct {
	// compaction and reset
	FirstKeptEntryID    string
	FirstKeptEntryIndex int // v1 files: index into the parsed entries, -1 if absent
	TokensBefore        int64
	// HasSystemMessage: a pi 1.5 compaction's prompt checkpoint, one more
	// context message.
	HasSystemMessage bool
	// branch_summary
	FromID     string
	HasSummary bool // the summary is truthy, so it produces a context message
	// label: TargetID and Label; an absent or empty label clears.
	// leaf and context_edit: TargetID is the target.
	TargetID string
	// Label is the label text (label entries), the name (session_info) or
	// the reason (reset).
	Label string
	// leaf: what targetId and appendParentId hold; AppendModeBad is an
	// appendMode other than "side", which makes the control invalid.
	Target         RefState
	AppendParent   RefState
	AppendParentID string
	AppendModeBad  bool
	// context_edit: replacement is null, so the target leaves the context.
	ReplacementNull bool
}

// Header is the decoded first line of a transcript.
type Header struct {
	Version       int    `json:"version"`
	ID            string `json:"id"`
	Timestamp     string `json:"timestamp,omitempty"`
	Cwd           string `json:"cwd,omitempty"`
	ParentSession string `json:"parentSession,omitempty"`
	BranchedFrom  string `json:"branchedFrom,omitempty"`
}
