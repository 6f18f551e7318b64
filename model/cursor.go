package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"strings"
	"time"
)

// SessionIDPattern is ClawVault 3.5.2's SESSION_ID_RE: cursor keys, session
// ids from sessions.json and transcript names must match it.
var SessionIDPattern = regexp.MustCompile(`^[a-zA-Z0-9._-]{1,200}$`)

// AgentIDPattern is ClawVault 3.5.2's AGENT_ID_RE.
var AgentIDPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,100}$`)

// Cursor is one entry of .clawvault/observe-cursors.json. Offsets are kept as
// float64 because that is what ClawVault reads and writes; every offset it
// writes is a whole number.
type Cursor struct {
	LastObservedOffset float64
	LastObservedAt     string
	SessionKey         string
	LastFileSize       float64
}

// Offset is the cursor's byte offset as an integer.
func (c Cursor) Offset() int64 { return int64(c.LastObservedOffset) }

// FileSize is the file size recorded when the cursor was written.
func (c Cursor) FileSize() int64 { return int64(c.LastFileSize) }

// ObservedAt parses LastObservedAt; ok is false when it does not parse.
func (c Cursor) ObservedAt() (time.Time, bool) {
	ms, ok := ParseISOTime(c.LastObservedAt)
	if !ok {
		return time.Time{}, false
	}
	return time.UnixMilli(ms).UTC(), true
}

// CursorStore is the cursor file's content, keeping ClawVault's property
// order so that a store read and written back is byte-identical.
type CursorStore struct {
	keys []string
	m    map[string]Cursor
}

// NewCursorStore returns an empty store.
func NewCursorStore() *CursorStore {
	return &CursorStore{m: map[string]Cursor{}}
}

// Len is the number of cursors.
func (s *CursorStore) Len() int { return len(s.keys) }

// Get returns the cursor of a session id.
func (s *CursorStore) Get(sessionID string) (Cursor, bool) {
	c, ok := s.m[sessionID]
	return c, ok
}

// Set adds or replaces a cursor; a new id goes last, as a JavaScript property does.
func (s *CursorStore) Set(sessionID string, c Cursor) {
	if _, ok := s.m[sessionID]; !ok {
		s.keys = append(s.keys, sessionID)
	}
	s.m[sessionID] = c
}

// Keys returns the session ids in the order JSON.stringify writes them.
func (s *CursorStore) Keys() []string {
	return JSPropertyOrder(append([]string(nil), s.keys...))
}

// CursorProblem names a cursor entry that fails ClawVault's validation and
// is therefore ignored, as ClawVault ignores it.
type CursorProblem struct {
	SessionID string
	Reason    string
}

// ParseCursorStore reads a cursor file with ClawVault's validation
// (parseCursorStore): entries with a bad id, a non-finite or negative
// number, or an empty string field are dropped and reported. An error means
// the file does not parse as a JSON object at all; ClawVault then loads {}.
func ParseCursorStore(data []byte) (*CursorStore, []CursorProblem, error) {
	store := NewCursorStore()
	fields, err := decodeObjectInOrder(data)
	if err != nil {
		return store, nil, err
	}
	var problems []CursorProblem
	for _, f := range fields {
		c, reason := validateCursor(f.key, f.value)
		if reason != "" {
			problems = append(problems, CursorProblem{SessionID: f.key, Reason: reason})
			continue
		}
		store.Set(f.key, c)
	}
	// JavaScript enumerates parsed properties in its own order; keep it.
	store.keys = JSPropertyOrder(store.keys)
	return store, problems, nil
}

func validateCursor(id string, raw json.RawMessage) (Cursor, string) {
	if !SessionIDPattern.MatchString(id) {
		return Cursor{}, "the session id does not match ^[a-zA-Z0-9._-]{1,200}$"
	}
	var obj map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &obj) != nil {
		return Cursor{}, "the entry is not an object"
	}
	var c Cursor
	num := func(name string, dst *float64) string {
		v, ok := obj[name]
		if !ok {
			return name + " is missing"
		}
		var f float64
		if len(v) == 0 || !(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) || json.Unmarshal(v, &f) != nil {
			return name + " is not a number"
		}
		if math.IsInf(f, 0) || math.IsNaN(f) || f < 0 {
			return fmt.Sprintf("%s is %s, not a finite number ≥ 0", name, v)
		}
		*dst = f
		return ""
	}
	str := func(name string, dst *string) string {
		v, ok := obj[name]
		if !ok {
			return name + " is missing"
		}
		var s string
		if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
			return name + " is not a string"
		}
		if strings.TrimSpace(s) == "" {
			return name + " is empty"
		}
		*dst = s
		return ""
	}
	for _, check := range []func() string{
		func() string { return num("lastObservedOffset", &c.LastObservedOffset) },
		func() string { return num("lastFileSize", &c.LastFileSize) },
		func() string { return str("lastObservedAt", &c.LastObservedAt) },
		func() string { return str("sessionKey", &c.SessionKey) },
	} {
		if reason := check(); reason != "" {
			return Cursor{}, reason
		}
	}
	return c, ""
}

type objectField struct {
	key   string
	value json.RawMessage
}

// decodeObjectInOrder decodes a top-level JSON object into its fields in file
// order; a repeated key keeps its first position and its last value, as
// JSON.parse does.
func decodeObjectInOrder(data []byte) ([]objectField, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("the top level is not a JSON object")
	}
	var fields []objectField
	pos := map[string]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if i, ok := pos[key]; ok {
			fields[i].value = v
			continue
		}
		pos[key] = len(fields)
		fields = append(fields, objectField{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the top-level object")
	}
	return fields, nil
}

// MarshalCursorStore writes the store exactly as ClawVault does:
// JSON.stringify(store, null, 2) followed by a newline.
func MarshalCursorStore(s *CursorStore) []byte {
	keys := s.Keys()
	if len(keys) == 0 {
		return []byte("{}\n")
	}
	b := make([]byte, 0, 160*len(keys))
	b = append(b, "{\n"...)
	for i, id := range keys {
		c := s.m[id]
		b = append(b, "  "...)
		b = AppendJSString(b, id)
		b = append(b, ": {\n    \"lastObservedOffset\": "...)
		b = AppendJSNumber(b, c.LastObservedOffset)
		b = append(b, ",\n    \"lastObservedAt\": "...)
		b = AppendJSString(b, c.LastObservedAt)
		b = append(b, ",\n    \"sessionKey\": "...)
		b = AppendJSString(b, c.SessionKey)
		b = append(b, ",\n    \"lastFileSize\": "...)
		b = AppendJSNumber(b, c.LastFileSize)
		b = append(b, "\n  }"...)
		if i < len(keys)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	return append(b, "}\n"...)
}

// CursorUpdate is a cursor a sweep advanced. Truncated marks a transcript
// that shrank below its old cursor, the one case a cursor may move back.
type CursorUpdate struct {
	SessionID string
	Cursor    Cursor
	Truncated bool
}

// MergeCursors applies a sweep's updates, in sweep order, to the store as it
// is on disk now: another writer (ClawVault itself) may have moved it since
// the sweep began. A cursor never moves backwards except on truncation.
func MergeCursors(onDisk *CursorStore, updates []CursorUpdate) *CursorStore {
	for _, u := range updates {
		if cur, ok := onDisk.Get(u.SessionID); ok && cur.LastObservedOffset > u.Cursor.LastObservedOffset && !u.Truncated {
			continue
		}
		onDisk.Set(u.SessionID, u.Cursor)
	}
	return onDisk
}
