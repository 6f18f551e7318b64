// Package observer runs jobs over the store and the model: ClawVault's
// observation selection and sweeps, deep checks of pending bytes, and
// retention planning. Jobs report progress and honour cancellation.
package observer

import (
	"bytes"
	"encoding/json"
	"strings"

	"clawvault-tui/jscompat"
)

// NormalizeLine is ClawVault 3.5.2's parseOpenClawJsonLine: one transcript
// line becomes "<role>: <text>", or "" when it yields no message. Accepted
// shapes are {role, content} and {type:"message", message:{role, content}};
// content is a string, an array reduced through .text/.content strings, or
// an object's .text/.content, so thinking, toolCall and image blocks vanish.
func NormalizeLine(line []byte) string {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	text := jsTrim(toValidUTF8(line))
	if text == "" {
		return ""
	}
	var entry map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &entry); err != nil || entry == nil {
		return ""
	}
	_, hasRole := entry["role"]
	_, hasContent := entry["content"]
	if hasRole && hasContent {
		return joinRole(entry["role"], entry["content"])
	}
	var typ string
	if json.Unmarshal(entry["type"], &typ) != nil || typ != "message" {
		return ""
	}
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(entry["message"], &msg); err != nil || msg == nil {
		return ""
	}
	return joinRole(msg["role"], msg["content"])
}

func joinRole(rawRole, rawContent json.RawMessage) string {
	content := extractContentText(rawContent)
	if content == "" {
		return ""
	}
	var role string
	if json.Unmarshal(rawRole, &role) == nil {
		role = jscompat.JSToLower(jsTrim(role))
	}
	if role == "" {
		return content
	}
	return role + ": " + content
}

// extractContentText follows ClawVault's extractContentText.
func extractContentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		return normalizeWhitespace(s)
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return ""
		}
		parts := make([]string, 0, len(items))
		for _, it := range items {
			if p := extractContentText(it); p != "" {
				parts = append(parts, p)
			}
		}
		return normalizeWhitespace(strings.Join(parts, " "))
	case '{':
		// JavaScript property access is case-sensitive; encoding/json's
		// struct fields are not, so decode into a map.
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return ""
		}
		for _, v := range []json.RawMessage{obj["text"], obj["content"]} {
			var s string
			if len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil {
				return normalizeWhitespace(s)
			}
		}
	}
	return ""
}

// normalizeWhitespace is value.replace(/\s+/g, " ").trim().
func normalizeWhitespace(s string) string { return jscompat.CollapseJSSpace(s) }

// jsTrim is String.prototype.trim.
func jsTrim(s string) string { return jscompat.JSTrim(s) }

// toValidUTF8 decodes bytes as Node's Buffer.toString("utf-8") does.
func toValidUTF8(b []byte) string { return jscompat.DecodeUTF8(b) }
