package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"clawvault-tui/jscompat"
)

// SessionEntry is one row of sessions.json: the fields clawvault-tui reads,
// plus the raw row as the catch-all for the rest (see Extra). Only sessionId
// and updatedAt are required by OpenClaw; everything else may be absent.
type SessionEntry struct {
	// StatusEntry holds the fields a scan decodes; the rest are below.
	StatusEntry

	Label        string `json:"label,omitempty"`
	DisplayName  string `json:"displayName,omitempty"`
	GroupID      string `json:"groupId,omitempty"`
	Subject      string `json:"subject,omitempty"`
	GroupChannel string `json:"groupChannel,omitempty"`
	LastChannel  string `json:"lastChannel,omitempty"`
	LastTo       string `json:"lastTo,omitempty"`

	SpawnedBy        string `json:"spawnedBy,omitempty"`
	ParentSessionKey string `json:"parentSessionKey,omitempty"`
	SpawnDepth       *int   `json:"spawnDepth,omitempty"`
	Status           string `json:"status,omitempty"`

	ThinkingLevel string `json:"thinkingLevel,omitempty"`
	ModelOverride string `json:"modelOverride,omitempty"`

	TotalTokensFresh *bool  `json:"totalTokensFresh,omitempty"`
	InputTokens      *int64 `json:"inputTokens,omitempty"`
	OutputTokens     *int64 `json:"outputTokens,omitempty"`
	CacheRead        *int64 `json:"cacheRead,omitempty"`
	CacheWrite       *int64 `json:"cacheWrite,omitempty"`

	MemoryFlushAt int64 `json:"memoryFlushAt,omitempty"`

	SystemSent     bool `json:"systemSent,omitempty"`
	AbortedLastRun bool `json:"abortedLastRun,omitempty"`

	// Legacy names that OpenClaw renames on load.
	LegacyProvider     string `json:"provider,omitempty"`
	LegacyLastProvider string `json:"lastProvider,omitempty"`
	LegacyRoom         string `json:"room,omitempty"`

	// Raw is the row as written, for the fields not named above.
	Raw json.RawMessage `json:"-"`
}

// StatusEntry is the part of a sessions.json row that a scan decodes
// and keeps for every row: what discovery (sessionId, updatedAt), the
// transcript's path (sessionFile), the diagnosis (compaction and flush
// counts), status's meta and the Sessions screen read. It is a third of
// a SessionEntry: at 50,000 rows, 16 MB less fresh memory to touch.
type StatusEntry struct {
	// SessionID is the sessionId when it is a JSON string, else "" (as
	// ClawVault reads it).
	SessionID   string   `json:"sessionId"`
	UpdatedAt   JSNumber `json:"updatedAt"`
	SessionFile string   `json:"sessionFile,omitempty"`

	ChatType      string `json:"chatType,omitempty"`
	Channel       string `json:"channel,omitempty"`
	ModelProvider string `json:"modelProvider,omitempty"`
	Model         string `json:"model,omitempty"`

	ContextTokens    *int64   `json:"contextTokens,omitempty"`
	TotalTokens      *int64   `json:"totalTokens,omitempty"`
	EstimatedCostUSD *float64 `json:"estimatedCostUsd,omitempty"`

	CompactionCount            *int `json:"compactionCount,omitempty"`
	MemoryFlushCompactionCount *int `json:"memoryFlushCompactionCount,omitempty"`
	// FlushFailure is what OpenClaw recorded of failed memory flushes.
	FlushFailure FlushFailure `json:"-"`
}

// FlushFailure is OpenClaw's record of a session's failed memory flushes:
// memoryFlushFailureCount, memoryFlushLastFailedAt (ms) and
// memoryFlushLastFailureError (until 2026.9), or memoryFlush {kind:
// "failed", failureCount} (2026.9, which keeps no time or text).
type FlushFailure struct {
	Count        *int
	LastFailedAt int64
	LastError    string
}

// FlushFailed reports OpenClaw's count of failed memory flushes, when
// above zero.
func (e StatusEntry) FlushFailed() (int, bool) {
	if e.FlushFailure.Count == nil || *e.FlushFailure.Count <= 0 {
		return 0, false
	}
	return *e.FlushFailure.Count, true
}

// Extra returns the row's fields, all of them, as raw JSON values; the
// catch-all view for metadata this struct does not name.
func (e SessionEntry) Extra() map[string]json.RawMessage {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(e.Raw, &m)
	return m
}

// IndexRow is the row as ClawVault's discovery sees it.
func (e StatusEntry) IndexRow(key string) IndexRow {
	return IndexRow{Key: key, SessionID: strings.TrimSpace(e.SessionID), UpdatedAt: e.UpdatedAt.Value()}
}

// FlushSkipped reports whether more compactions ran than memory flushes
// covered (compactionCount > memoryFlushCompactionCount, an absent count
// being 0), and the two counts.
func (e StatusEntry) FlushSkipped() (compactions, flushed int, skipped bool) {
	if e.CompactionCount != nil {
		compactions = *e.CompactionCount
	}
	if e.MemoryFlushCompactionCount != nil {
		flushed = *e.MemoryFlushCompactionCount
	}
	return compactions, flushed, compactions > flushed
}

// JSNumber is a JSON value read the way Number(x ?? 0) reads it: numbers as
// they are, numeric strings parsed, null and absent as 0, booleans as 0/1,
// anything else NaN.
type JSNumber struct {
	v   float64
	set bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (n *JSNumber) UnmarshalJSON(b []byte) error {
	n.set = true
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		n.v = 0
	case string(b) == "true":
		n.v = 1
	case string(b) == "false":
		n.v = 0
	case b[0] == '"':
		var s string
		if json.Unmarshal(b, &s) != nil {
			n.v = math.NaN()
			break
		}
		s = strings.TrimSpace(s)
		if s == "" {
			n.v = 0
			break
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			f = math.NaN()
		}
		n.v = f
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'):
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil {
			f = math.NaN()
		}
		n.v = f
	default:
		n.v = math.NaN()
	}
	return nil
}

// MarshalJSON writes the number, or null when it is not finite.
func (n JSNumber) MarshalJSON() ([]byte, error) {
	return jscompat.AppendJSNumber(nil, n.v), nil
}

// Value is the number (0 when absent).
func (n JSNumber) Value() float64 { return n.v }

// Ms is the number as epoch milliseconds, 0 when absent or not finite.
func (n JSNumber) Ms() int64 {
	ms, _ := jscompat.Int64Of(n.v)
	return ms
}

// Set reports whether the field was present.
func (n JSNumber) Set() bool { return n.set }

// RowProblemsSentence says which session rows had a field of the wrong
// type, by key in order, the first three with their problem: a store where
// thousands of rows share one mistake stays one readable line.
func RowProblemsSentence(problems map[string]string) string {
	keys := slices.Sorted(maps.Keys(problems))
	var b strings.Builder
	if len(keys) == 1 {
		b.WriteString("1 row has a field of the wrong type, skipped (the rest of the row is read): ")
	} else {
		fmt.Fprintf(&b, "%d rows have a field of the wrong type, skipped (the rest of each row is read): ", len(keys))
	}
	for i, k := range keys[:min(len(keys), 3)] {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(k + ": " + problems[k])
	}
	if len(keys) > 3 {
		fmt.Fprintf(&b, "; and %d more", len(keys)-3)
	}
	return b.String()
}
