package demo

import (
	"strconv"

	"clawvault-tui/jscompat"
)

// The files we imitate are written by Node: transcripts with JSON.stringify(entry),
// sessions.json and the cursor file with JSON.stringify(store, null, 2). encoding/json
// cannot reproduce them byte for byte (map key order, HTML escaping, float format), so
// this file holds a tiny encoder for ordered objects that follows JSON.stringify; strings
// and numbers are written by model's JSON.stringify rules, as the observer writes them.

// kv is one member of an ordered object.
type kv struct {
	k string
	v any
}

// obj is a JSON object whose members keep their insertion order, as JS objects do.
type obj []kv

// undefinedValue marks a member JSON.stringify would leave out (a JS undefined).
type undefinedValue struct{}

// undef is the JS undefined: members holding it are not written.
var undef = undefinedValue{}

// o builds an ordered object from alternating keys and values.
func o(pairs ...any) obj {
	out := make(obj, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, kv{pairs[i].(string), pairs[i+1]})
	}
	return out
}

// get returns the value of key k, or nil.
func (x obj) get(k string) any {
	for _, m := range x {
		if m.k == k {
			return m.v
		}
	}
	return nil
}

// set replaces the value of k, or appends k at the end (JS assignment semantics).
func (x obj) set(k string, v any) obj {
	for i := range x {
		if x[i].k == k {
			x[i].v = v
			return x
		}
	}
	return append(x, kv{k, v})
}

// orNull turns "" into JSON null (pi writes parentId:null for roots).
func orNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// optional turns a zero value into undefined, so the member is omitted.
func optional[T comparable](v T) any {
	var zero T
	if v == zero {
		return undef
	}
	return v
}

// jsonCompact appends v as JSON.stringify(v) would.
func jsonCompact(b []byte, v any) []byte {
	return appendJSON(b, v, "", 0)
}

// jsonIndent2 appends v as JSON.stringify(v, null, 2) would (no trailing newline).
func jsonIndent2(b []byte, v any) []byte {
	return appendJSON(b, v, "  ", 0)
}

func appendJSON(b []byte, v any, indent string, depth int) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case string:
		return jscompat.AppendJSString(b, x)
	case bool:
		if x {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case uint32:
		return strconv.AppendUint(b, uint64(x), 10)
	case float64:
		return jscompat.AppendJSNumber(b, x)
	case obj:
		return appendObject(b, x, indent, depth)
	case []obj:
		items := make([]any, len(x))
		for i := range x {
			items[i] = x[i]
		}
		return appendArray(b, items, indent, depth)
	case []string:
		items := make([]any, len(x))
		for i := range x {
			items[i] = x[i]
		}
		return appendArray(b, items, indent, depth)
	case []any:
		return appendArray(b, x, indent, depth)
	default:
		panic("demo: cannot encode value of this type")
	}
}

func appendObject(b []byte, x obj, indent string, depth int) []byte {
	b = append(b, '{')
	n := 0
	for _, m := range x {
		if _, skip := m.v.(undefinedValue); skip {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = newline(b, indent, depth+1)
		b = jscompat.AppendJSString(b, m.k)
		b = append(b, ':')
		if indent != "" {
			b = append(b, ' ')
		}
		b = appendJSON(b, m.v, indent, depth+1)
		n++
	}
	if n > 0 {
		b = newline(b, indent, depth)
	}
	return append(b, '}')
}

func appendArray(b []byte, items []any, indent string, depth int) []byte {
	b = append(b, '[')
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = newline(b, indent, depth+1)
		if _, skip := it.(undefinedValue); skip {
			it = nil // JSON.stringify writes undefined array slots as null
		}
		b = appendJSON(b, it, indent, depth+1)
	}
	if len(items) > 0 {
		b = newline(b, indent, depth)
	}
	return append(b, ']')
}

func newline(b []byte, indent string, depth int) []byte {
	if indent == "" {
		return b
	}
	b = append(b, '\n')
	for range depth {
		b = append(b, indent...)
	}
	return b
}
