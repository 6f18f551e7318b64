package agentdb

import (
	"bytes"
	"sync"

	"clawvault-tui/store/jsonscan"
)

// Where the bytes of a transcript go: each event's bytes count under its
// kind (eventKind), and the base64 data of its image blocks under
// KindImage instead.

// KindImage is the bucket of the base64 data of image blocks.
const KindImage = "image (base64)"

// maxCustomKinds bounds the buckets of custom types: a store may name any
// number of them (the rest are counted together).
const maxCustomKinds = 64

// eventKind names the bucket of an event: its type, a message's by role
// ("message:user", "message:toolResult"), a custom entry's by its
// customType ("custom:openclaw.cache-ttl"). It reads the event from its
// start and stops there, without scanning what follows.
func eventKind(text []byte) string {
	if kind, ok := plainKind(text); ok {
		return kind
	}
	var typ, sub string
	jsonscan.ObjectWith(text, 0, func(key []byte, at int) (int, bool) {
		switch {
		case jsonscan.KeyIs(key, "type"):
			typ = stringAt(text, at)
		case jsonscan.KeyIs(key, "customType"):
			sub = stringAt(text, at)
		case jsonscan.KeyIs(key, "message"):
			sub = roleIn(text, at)
		}
		if typ != "" && (sub != "" || typ != "message" && typ != "custom" && typ != "custom_message") {
			return at, false // found: stop
		}
		return jsonscan.Value(text, at)
	})
	switch {
	case typ == "":
		return "(no type)"
	case sub != "" && (typ == "message" || typ == "custom" || typ == "custom_message"):
		return typ + ":" + sub
	}
	return typ
}

// stringAt is the JSON string at b[at], "" for another value.
func stringAt(b []byte, at int) string {
	end, ok := jsonscan.String(b, at)
	if !ok {
		return ""
	}
	return jsonscan.Unquote(b[at:end])
}

// roleIn is the role of the message object at b[at].
func roleIn(b []byte, at int) string {
	var role string
	jsonscan.ObjectWith(b, at, func(key []byte, v int) (int, bool) {
		if jsonscan.KeyIs(key, "role") {
			role = stringAt(b, v)
			return v, false
		}
		return jsonscan.Value(b, v)
	})
	return role
}

// imageBytes is the size of the base64 data of the event's image blocks
// ({"type":"image","data":…} in message.content or content), 0 when the
// event names no image.
func imageBytes(text []byte) int64 {
	if !bytes.Contains(text, []byte(`"image"`)) {
		return 0
	}
	var n int64
	blocks := func(at int) (int, bool) {
		return jsonscan.Array(text, at, func(block []byte) bool {
			var isImage bool
			var data int64
			jsonscan.Object(block, 0, func(key, value []byte) bool {
				switch {
				case jsonscan.KeyIs(key, "type"):
					isImage = string(value) == `"image"`
				case jsonscan.KeyIs(key, "data") && len(value) >= 2 && value[0] == '"':
					data = int64(len(value) - 2)
				}
				return true
			})
			if isImage {
				n += data
			}
			return true
		})
	}
	content := func(b []byte, at int) (int, bool) {
		if at < len(b) && b[at] == '[' {
			return blocks(at)
		}
		return jsonscan.Value(b, at)
	}
	jsonscan.ObjectWith(text, 0, func(key []byte, at int) (int, bool) {
		switch {
		case jsonscan.KeyIs(key, "content"):
			return content(text, at)
		case jsonscan.KeyIs(key, "message"):
			return jsonscan.ObjectWith(text, at, func(key []byte, v int) (int, bool) {
				if jsonscan.KeyIs(key, "content") {
					return content(text, v)
				}
				return jsonscan.Value(text, v)
			})
		}
		return jsonscan.Value(text, at)
	})
	return n
}

// plainKind is eventKind for an event as pi and OpenClaw write it: its
// first members plain strings (no escape), null or numbers, "type" among
// them and, for a message, "message" an object whose first member is
// "role"; ok is false for any other start (eventKind then scans it).
func plainKind(b []byte) (kind string, ok bool) {
	if len(b) < 2 || b[0] != '{' {
		return "", false
	}
	var typ, sub []byte
	for i := 1; i < len(b) && i < 4096; {
		key, j, ok := plainString(b, i)
		if !ok || j >= len(b) || b[j] != ':' {
			return "", false
		}
		j++
		switch string(key) {
		case "message":
			if string(typ) != "message" || !bytes.HasPrefix(b[j:], []byte(`{"role":`)) {
				return "", false
			}
			role, _, ok := plainString(b, j+len(`{"role":`))
			return kindName("message", role), ok && len(role) > 0
		case "type", "customType":
			v, end, ok := plainString(b, j)
			if !ok {
				return "", false
			}
			if string(key) == "type" {
				typ = v
			} else {
				sub = v
			}
			j = end
		default:
			end, ok := plainScalar(b, j)
			if !ok {
				return "", false
			}
			j = end
		}
		switch t := string(typ); {
		case t == "":
		case t == "custom" || t == "custom_message":
			if sub != nil {
				return kindName(t, sub), true
			}
		case t != "message":
			return kindName(t, nil), true
		}
		if j >= len(b) || b[j] != ',' {
			return "", false
		}
		i = j + 1
	}
	return "", false
}

// kindNames keeps the kinds met, so that naming one allocates only the
// first time.
var kindNames sync.Map

// kindName is typ, and ":" and sub when sub is set.
func kindName(typ string, sub []byte) string {
	var key [128]byte
	k := append(append(key[:0], typ...), ':')
	k = append(k, sub...)
	if sub == nil {
		k = k[:len(typ)]
	}
	if len(k) <= len(key) {
		if v, ok := kindNames.Load(string(k)); ok { // no allocation: string(k) in a lookup
			return v.(string)
		}
	}
	name := string(k)
	kindNames.Store(name, name)
	return name
}

// plainString reads the string at b[i] when it has no escape: its bytes
// and the index past it.
func plainString(b []byte, i int) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// plainScalar skips a plain string, null, true, false or a number at b[i].
func plainScalar(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '"' {
		_, end, ok := plainString(b, i)
		return end, ok
	}
	j := i
	for j < len(b) && (b[j] >= 'a' && b[j] <= 'z' || b[j] >= '0' && b[j] <= '9' || b[j] == '-' || b[j] == '.' || b[j] == '+' || b[j] == 'E') {
		j++
	}
	switch w := string(b[i:j]); {
	case w == "null" || w == "true" || w == "false":
		return j, true
	case j > i && (w[0] == '-' || w[0] >= '0' && w[0] <= '9'):
		return j, jsonscan.Valid(b[i:j])
	}
	return 0, false
}
