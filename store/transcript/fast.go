package transcript

import (
	"bytes"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store/jsonscan"
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

func sniffPrefix(line []byte, days *jscompat.ISODayCache, info *LineInfo) bool {
	*info = LineInfo{firstIndex: -1}
	n := len(line)
	if n < 64 || line[n-1] != '}' || !bytes.HasPrefix(line, litMessagePrefix) {
		return false
	}
	i := len(litMessagePrefix)
	var ok bool
	if info.id, i, ok = plainString(line, i-1); !ok || !bytes.HasPrefix(line[i-1:], litParentID) {
		return false
	}
	i += len(litParentID) - 1
	switch {
	case bytes.HasPrefix(line[i:], litNull):
		i += len(litNull)
		info.parentRef = model.RefNull
	case line[i] == '"':
		if info.parentID, i, ok = plainString(line, i); !ok {
			return false
		}
		info.parentRef = refState(line[info.parentID.start:info.parentID.end])
	default:
		return false
	}
	if !bytes.HasPrefix(line[i:], litTimestamp) {
		return false
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
			return false
		}
	}
	if !bytes.HasPrefix(line[i-1:], litRole) {
		return false
	}
	i += len(litRole) - 1
	if info.role, _, ok = plainString(line, i-1); !ok {
		return false
	}
	switch string(info.role.raw(line)) {
	case "user", "assistant", "toolResult":
	default:
		// Other roles (bashExecution, custom, system) may carry
		// excludeFromContext: read them whole.
		return false
	}
	info.Type = model.TypeMessage
	info.typeSpan = strSpan{start: 1 + int32(len(`"type":`)), end: int32(len(`{"type":"message"`)), set: true}
	return true
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

// sniffCanonical is SniffLine for a canonical message line at nearly
// sniffPrefix's cost: it reads the prefix as sniffPrefix does, then
// validates the rest of the line (the message's other members, then the
// top level's) as strictly as JSON.parse, without the field-by-field
// dispatch SniffLine does. A key that could overwrite what the prefix
// read (another "role" in the message; "type", "id", "parentId",
// "timestamp" or "message" at the top level, or any key with an escape)
// makes it decline, and the line goes to SniffLine. What it accepts,
// SniffLine accepts with the same entry (FuzzSniffCanonical).
func sniffCanonical(line []byte, days *jscompat.ISODayCache, info *LineInfo) bool {
	if !sniffPrefix(line, days, info) {
		return false
	}
	// The role's closing quote ends the prefix: the message object is open
	// and has had one member.
	i, ok := restOfObject(line, int(info.role.end), messageKeyTaken)
	if !ok {
		return false
	}
	if i, ok = restOfObject(line, i, topKeyTaken); !ok {
		return false
	}
	return jsonscan.SkipWS(line, i) == len(line)
}

// messageKeyTaken and topKeyTaken name the keys the fast path declines:
// those that would overwrite what the prefix read, and those SniffLine
// reads later in the line (a message's excludeFromContext, an entry's
// appendMode: OpenClaw's side messages).
func messageKeyTaken(key []byte) bool {
	return string(key) == "role" || string(key) == "excludeFromContext"
}

func topKeyTaken(key []byte) bool {
	switch string(key) {
	case "type", "id", "parentId", "timestamp", "message", "appendMode":
		return true
	}
	return false
}

// restOfObject validates the members of an object after one already read,
// from line[i] to just past its closing brace. taken names the keys it must
// not meet (their values were read already); an escaped key could be one.
func restOfObject(line []byte, i int, taken func([]byte) bool) (int, bool) {
	for {
		i = jsonscan.SkipWS(line, i)
		if i >= len(line) {
			return 0, false
		}
		switch line[i] {
		case '}':
			return i + 1, true
		case ',':
		default:
			return 0, false
		}
		i = jsonscan.SkipWS(line, i+1)
		kEnd, end, ok := jsonscan.Member(line, i)
		if !ok {
			return 0, false
		}
		if key := line[i+1 : kEnd-1]; taken(key) || bytes.IndexByte(key, '\\') >= 0 {
			return 0, false
		}
		i = end
	}
}
