package model

import (
	"strings"
	"time"
)

// Transcript retention: the seed's `retain` processor (drop entries older
// than N days, or the oldest while the file exceeds N MB) plus heartbeat
// noise, over the lines of one transcript. OpenClaw's gateway owns its
// transcripts and ClawVault's cursors count their bytes, so this plan only
// says what a rewrite would drop and which cursor it would break; nothing
// here writes a transcript.

// TranscriptPolicy is the retain policy for one agent's transcripts.
type TranscriptPolicy struct {
	// MaxAgeDays drops entries older than this many days (0: off).
	MaxAgeDays int
	// MaxSizeBytes drops the oldest entries while the kept bytes exceed it
	// (0: off).
	MaxSizeBytes int64
	// Heartbeats drops turns whose replies are only HEARTBEAT_OK or NO_REPLY,
	// with their tool calls and results.
	Heartbeats bool
}

// Off reports whether the policy drops nothing.
func (p TranscriptPolicy) Off() bool {
	return p.MaxAgeDays <= 0 && p.MaxSizeBytes <= 0 && !p.Heartbeats
}

// ReplyKind says what an assistant message says in text.
type ReplyKind uint8

const (
	// ReplyNone: no text (tool calls, thinking, or an aborted empty turn).
	ReplyNone ReplyKind = iota
	// ReplySilent: its text is only HEARTBEAT_OK or NO_REPLY.
	ReplySilent
	// ReplyText: anything else.
	ReplyText
)

// Silent tokens: OpenClaw's heartbeat acknowledgement and its marker for a
// turn that must not be delivered.
const (
	HeartbeatToken = "HEARTBEAT_OK"
	NoReplyToken   = "NO_REPLY"
)

// IsSilentReply reports whether an assistant's whole text is one silent
// token, allowing the whitespace, emphasis and final period models add
// around it ("**HEARTBEAT_OK**", "NO_REPLY.").
func IsSilentReply(text string) bool {
	t := strings.Trim(strings.TrimSpace(text), "*_`.! \t\r\n")
	return t == HeartbeatToken || t == NoReplyToken
}

// LineKind says what a transcript line is, for retention.
type LineKind uint8

const (
	// LineEntry: a parsed entry (droppable).
	LineEntry LineKind = iota
	// LineHeader: the session header; a rewrite always keeps it.
	LineHeader
	// LineOther: a line that does not parse, or a torn last line; kept as
	// it is (dropping it could lose the bytes a writer is still adding).
	LineOther
)

// RetentionLine is one line of a transcript as retention sees it.
type RetentionLine struct {
	Offset int64
	// Span is the line's bytes with its newline.
	Span   int64
	TimeMs int64 // NoTime when absent
	Kind   LineKind
	Type   EntryType
	Role   Role
	Reply  ReplyKind
}

// DropReason says why retention drops an entry; an entry counts under the
// first reason that drops it, in this order.
type DropReason uint8

const (
	DropAge DropReason = iota
	DropHeartbeat
	DropSize
	dropReasons
)

var dropReasonNames = [...]string{DropAge: "age", DropHeartbeat: "heartbeat", DropSize: "size"}

func (r DropReason) String() string { return dropReasonNames[r] }

// DropCount counts dropped entries and their bytes.
type DropCount struct {
	Entries int   `json:"entries"`
	Bytes   int64 `json:"bytes"`
}

// CursorEffect is what rewriting a transcript would do to ClawVault's
// cursor on it: byte offsets count the old file's bytes.
type CursorEffect struct {
	CursorID string
	// Offset is the cursor now; NewOffset where the same byte is after the
	// rewrite (Offset minus the dropped bytes before it).
	Offset, NewOffset int64
	// DroppedBefore counts the dropped bytes before the cursor.
	DroppedBefore int64
	// Invalidated: bytes before the cursor would go, so the cursor no
	// longer points where ClawVault stopped.
	Invalidated bool
	// RereadBytes: left as it is, a cursor past the new end makes ClawVault
	// read the whole trimmed file again (its observations twice).
	// SkippedBytes: a cursor inside the new file makes it skip this many
	// unobserved bytes.
	RereadBytes, SkippedBytes int64
}

