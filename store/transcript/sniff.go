package transcript

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store/jsonscan"
)

// strSpan locates a string literal in a line (quotes included).
type strSpan struct {
	start, end int32
	set        bool
}

func (s strSpan) get(line []byte) string {
	if !s.set {
		return ""
	}
	return jsonscan.Unquote(line[s.start:s.end])
}

// id is the span as an entry id, interned in names when it is not one of
// pi's eight hex digits.
func (s strSpan) id(line []byte, names *model.Names) model.EntryID {
	if !s.set {
		return model.NoID
	}
	raw := line[s.start+1 : s.end-1]
	if !plainASCII(raw) && (bytes.IndexByte(raw, '\\') >= 0 || !utf8.Valid(raw)) {
		// Escapes, or bytes a UTF-8 reader would replace with U+FFFD.
		return names.Intern(jsonscan.Unquote(line[s.start:s.end]))
	}
	return names.InternBytes(raw)
}

// plainASCII reports bytes without a backslash or a byte above 0x7F: an
// id that is its own text. pi's eight hex digits take one step. (A false
// no only sends an id the slower way.)
func plainASCII(b []byte) bool {
	const ones, highs, bslash = 0x0101010101010101, 0x8080808080808080, 0x5C5C5C5C5C5C5C5C
	if len(b) == 8 {
		x := binary.LittleEndian.Uint64(b)
		s := x ^ bslash // a zero byte where b has a backslash
		return (x|(s-ones)&^s)&highs == 0
	}
	for _, c := range b {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// raw is the span's bytes, quotes excluded, escapes not decoded.
func (s strSpan) raw(line []byte) []byte {
	if !s.set {
		return nil
	}
	return line[s.start+1 : s.end-1]
}

// LineInfo is what sniffing one line found: the entry type, ids, timestamp
// and message role, plus the tree fields of the few entry types that have
// them. Strings stay as spans of the line until Entry copies them out.
type LineInfo struct {
	Type      model.EntryType
	id        strSpan
	parentID  strSpan
	timestamp strSpan
	role      strSpan
	firstKept strSpan
	fromID    strSpan
	targetID  strSpan
	label     strSpan
	name      strSpan
	typeSpan  strSpan
	// OpenClaw 2026.9 and pi 1.5 fields: parentId's kind (a key, null, an
	// id, anything else), targetId and appendParentId of a leaf control,
	// appendMode, a context_edit's null replacement, a reset's reason, a
	// compaction's system checkpoint, a message's excludeFromContext.
	parentRef, targetRef, appendRef model.RefState
	appendParent                    strSpan
	reason                          strSpan
	appendMode                      appendModeKind
	replacementNull                 bool
	systemMessage                   bool
	excludeContext                  bool
	firstIndex                      int64
	tokens                          int64
	summary                         bool
	// timeMs is the timestamp when the fast path parsed it already.
	timeMs int64
	// Version is the header's version (0 when absent); VersionRaw keeps a
	// non-number version's text.
	Version int
}

type appendModeKind uint8

const (
	appendModeAbsent appendModeKind = iota
	appendModeSide
	appendModeOther
)

// refState classifies a validated JSON value held by a reference field.
func refState(v []byte) model.RefState {
	switch {
	case string(v) == "null":
		return model.RefNull
	case len(v) > 2 && v[0] == '"':
		switch c := v[1]; {
		case c > ' ' && c < 0x80 && c != '\\':
			return model.RefID // the usual id: no need to decode it
		case isBlankJS(jsonscan.Unquote(v)):
			return model.RefInvalid
		}
		return model.RefID
	}
	return model.RefInvalid // "" or not a string
}

// isBlankJS reports a string JavaScript's trim() empties.
func isBlankJS(s string) bool {
	for _, c := range s {
		switch c {
		case ' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\ufeff', '\u2028', '\u2029', '\u1680', '\u202f', '\u205f', '\u3000':
		default:
			if c < '\u2000' || c > '\u200a' {
				return false
			}
		}
	}
	return true
}

// SniffLine validates one line as a JSON object and extracts the tree
// fields. It returns false for anything JSON.parse would reject and for
// JSON values that are not objects. It never panics and never allocates
// for the fields it skips.
func SniffLine(line []byte) (LineInfo, bool) {
	info := LineInfo{firstIndex: -1}
	i := jsonscan.SkipWS(line, 0)
	if i >= len(line) || line[i] != '{' {
		return info, false
	}
	i = jsonscan.SkipWS(line, i+1)
	if i < len(line) && line[i] == '}' {
		return info, jsonscan.SkipWS(line, i+1) == len(line)
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return info, false
		}
		kEnd, ok := jsonscan.String(line, i)
		if !ok {
			return info, false
		}
		key := line[i+1 : kEnd-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			// An escaped key ("\u0074ype") means what it decodes to.
			key = []byte(jsonscan.Unquote(line[i:kEnd]))
		}
		i = jsonscan.SkipWS(line, kEnd)
		if i >= len(line) || line[i] != ':' {
			return info, false
		}
		i = jsonscan.SkipWS(line, i+1)
		end, ok := info.field(line, i, key)
		if !ok {
			return info, false
		}
		i = jsonscan.SkipWS(line, end)
		if i >= len(line) {
			return info, false
		}
		if line[i] == '}' {
			break
		}
		if line[i] != ',' {
			return info, false
		}
		i = jsonscan.SkipWS(line, i+1)
	}
	if jsonscan.SkipWS(line, i+1) != len(line) {
		return info, false
	}
	if info.typeSpan.set {
		info.Type = model.ParseEntryType(info.typeSpan.get(line))
	}
	return info, true
}

// field validates the value of one top-level field at line[i], capturing it
// when the tree needs it. A repeated key overwrites, as JSON.parse does.
// (One switch: this runs for every field of every line validated.)
func (info *LineInfo) field(line []byte, i int, key []byte) (int, bool) {
	switch string(key) {
	case "type":
		return captureString(line, i, &info.typeSpan, nil)
	case "id":
		return captureString(line, i, &info.id, nil)
	case "parentId":
		return captureString(line, i, &info.parentID, &info.parentRef)
	case "appendParentId":
		return captureString(line, i, &info.appendParent, &info.appendRef)
	case "reason":
		return captureString(line, i, &info.reason, nil)
	case "timestamp":
		return captureString(line, i, &info.timestamp, nil)
	case "firstKeptEntryId":
		return captureString(line, i, &info.firstKept, nil)
	case "fromId":
		return captureString(line, i, &info.fromID, nil)
	case "targetId":
		return captureString(line, i, &info.targetID, &info.targetRef)
	case "label":
		return captureString(line, i, &info.label, nil)
	case "name":
		return captureString(line, i, &info.name, nil)
	case "message":
		return info.message(line, i)
	case "version", "tokensBefore", "firstKeptEntryIndex":
		return info.numberField(line, i, key)
	case "appendMode", "replacement", "systemMessage", "summary":
		return info.flagField(line, i, key)
	}
	return jsonscan.Value(line, i)
}

// captureString keeps a string value's span in dst (a value of another
// type clears it), and what it says of a reference in ref.
func captureString(line []byte, i int, dst *strSpan, ref *model.RefState) (int, bool) {
	if i < len(line) && line[i] == '"' {
		end, ok := jsonscan.String(line, i)
		if !ok {
			return 0, false
		}
		*dst = strSpan{start: int32(i), end: int32(end), set: true}
		if ref != nil {
			*ref = refState(line[i:end])
		}
		return end, true
	}
	*dst = strSpan{}
	end, ok := jsonscan.Value(line, i)
	if ref != nil && ok {
		*ref = refState(line[i:end])
	}
	return end, ok
}

// flagField reads the fields the tree needs only a fact of: a side
// append, a null replacement, a truthy system message or summary.
func (info *LineInfo) flagField(line []byte, i int, key []byte) (int, bool) {
	end, ok := jsonscan.Value(line, i)
	switch string(key) {
	case "appendMode":
		info.appendMode = appendModeOther
		if ok && line[i] == '"' && jsonscan.Unquote(line[i:end]) == "side" {
			info.appendMode = appendModeSide
		}
	case "replacement":
		info.replacementNull = ok && string(line[i:end]) == "null"
	case "systemMessage":
		info.systemMessage = ok && truthy(line[i:end])
	case "summary":
		if ok {
			info.summary = truthy(line[i:end])
		}
	}
	return end, ok
}

// numberField reads version, tokensBefore and firstKeptEntryIndex; one
// that is not an integer reads as 0 (-1 for the index), and a version
// in quotes as the number it spells, as JavaScript compares it.
func (info *LineInfo) numberField(line []byte, i int, key []byte) (int, bool) {
	end, ok := jsonscan.Value(line, i)
	if !ok {
		return end, ok
	}
	n, isNum := jsonscan.Int(line[i:end])
	switch string(key) {
	case "version":
		info.Version = 0
		if isNum {
			info.Version = int(n)
		} else if line[i] == '"' {
			if m, ok := jsonscan.Int([]byte(jsonscan.Unquote(line[i:end]))); ok {
				info.Version = int(m)
			}
		}
	case "tokensBefore":
		info.tokens = 0
		if isNum {
			info.tokens = n
		}
	default:
		info.firstIndex = -1
		if isNum {
			info.firstIndex = n
		}
	}
	return end, true
}

// message validates the "message" value and captures its role.
func (info *LineInfo) message(line []byte, i int) (int, bool) {
	info.role = strSpan{}
	info.excludeContext = false
	if i >= len(line) || line[i] != '{' {
		return jsonscan.Value(line, i)
	}
	i = jsonscan.SkipWS(line, i+1)
	if i < len(line) && line[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return 0, false
		}
		kEnd, ok := jsonscan.String(line, i)
		if !ok {
			return 0, false
		}
		rawKey := line[i+1 : kEnd-1]
		if bytes.IndexByte(rawKey, '\\') >= 0 {
			rawKey = []byte(jsonscan.Unquote(line[i:kEnd]))
		}
		isRole := string(rawKey) == "role"
		isExclude := string(rawKey) == "excludeFromContext"
		i = jsonscan.SkipWS(line, kEnd)
		if i >= len(line) || line[i] != ':' {
			return 0, false
		}
		i = jsonscan.SkipWS(line, i+1)
		var end int
		if isRole && i < len(line) && line[i] == '"' {
			end, ok = jsonscan.String(line, i)
			if ok {
				info.role = strSpan{start: int32(i), end: int32(end), set: true}
			}
		} else {
			if isRole {
				info.role = strSpan{}
			}
			end, ok = jsonscan.Value(line, i)
			if isExclude && ok {
				info.excludeContext = string(line[i:end]) == "true"
			}
		}
		if !ok {
			return 0, false
		}
		i = jsonscan.SkipWS(line, end)
		if i >= len(line) {
			return 0, false
		}
		if line[i] == '}' {
			return i + 1, true
		}
		if line[i] != ',' {
			return 0, false
		}
		i = jsonscan.SkipWS(line, i+1)
	}
}

