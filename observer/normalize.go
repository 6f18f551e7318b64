package observer

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"clawvault-tui/jscompat"
	"clawvault-tui/store/jsonscan"
)

// normalizeLineFast is NormalizeLine on the validating scanner: no
// reflection, no decoded maps, only the strings that become the message
// are copied. It takes the lines OpenClaw writes (a JSON object from the
// first byte to the last); anything else goes to NormalizeLine, so the two
// agree on every input (a differential fuzz target checks it).
func normalizeLineFast(line []byte) string {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if len(line) == 0 {
		return ""
	}
	if line[0] != '{' || line[len(line)-1] != '}' {
		// Surrounding white space, a byte-order mark, not an object:
		// the careful path.
		return NormalizeLine(line)
	}
	var role, content, typ []byte
	var msgRole, msgContent []byte
	hasRole, hasContent, messageIsObject := false, false, false
	end, ok := jsonscan.ObjectWith(line, 0, func(key []byte, at int) (int, bool) {
		if keyIs(key, "message") {
			// Look inside while validating it: the message is most of the line.
			if at >= len(line) || line[at] != '{' {
				messageIsObject, msgRole, msgContent = false, nil, nil
				return jsonscan.Value(line, at)
			}
			messageIsObject, msgRole, msgContent = true, nil, nil
			return jsonscan.Object(line, at, func(k, v []byte) bool {
				switch {
				case keyIs(k, "role"):
					msgRole = v
				case keyIs(k, "content"):
					msgContent = v
				}
				return true
			})
		}
		vEnd, ok := jsonscan.Value(line, at)
		if !ok {
			return 0, false
		}
		value := line[at:vEnd]
		switch {
		case keyIs(key, "role"):
			role, hasRole = value, true
		case keyIs(key, "content"):
			content, hasContent = value, true
		case keyIs(key, "type"):
			typ = value
		}
		return vEnd, true
	})
	if !ok || end != len(line) || !validEscapes(line) {
		return ""
	}
	if hasRole && hasContent {
		return joinRoleRaw(role, content)
	}
	if len(typ) == 0 || typ[0] != '"' || unquote(typ) != "message" || !messageIsObject {
		return ""
	}
	role, content = msgRole, msgContent
	return joinRoleRaw(role, content)
}

// validEscapes checks what the scanner leaves out (see jsonscan): the
// letter after every backslash. In a line the scanner accepted, backslashes
// only occur inside strings.
func validEscapes(b []byte) bool {
	for {
		i := bytes.IndexByte(b, '\\')
		if i < 0 || i+1 >= len(b) {
			return i < 0
		}
		switch b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			b = b[i+2:]
		case 'u':
			if i+5 >= len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
				return false
			}
			b = b[i+6:]
		default:
			return false
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// keyIs compares a raw key (quotes included) with a name, decoding escapes
// only when there are any.
func keyIs(key []byte, name string) bool {
	if len(key) == len(name)+2 && string(key[1:len(key)-1]) == name {
		return true
	}
	return len(key) > len(name)+2 && jsonscan.KeyIs(key, name)
}

// unquote decodes a validated string literal. Node decodes the line's bytes
// before JSON.parse sees them, so invalid UTF-8 becomes U+FFFD first, the
// way Node's decoder replaces it.
func unquote(lit []byte) string {
	body := lit[1 : len(lit)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return jscompat.DecodeUTF8(body)
	}
	if !utf8.Valid(lit) {
		lit = []byte(jscompat.DecodeUTF8(lit))
	}
	return jsonscan.Unquote(lit)
}

func joinRoleRaw(rawRole, rawContent []byte) string {
	text := extractContentRaw(rawContent)
	if text == "" {
		return ""
	}
	role := ""
	if len(rawRole) > 0 && rawRole[0] == '"' {
		role = jscompat.JSToLower(jscompat.JSTrim(unquote(rawRole)))
	}
	if role == "" {
		return text
	}
	return role + ": " + text
}

// extractContentRaw is ClawVault's extractContentText on a validated raw
// value: a string; an array of parts joined with spaces; an object's .text,
// else its .content, when that is a string.
func extractContentRaw(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		return jscompat.CollapseJSSpace(unquote(raw))
	case '[':
		var parts []string
		jsonscan.Array(raw, 0, func(v []byte) bool {
			if p := extractContentRaw(v); p != "" {
				parts = append(parts, p)
			}
			return true
		})
		switch len(parts) {
		case 0:
			return ""
		case 1:
			return parts[0] // already collapsed; joining adds nothing
		}
		return jscompat.CollapseJSSpace(strings.Join(parts, " "))
	case '{':
		var text, content []byte
		jsonscan.Object(raw, 0, func(key, value []byte) bool {
			switch {
			case keyIs(key, "text"):
				text = value
			case keyIs(key, "content"):
				content = value
			}
			return true
		})
		if len(text) > 0 && text[0] == '"' {
			return jscompat.CollapseJSSpace(unquote(text))
		}
		if len(content) > 0 && content[0] == '"' {
			return jscompat.CollapseJSSpace(unquote(content))
		}
	}
	return ""
}

// jsonValid reports whether a line is one JSON value, as JSON.parse would
// accept it after trimming.
func jsonValid(line []byte) bool {
	line = bytes.TrimSpace(line)
	return jsonscan.Valid(line) && validEscapes(line)
}
