package model

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"clawvault-tui/jscompat"
)

// ValidSessionID is ClawVault 3.5.2's SESSION_ID_RE, ^[a-zA-Z0-9._-]{1,200}$:
// cursor keys, session ids from sessions.json and transcript names must
// match it.
func ValidSessionID(s string) bool { return validID(s, 200, true) }

// ValidAgentID is ClawVault 3.5.2's AGENT_ID_RE, ^[a-zA-Z0-9_-]{1,100}$.
func ValidAgentID(s string) bool { return validID(s, 100, false) }

func validID(s string, maxLen int, dots bool) bool {
	if len(s) == 0 || len(s) > maxLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || dots && c == '.') {
			return false
		}
	}
	return true
}

// Cursor is one entry of .clawvault/observe-cursors.json. Offsets are kept as
// float64 because that is what ClawVault reads and writes; every offset it
// writes is a whole number.
type Cursor struct {
	LastObservedOffset float64
	LastObservedAt     string
	SessionKey         string
	LastFileSize       float64
}

// Offset is the cursor's byte offset as an integer. ClawVault keeps any
// finite offset ≥ 0, 1e300 included, and compares it with the file's size
// as a double: an offset beyond int64 saturates, so it lies past the end of
// any file as it does there (and the file is re-read from byte 0).
func (c Cursor) Offset() int64 { return jscompat.SaturatingInt64(c.LastObservedOffset) }

// FileSize is the file size recorded when the cursor was written
// (saturating as Offset).
func (c Cursor) FileSize() int64 { return jscompat.SaturatingInt64(c.LastFileSize) }

// OffsetText is the offset for people: digits grouped when it is a whole
// number int64 holds, else as JavaScript prints it (1e+300, 12.5).
func (c Cursor) OffsetText() string {
	if n, ok := jscompat.Int64Of(c.LastObservedOffset); ok && float64(n) == c.LastObservedOffset {
		return Count(n)
	}
	return string(jscompat.AppendJSNumber(nil, c.LastObservedOffset))
}

// WholeOffset reports whether the offset is a whole number of bytes.
// ClawVault 3.5.2 fails a session whose cursor is not (Node's read stream
// refuses a fractional start) and keeps the cursor; so does a sweep here.
func (c Cursor) WholeOffset() bool {
	return c.LastObservedOffset == math.Trunc(c.LastObservedOffset)
}

// ObservedAt parses LastObservedAt; ok is false when it does not parse.
func (c Cursor) ObservedAt() (time.Time, bool) {
	ms, ok := jscompat.ParseISOTime(c.LastObservedAt)
	if !ok {
		return time.Time{}, false
	}
	return time.UnixMilli(ms).UTC(), true
}

// CursorStore is the cursor file's content, keeping ClawVault's property
// order so that a store read and written back is byte-identical.
type CursorStore struct {
	keys []string
	vals []Cursor // vals[i] is keys[i]'s
	// byKey finds a key's position: status asks for 50,000 cursors.
	byKey KeyIndex
}

// NewCursorStore returns an empty store.
func NewCursorStore() *CursorStore {
	return &CursorStore{}
}

// NewCursorStoreSized returns an empty store with room for n cursors.
func NewCursorStoreSized(n int) *CursorStore {
	return &CursorStore{keys: make([]string, 0, n), vals: make([]Cursor, 0, n), byKey: *NewKeyIndex(n)}
}

// Len is the number of cursors.
func (s *CursorStore) Len() int { return len(s.keys) }

// Get returns the cursor of a session id.
func (s *CursorStore) Get(sessionID string) (Cursor, bool) {
	if i := s.byKey.Find(sessionID, s.keys); i >= 0 {
		return s.vals[i], true
	}
	return Cursor{}, false
}

// Set adds or replaces a cursor; a new id goes last, as a JavaScript property does.
func (s *CursorStore) Set(sessionID string, c Cursor) {
	if i := s.byKey.Find(sessionID, s.keys); i >= 0 {
		s.vals[i] = c
		return
	}
	s.keys = append(s.keys, sessionID)
	s.vals = append(s.vals, c)
	s.byKey.Add(len(s.keys)-1, s.keys)
}

