package model

import "encoding/json"

// EntryBody is one transcript entry decoded in full, for display. Only the
// entries on screen are ever decoded.
type EntryBody struct {
	Type      string
	ID        string
	ParentID  string
	Timestamp string

	// message
	Role         string
	Blocks       []Block
	API          string
	Provider     string
	Model        string
	StopReason   string
	ErrorMessage string
	Usage        *Usage
	ToolName     string // toolResult
	ToolCallID   string
	IsError      bool
	// bashExecution
	Command  string
	ExitCode *int

	// compaction and branch_summary
	Summary          string
	FirstKeptEntryID string
	TokensBefore     int64
	FromID           string
	ReadFiles        []string
	ModifiedFiles    []string
	// label
	TargetID string
	Label    string
	// session_info
	Name string
	// model_change and thinking_level_change
	ModelID       string
	ThinkingLevel string
	// custom and custom_message
	CustomType string
	Display    bool
	Data       json.RawMessage

	// OpenClaw 2026.9: a reset's reason, a leaf control's appendParentId,
	// appendMode ("side" appends do not move the leaf).
	Reason         string
	AppendParentID string
	AppendMode     string
	// pi 1.5: a usage entry's kind (Usage and Model hold its numbers), a
	// context_edit's null replacement, a compaction's system checkpoint, a
	// system message's prompt sections and tool changes.
	Kind               string
	ReplacementNull    bool
	HasSystemMessage   bool
	Sections           []string
	ToolsAdded         []string
	ToolsRemoved       []string
	ExcludeFromContext bool

	// Raw is the line as written, for what the fields above leave out.
	Raw json.RawMessage
}

// BlockKind is the type of a content block.
type BlockKind string

const (
	BlockText     BlockKind = "text"
	BlockThinking BlockKind = "thinking"
	BlockToolCall BlockKind = "toolCall"
	BlockImage    BlockKind = "image"
	BlockOther    BlockKind = "other"
)

// Block is one content block of a message.
type Block struct {
	Kind BlockKind
	Text string // text, thinking
	// Redacted thinking has no text.
	Redacted bool
	// toolCall
	Name      string
	CallID    string
	Arguments json.RawMessage
	// image
	MimeType  string
	DataBytes int // size of the base64 payload, never the payload itself
}

// Usage is an assistant message's token counts and cost in USD.
type Usage struct {
	Input, Output, CacheRead, CacheWrite, TotalTokens int64
	Cost                                              float64
}

// Bookkeeping reports OpenClaw's zero-usage rows (delivery mirrors and
// gateway-injected messages), which are left out of totals.
func (b *EntryBody) Bookkeeping() bool {
	return b.Provider == "openclaw" && (b.Model == "delivery-mirror" || b.Model == "gateway-injected")
}

// Text joins the text blocks (and a string content) of a message.
func (b *EntryBody) Text() string {
	var s string
	for _, bl := range b.Blocks {
		if bl.Kind == BlockText && bl.Text != "" {
			if s != "" {
				s += "\n\n"
			}
			s += bl.Text
		}
	}
	return s
}