// truthy is JavaScript truthiness of a validated JSON value.
func truthy(v []byte) bool {
	switch {
	case len(v) == 0:
		return false
	case string(v) == "null", string(v) == "false", string(v) == `""`:
		return false
	case v[0] == '-' || v[0] >= '0' && v[0] <= '9':
		n, err := jsonscan.Float(v)
		return err == nil && n != 0
	}
	return true
}

// Entry copies the sniffed fields into an index record and, for the entry
// types that have them, tree facts.
func (info *LineInfo) Entry(line []byte, offset int64, lineNo int32, names *model.Names) (model.Entry, model.TreeFacts, bool) {
	e := model.Entry{
		Offset:   offset,
		Length:   int32(len(line)),
		Line:     lineNo,
		Type:     info.Type,
		TimeMs:   model.NoTime,
		ID:       info.id.id(line, names),
		ParentID: info.parentID.id(line, names),
	}
	if info.id.set {
		e.Flags |= model.FlagStringID
	}
	if info.parentRef != model.RefAbsent {
		e.Flags |= model.FlagParentKey
		if info.parentRef == model.RefInvalid {
			e.Flags |= model.FlagParentBad
		}
	}
	e.Flags |= info.lateFlags()
	switch ts := info.timestamp.raw(line); {
	case info.timeMs != 0:
		e.TimeMs = info.timeMs
	case len(ts) > 0:
		if ms, ok := jscompat.ParseISOTimeBytes(ts); ok {
			e.TimeMs = ms
		} else if ms, ok := jscompat.ParseISOTime(info.timestamp.get(line)); ok {
			e.TimeMs = ms
		}
	}
	if info.Type == model.TypeMessage && info.role.set {
		raw := info.role.raw(line)
		if bytes.IndexByte(raw, '\\') >= 0 {
			e.Role = model.ParseRole(info.role.get(line))
		} else {
			e.Role = model.ParseRoleBytes(raw)
		}
	}
	var f model.TreeFacts
	hasFacts := true
	switch info.Type {
	case model.TypeCompaction:
		f.FirstKeptEntryID = info.firstKept.get(line)
		f.FirstKeptEntryIndex = int(info.firstIndex)
		f.TokensBefore = info.tokens
		f.HasSystemMessage = info.systemMessage
	case model.TypeReset:
		f.FirstKeptEntryID = info.firstKept.get(line)
		f.Label = info.reason.get(line)
	case model.TypeLeaf:
		f.TargetID, f.Target = info.targetID.get(line), info.targetRef
		f.AppendParentID, f.AppendParent = info.appendParent.get(line), info.appendRef
		f.AppendModeBad = info.appendMode == appendModeOther
	case model.TypeContextEdit:
		f.TargetID = info.targetID.get(line)
		f.ReplacementNull = info.replacementNull
	case model.TypeBranchSummary:
		f.FromID = info.fromID.get(line)
		f.HasSummary = info.summary
	case model.TypeLabel:
		f.TargetID = info.targetID.get(line)
		f.Label = info.label.get(line)
	case model.TypeSessionInfo:
		f.Label = info.name.get(line)
	default:
		hasFacts = false
	}
	return e, f, hasFacts
}
