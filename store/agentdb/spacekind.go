package agentdb

import (
	"bytes"

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
