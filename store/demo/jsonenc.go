package demo

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// The files we imitate are written by Node: transcripts with JSON.stringify(entry),
// sessions.json and the cursor file with JSON.stringify(store, null, 2). encoding/json
// cannot reproduce them byte for byte (map key order, HTML escaping, float format), so
// this file holds a tiny encoder for ordered objects that follows JSON.stringify.

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
		return appendJSString(b, x)
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
		return appendJSNumber(b, x)
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
		b = appendJSString(b, m.k)
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

const hexDigits = "0123456789abcdef"

// appendJSString quotes s like JSON.stringify: only '"', '\\' and control characters are
// escaped (lower-case \u00xx); '<', '>', '&' and non-ASCII text stay as they are.
func appendJSString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			if c < utf8.RuneSelf {
				i++
				continue
			}
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendJSNumber formats f as JS Number.prototype.toString does: the shortest digits
// that round-trip, plain notation for 1e-6 <= |f| < 1e21, exponent notation otherwise.
func appendJSNumber(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	if f == 0 {
		return append(b, '0') // also -0
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // "1e-07" → JS "1e-7"
	for i := 0; i < len(s); i++ {
		if s[i] == 'e' {
			mant, sign, digits := s[:i], s[i+1], s[i+2:]
			for len(digits) > 1 && digits[0] == '0' {
				digits = digits[1:]
			}
			b = append(b, mant...)
			b = append(b, 'e', sign)
			return append(b, digits...)
		}
	}
	return append(b, s...)
}
