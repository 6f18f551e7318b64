package transcript

import (
	"bytes"

	"clawvault-tui/model"
)

// pi writes every message entry with the same key order (JSON.stringify of
// an object literal): {"type":"message","id":…,"parentId":…,"timestamp":…,
// "message":{"role":…. sniffPrefix reads exactly those fields from that
// prefix and checks that the line closes, without validating the rest of
// the line. (appendMode "side" and excludeFromContext on a user, assistant
// or tool message are found by Validate, which reads every such line whole.)
// On a million short heartbeat lines, validating every byte costs
// five times what the screen needs; Validate does it afterwards, off the
// critical path. Any other shape falls back to SniffLine.
var (
	litMessagePrefix = []byte(`{"type":"message","id":"`)
	litParentID      = []byte(`","parentId":`)
	litTimestamp     = []byte(`,"timestamp":"`)
	litRole          = []byte(`","message":{"role":"`)
	litNull          = []byte(`null`)
)

func sniffPrefix(line []byte, days *model.ISODayCache) (LineInfo, bool) {
	info := LineInfo{firstIndex: -1}
	n := len(line)
	if n < 64 || line[n-1] != '}' || !bytes.HasPrefix(line, litMessagePrefix) {
		return info, false
	}
	i := len(litMessagePrefix)
	var ok bool
	if info.id, i, ok = plainString(line, i-1); !ok || !bytes.HasPrefix(line[i-1:], litParentID) {
		return info, false
	}
	i += len(litParentID) - 1
	switch {
	case bytes.HasPrefix(line[i:], litNull):
		i += len(litNull)
		info.parentRef = model.RefNull
	case line[i] == '"':
		if info.parentID, i, ok = plainString(line, i); !ok {
			return info, false
		}
		info.parentRef = refState(line[info.parentID.start:info.parentID.end])
	default:
		return info, false
	}
	if !bytes.HasPrefix(line[i:], litTimestamp) {
		return info, false
	}
	i += len(litTimestamp)
	if i+24 < len(line) && line[i+24] == '"' {
		// An ISO timestamp validates itself: digits and separators only.
		if ms, ok := days.Parse(line[i : i+24]); ok {
			info.timestamp = strSpan{start: int32(i - 1), end: int32(i + 25), set: true}
			info.timeMs = ms
			i += 25
		}
	}
	if !info.timestamp.set {
		if info.timestamp, i, ok = plainString(line, i-1); !ok {
			return info, false
		}
	}
	if !bytes.HasPrefix(line[i-1:], litRole) {
		return info, false
	}
	i += len(litRole) - 1
	if info.role, _, ok = plainString(line, i-1); !ok {
		return info, false
	}
	switch string(info.role.raw(line)) {
	case "user", "assistant", "toolResult":
	default:
		// Other roles (bashExecution, custom, system) may carry
		// excludeFromContext: read them whole.
		return info, false
	}
	info.Type = model.TypeMessage
	info.typeSpan = strSpan{start: 1 + int32(len(`"type":`)), end: int32(len(`{"type":"message"`)), set: true}
	return info, true
}

// plainString reads the string literal whose opening quote is at line[q]
// and returns its span and the index after its closing quote. It gives up
// on escapes and control characters, which ids, timestamps and roles never
// have; the caller then falls back to the validating sniffer. pi's ids
// have 8 characters: that length is tried first.
func plainString(line []byte, q int) (strSpan, int, bool) {
	if q >= len(line) || line[q] != '"' {
		return strSpan{}, 0, false
	}
	if end := q + 9; end < len(line) && line[end] == '"' && plainBytes(line[q+1:end]) {
		return strSpan{start: int32(q), end: int32(end + 1), set: true}, end + 1, true
	}
	for j := q + 1; j < len(line) && j < q+256; j++ {
		switch c := line[j]; {
		case c == '"':
			return strSpan{start: int32(q), end: int32(j + 1), set: true}, j + 1, true
		case c == '\\' || c < 0x20:
			return strSpan{}, 0, false
		}
	}
	return strSpan{}, 0, false
}

// plainBytes reports that b has no quote, backslash or control character.
func plainBytes(b []byte) bool {
	for _, c := range b {
		if c == '"' || c == '\\' || c < 0x20 {
			return false
		}
	}
	return true
}