// Keys returns the session ids in the order JSON.stringify writes them.
func (s *CursorStore) Keys() []string {
	return jscompat.JSPropertyOrder(append([]string(nil), s.keys...))
}

// CursorProblem names a cursor entry that fails ClawVault's validation and
// is therefore ignored, as ClawVault ignores it.
type CursorProblem struct {
	SessionID string
	Reason    string
}

// RawCursor is one cursor entry as read, before validation. A nil field was
// absent or held another JSON type; Object is false when the entry itself
// is not a JSON object.
type RawCursor struct {
	Object       bool
	Offset       *float64
	FileSize     *float64
	ObservedAt   *string
	SessionKey   *string
	OffsetText   string // the offset as written, for messages
	FileSizeText string
}

// ValidateCursor applies ClawVault's parseCursorStore to one entry: the id
// must match the session id pattern, both numbers be finite and ≥ 0, both
// strings non-empty after trimming. reason is "" for a valid entry.
func ValidateCursor(id string, rc RawCursor) (c Cursor, reason string) {
	if !ValidSessionID(id) {
		return Cursor{}, "the session id does not match ^[a-zA-Z0-9._-]{1,200}$"
	}
	if !rc.Object {
		return Cursor{}, "the entry is not an object"
	}
	num := func(name string, v *float64, text string) (float64, string) {
		switch {
		case v == nil:
			return 0, name + " is missing or not a number"
		case math.IsInf(*v, 0) || math.IsNaN(*v) || *v < 0:
			return 0, fmt.Sprintf("%s is %s, not a finite number ≥ 0", name, text)
		}
		return *v, ""
	}
	str := func(name string, v *string) (string, string) {
		switch {
		case v == nil:
			return "", name + " is missing or not a string"
		case strings.TrimSpace(*v) == "":
			return "", name + " is empty"
		}
		return *v, ""
	}
	if c.LastObservedOffset, reason = num("lastObservedOffset", rc.Offset, rc.OffsetText); reason != "" {
		return Cursor{}, reason
	}
	if c.LastFileSize, reason = num("lastFileSize", rc.FileSize, rc.FileSizeText); reason != "" {
		return Cursor{}, reason
	}
	if c.LastObservedAt, reason = str("lastObservedAt", rc.ObservedAt); reason != "" {
		return Cursor{}, reason
	}
	if c.SessionKey, reason = str("sessionKey", rc.SessionKey); reason != "" {
		return Cursor{}, reason
	}
	return c, ""
}

// SetParsed adds a cursor read from a file, keeping file order; the store's
// order is fixed up to JavaScript's by FinishParsed. The id must not be in
// the store yet (the file's repeated ids are resolved before).
func (s *CursorStore) SetParsed(sessionID string, c Cursor) {
	s.keys = append(s.keys, sessionID)
	s.vals = append(s.vals, c)
	s.byKey.Add(len(s.keys)-1, s.keys)
}

// FinishParsed puts the keys in the order JavaScript enumerates a parsed
// object's properties: integer-like keys first.
func (s *CursorStore) FinishParsed() {
	if !slices.ContainsFunc(s.keys, jscompat.IsArrayIndexKey) {
		return
	}
	keys := jscompat.JSPropertyOrder(slices.Clone(s.keys))
	vals := make([]Cursor, len(keys))
	for i, k := range keys {
		vals[i], _ = s.Get(k)
	}
	s.keys, s.vals = keys, vals
	s.byKey.Rebuild(keys)
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
		c, _ := s.Get(id)
		b = append(b, "  "...)
		b = jscompat.AppendJSString(b, id)
		b = append(b, ": {\n    \"lastObservedOffset\": "...)
		b = jscompat.AppendJSNumber(b, c.LastObservedOffset)
		b = append(b, ",\n    \"lastObservedAt\": "...)
		b = jscompat.AppendJSString(b, c.LastObservedAt)
		b = append(b, ",\n    \"sessionKey\": "...)
		b = jscompat.AppendJSString(b, c.SessionKey)
		b = append(b, ",\n    \"lastFileSize\": "...)
		b = jscompat.AppendJSNumber(b, c.LastFileSize)
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
