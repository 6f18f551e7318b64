package transcript

import (
	"bytes"

	"clawvault-tui/model"
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
	return unquote(line, int(s.start), int(s.end))
}

// LineInfo is what sniffing one line found: the entry type, ids, timestamp
// and message role, plus the tree fields of the few entry types that have
// them. Strings stay as spans of the line until Entry copies them out.
type LineInfo struct {
	Type       model.EntryType
	id         strSpan
	parentID   strSpan
	timestamp  strSpan
	role       strSpan
	firstKept  strSpan
	fromID     strSpan
	targetID   strSpan
	label      strSpan
	name       strSpan
	typeSpan   strSpan
	firstIndex int64
	tokens     int64
	summary    bool
	// Version is the header's version (0 when absent); VersionRaw keeps a
	// non-number version's text.
	Version int
}

// SniffLine validates one line as a JSON object and extracts the tree
// fields. It returns false for anything JSON.parse would reject and for
// JSON values that are not objects. It never panics and never allocates
// for the fields it skips.
func SniffLine(line []byte) (LineInfo, bool) {
	info := LineInfo{firstIndex: -1}
	i := skipWS(line, 0)
	if i >= len(line) || line[i] != '{' {
		return info, false
	}
	i = skipWS(line, i+1)
	if i < len(line) && line[i] == '}' {
		return info, skipWS(line, i+1) == len(line)
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return info, false
		}
		kEnd, ok := scanString(line, i)
		if !ok {
			return info, false
		}
		key := line[i+1 : kEnd-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			// An escaped key ("\u0074ype") means what it decodes to.
			key = []byte(unquote(line, i, kEnd))
		}
		i = skipWS(line, kEnd)
		if i >= len(line) || line[i] != ':' {
			return info, false
		}
		i = skipWS(line, i+1)
		end, ok := info.field(line, i, key)
		if !ok {
			return info, false
		}
		i = skipWS(line, end)
		if i >= len(line) {
			return info, false
		}
		if line[i] == '}' {
			break
		}
		if line[i] != ',' {
			return info, false
		}
		i = skipWS(line, i+1)
	}
	if skipWS(line, i+1) != len(line) {
		return info, false
	}
	if info.typeSpan.set {
		info.Type = model.ParseEntryType(info.typeSpan.get(line))
	}
	return info, true
}

// field validates the value of one top-level field at line[i], capturing it
// when the tree needs it. A repeated key overwrites, as JSON.parse does.
func (info *LineInfo) field(line []byte, i int, key []byte) (int, bool) {
	var dst *strSpan
	switch string(key) {
	case "type":
		dst = &info.typeSpan
	case "id":
		dst = &info.id
	case "parentId":
		dst = &info.parentID
	case "timestamp":
		dst = &info.timestamp
	case "firstKeptEntryId":
		dst = &info.firstKept
	case "fromId":
		dst = &info.fromID
	case "targetId":
		dst = &info.targetID
	case "label":
		dst = &info.label
	case "name":
		dst = &info.name
	case "message":
		return info.message(line, i)
	case "summary":
		end, ok := skipValue(line, i)
		if ok {
			info.summary = truthy(line[i:end])
		}
		return end, ok
	case "version", "tokensBefore", "firstKeptEntryIndex":
		end, ok := skipValue(line, i)
		if !ok {
			return end, ok
		}
		n, isNum := parseInt(line[i:end])
		switch string(key) {
		case "version":
			info.Version = 0
			if isNum {
				info.Version = int(n)
			} else if line[i] == '"' {
				// "version":"2" compares as a number in JavaScript.
				if m, ok := parseInt([]byte(unquote(line, i, end))); ok {
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
	default:
		return skipValue(line, i)
	}
	if i < len(line) && line[i] == '"' {
		end, ok := scanString(line, i)
		if !ok {
			return 0, false
		}
		*dst = strSpan{start: int32(i), end: int32(end), set: true}
		return end, true
	}
	*dst = strSpan{}
	return skipValue(line, i)
}

// message validates the "message" value and captures its role.
func (info *LineInfo) message(line []byte, i int) (int, bool) {
	info.role = strSpan{}
	if i >= len(line) || line[i] != '{' {
		return skipValue(line, i)
	}
	i = skipWS(line, i+1)
	if i < len(line) && line[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return 0, false
		}
		kEnd, ok := scanString(line, i)
		if !ok {
			return 0, false
		}
		isRole := string(line[i+1:kEnd-1]) == "role" || bytes.IndexByte(line[i+1:kEnd-1], '\\') >= 0 && unquote(line, i, kEnd) == "role"
		i = skipWS(line, kEnd)
		if i >= len(line) || line[i] != ':' {
			return 0, false
		}
		i = skipWS(line, i+1)
		var end int
		if isRole && i < len(line) && line[i] == '"' {
			end, ok = scanString(line, i)
			if ok {
				info.role = strSpan{start: int32(i), end: int32(end), set: true}
			}
		} else {
			if isRole {
				info.role = strSpan{}
			}
			end, ok = skipValue(line, i)
		}
		if !ok {
			return 0, false
		}
		i = skipWS(line, end)
		if i >= len(line) {
			return 0, false
		}
		if line[i] == '}' {
			return i + 1, true
		}
		if line[i] != ',' {
			return 0, false
		}
		i = skipWS(line, i+1)
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
		n, err := parseFloat(v)
		return err == nil && n != 0
	}
	return true
}

// Entry copies the sniffed fields into an index record and, for the entry
// types that have them, tree facts.
func (info *LineInfo) Entry(line []byte, offset int64, lineNo int32) (model.Entry, model.TreeFacts, bool) {
	e := model.Entry{
		Offset:   offset,
		Length:   int32(len(line)),
		Line:     lineNo,
		Type:     info.Type,
		TimeMs:   model.NoTime,
		ID:       info.id.get(line),
		ParentID: info.parentID.get(line),
	}
	if info.id.set {
		e.Flags |= model.FlagStringID
	}
	if info.timestamp.set {
		if ms, ok := model.ParseISOTime(info.timestamp.get(line)); ok {
			e.TimeMs = ms
		}
	}
	if info.Type == model.TypeMessage && info.role.set {
		e.Role = model.ParseRole(info.role.get(line))
	}
	var f model.TreeFacts
	hasFacts := true
	switch info.Type {
	case model.TypeCompaction:
		f.FirstKeptEntryID = info.firstKept.get(line)
		f.FirstKeptEntryIndex = int(info.firstIndex)
		f.TokensBefore = info.tokens
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
