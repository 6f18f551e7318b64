package store

import (
	"bytes"
	"slices"
	"strconv"
	"unicode/utf8"

	"clawvault-tui/jscompat"
	"clawvault-tui/store/jsonscan"
)

// OpenClaw measures its session store as JSON.stringify(store, null, 2)
// writes it (the disk budget counts those bytes, row by row). The file on
// disk is normally exactly that, but a hand-edited or older file need not
// be, so the size is computed from the values, the way JSON.stringify
// would print them: JavaScript's number format and string escapes, two
// spaces per level, the last of duplicate keys.

// StringifiedSize returns the length of JSON.stringify(value, null, 2) for
// the valid JSON value raw, printed at the given nesting depth (a row of
// sessions.json is at depth 1). Invalid input counts its raw length.
func StringifiedSize(raw []byte, depth int) int64 {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	switch raw[0] {
	case '{':
		return objectSize(raw, depth)
	case '[':
		return arraySize(raw, depth)
	case '"':
		return jsStringSize(raw)
	case 't', 'f', 'n':
		return int64(len(raw))
	}
	return jsNumberSize(raw)
}

func objectSize(raw []byte, depth int) int64 {
	type member struct{ key, value []byte } // the key with its quotes
	var members []member
	escaped := false
	_, ok := jsonscan.Object(raw, 0, func(k, v []byte) bool {
		members = append(members, member{k, v})
		escaped = escaped || bytes.IndexByte(k, '\\') >= 0
		return true
	})
	if !ok {
		return int64(len(raw))
	}
	if len(members) == 0 {
		return 2
	}
	if escaped || hasDuplicateKeys(members, func(m member) []byte { return m.key }) {
		// JSON.parse keeps the last value of a key, at its first position.
		index := map[string]int{}
		unique := members[:0:0]
		for _, m := range members {
			key := jsonscan.Unquote(m.key)
			if i, dup := index[key]; dup {
				unique[i].value = m.value
				continue
			}
			index[key] = len(unique)
			unique = append(unique, member{jscompat.AppendJSString(nil, key), m.value})
		}
		members = unique
	}
	// "{" + per member "\n" + indent + key + ": " + value, "," between, "\n" + indent + "}"
	n := int64(1+1+2*depth+1) + int64(len(members)-1)
	for _, m := range members {
		n += 1 + int64(2*(depth+1)) + jsStringSize(m.key) + 2 + StringifiedSize(m.value, depth+1)
	}
	return n
}

// hasDuplicateKeys reports whether two members share a raw key, without
// allocating for the usual object of a few dozen keys.
func hasDuplicateKeys[M any](members []M, key func(M) []byte) bool {
	if len(members) <= 64 {
		var keys [64][]byte
		for i, m := range members {
			keys[i] = key(m)
		}
		slices.SortFunc(keys[:len(members)], bytes.Compare)
		for i := 1; i < len(members); i++ {
			if bytes.Equal(keys[i-1], keys[i]) {
				return true
			}
		}
		return false
	}
	seen := make(map[string]bool, len(members))
	for _, m := range members {
		if seen[string(key(m))] {
			return true
		}
		seen[string(key(m))] = true
	}
	return false
}

func arraySize(raw []byte, depth int) int64 {
	i := jsonscan.SkipWS(raw, 1)
	if i < len(raw) && raw[i] == ']' {
		return 2
	}
	count := 0
	var n int64
	for i < len(raw) {
		end, ok := jsonscan.Value(raw, i)
		if !ok {
			return int64(len(raw))
		}
		n += 1 + int64(2*(depth+1)) + StringifiedSize(raw[i:end], depth+1)
		count++
		i = jsonscan.SkipWS(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i = jsonscan.SkipWS(raw, i+1)
			continue
		}
		break
	}
	return n + int64(count-1) + 1 + int64(2*depth) + 2
}

// jsStringSize is the length of the string re-quoted by JSON.stringify: the
// literal itself unless it has escapes JSON.stringify writes differently.
func jsStringSize(lit []byte) int64 {
	body := lit[1 : len(lit)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return int64(len(lit))
	}
	return int64(len(jscompat.AppendJSString(nil, jsonscan.Unquote(lit))))
}

// jsNumberSize is the length of the number as JavaScript prints it.
func jsNumberSize(lit []byte) int64 {
	if canonicalInt(lit) {
		return int64(len(lit))
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		return int64(len(lit))
	}
	return int64(len(jscompat.AppendJSNumber(nil, f)))
}

// canonicalInt: an integer JavaScript prints as written (no leading zero,
// sign only for non-zero, at most 15 digits).
func canonicalInt(b []byte) bool {
	digits := b
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 15 || digits[0] == '0' && (len(digits) > 1 || len(b) > 1) {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