// TranscriptPlan is what the retain policy would drop from one transcript.
type TranscriptPlan struct {
	Agent     string
	Key       string
	SessionID string
	File      string
	Size      int64
	Policy    TranscriptPolicy
	Lines     int
	Entries   int
	// Heartbeat turns found, whether or not the policy drops them.
	HeartbeatTurns int
	Drops          [dropReasons]DropCount
	KeptBytes      int64
	Cursor         *CursorEffect
}

// DropBytes is the bytes a rewrite would drop.
func (p *TranscriptPlan) DropBytes() int64 {
	var n int64
	for _, d := range p.Drops {
		n += d.Bytes
	}
	return n
}

// DropEntries is the entries a rewrite would drop.
func (p *TranscriptPlan) DropEntries() int {
	n := 0
	for _, d := range p.Drops {
		n += d.Entries
	}
	return n
}

// PlanTranscriptRetention applies the policy to a transcript's lines (in
// file order): entries older than MaxAgeDays, then heartbeat turns, then
// the oldest entries while the kept bytes exceed MaxSizeBytes. The header
// and lines that do not parse are always kept. A turn is a user message
// and what follows it up to the next user message; it is heartbeat noise
// when some reply in it is a silent token and none says anything else.
// cursor, when given, is ClawVault's cursor on this file.
func PlanTranscriptRetention(lines []RetentionLine, size int64, pol TranscriptPolicy, now time.Time, cursorID string, cursor *Cursor) *TranscriptPlan {
	p := &TranscriptPlan{Size: size, Policy: pol, Lines: len(lines), KeptBytes: size}
	dropped := make([]bool, len(lines))
	drop := func(i int, why DropReason) {
		if dropped[i] || lines[i].Kind != LineEntry {
			return
		}
		dropped[i] = true
		p.Drops[why].Entries++
		p.Drops[why].Bytes += lines[i].Span
		p.KeptBytes -= lines[i].Span
	}
	for _, l := range lines {
		if l.Kind == LineEntry {
			p.Entries++
		}
	}
	if pol.MaxAgeDays > 0 {
		cutoff := now.UnixMilli() - int64(pol.MaxAgeDays)*86_400_000
		for i, l := range lines {
			if l.TimeMs != NoTime && l.TimeMs < cutoff {
				drop(i, DropAge)
			}
		}
	}
	for _, turn := range heartbeatTurns(lines) {
		p.HeartbeatTurns++
		if !pol.Heartbeats {
			continue
		}
		for _, i := range turn {
			drop(i, DropHeartbeat)
		}
	}
	if pol.MaxSizeBytes > 0 {
		for i := 0; i < len(lines) && p.KeptBytes > pol.MaxSizeBytes; i++ {
			drop(i, DropSize)
		}
	}
	if cursor != nil {
		p.Cursor = cursorEffect(lines, dropped, cursorID, cursor.Offset(), p.KeptBytes)
	}
	return p
}

// heartbeatTurns lists, per noise turn, the indexes of its message lines.
func heartbeatTurns(lines []RetentionLine) [][]int {
	var turns [][]int
	var cur []int
	silent, spoke := false, false
	flush := func() {
		if len(cur) > 0 && silent && !spoke {
			turns = append(turns, cur)
		}
		cur, silent, spoke = nil, false, false
	}
	for i, l := range lines {
		if l.Kind != LineEntry || l.Type != TypeMessage {
			continue
		}
		if l.Role == RoleUser {
			flush()
		}
		cur = append(cur, i)
		if l.Role == RoleAssistant {
			switch l.Reply {
			case ReplySilent:
				silent = true
			case ReplyText:
				spoke = true
			}
		}
	}
	flush()
	return turns
}

func cursorEffect(lines []RetentionLine, dropped []bool, id string, offset, newSize int64) *CursorEffect {
	e := &CursorEffect{CursorID: id, Offset: offset}
	for i, l := range lines {
		if l.Offset >= offset {
			break
		}
		if dropped[i] {
			e.DroppedBefore += min(l.Span, offset-l.Offset)
		}
	}
	e.NewOffset = offset - e.DroppedBefore
	if e.DroppedBefore == 0 {
		return e
	}
	e.Invalidated = true
	if offset > newSize {
		e.RereadBytes = newSize
	} else {
		e.SkippedBytes = e.DroppedBefore
	}
	return e
}
