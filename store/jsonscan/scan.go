// Package jsonscan validates and walks JSON in byte slices without
// allocating and without building values: the transcript indexer, the
// sessions.json reader and the cursor loader use it where encoding/json's
// reflection would cost more than the budget allows. It accepts exactly
// what JSON.parse accepts.
package jsonscan

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// The scanner below validates JSON as RFC 8259 (and JSON.parse) define it,
// without allocating and without building values. Most strings in a
// transcript or a sessions.json are short (keys, ids, numbers' neighbours):
// String reads them eight bytes at a time, looking for a quote, a
// backslash or a control character in one step. A string still open after
// 64 bytes (message text) is finished with bytes.IndexByte (SIMD) to its
// closing quote, then checked for control characters 32 bytes at a time
// and for valid escapes at each backslash.

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
	c20s  = 0x2020202020202020
	c21s  = 0x2121212121212121
	// quoteFlip maps the quote to 0x20 (see stringStop).
	quoteFlip = 0x0202020202020202
	bslash    = 0x5C5C5C5C5C5C5C5C
)

// wsBits has bit c set for each whitespace byte c (all below 64).
const wsBits = 1<<' ' | 1<<'\t' | 1<<'\n' | 1<<'\r'

// SkipWS returns the index of the first non-whitespace byte at or after i.
// Compact JSON (all a transcript holds) has none: the first byte decides,
// with one compare for every byte above the space.
func SkipWS(b []byte, i int) int {
	for i < len(b) {
		if c := b[i]; c > ' ' || wsBits>>c&1 == 0 {
			return i
		}
		i++
	}
	return i
}

// stringStop has the high bit set in the lowest byte of x that is a
// quote, a backslash or a control character, if any. (Bytes above it may
// be flagged wrongly: a borrow carries; only the lowest counts.) Flipping
// bit 1 turns the quote (0x22) into 0x20 and leaves every control
// character below 0x20 and every other byte at 0x20 or above, so one
// less-than-0x21 test finds both.
func stringStop(x uint64) uint64 {
	q, s := x^quoteFlip, x^bslash
	return (((q - c21s) &^ q) | ((s - ones) &^ s)) & highs
}

// shortEnd returns the index past the string at b[i] == '"' when its
// body is at most eight plain bytes (most keys, pi's ids, roles), or
// 0 to say "ask String". It is small enough to inline into the loops
// that call it, which saves a call for most strings of a transcript.
func shortEnd(b []byte, i int) int {
	if i+10 <= len(b) {
		n := 8 // eight plain bytes: pi's ids
		if m := stringStop(binary.LittleEndian.Uint64(b[i+1:])); m != 0 {
			n = bits.TrailingZeros64(m) >> 3
		}
		if i += 1 + n; b[i] == '"' {
			return i + 1
		}
	}
	return 0
}

// shortString is how far String looks eight bytes at a time before it
// switches to IndexByte.
const shortString = 64

// String validates the string starting at b[i] == '"' and returns the
// index just past its closing quote.
func String(b []byte, i int) (end int, ok bool) {
	j := i + 1
	for j-i <= shortString {
		if j+8 <= len(b) {
			m := stringStop(binary.LittleEndian.Uint64(b[j:]))
			if m == 0 {
				j += 8
				continue
			}
			j += bits.TrailingZeros64(m) >> 3
		} else {
			for j < len(b) && b[j] != '"' && b[j] != '\\' && b[j] >= 0x20 {
				j++
			}
			if j >= len(b) {
				return 0, false
			}
		}
		switch c := b[j]; {
		case c == '"':
			return j + 1, true
		case c == '\\':
			n := escapeLen(b, j)
			if n == 0 {
				return 0, false
			}
			j += n
		default:
			return 0, false // a control character
		}
	}
	return longString(b, j)
}

// escapeLen is the length of the valid escape at b[j] == '\\', or 0.
func escapeLen(b []byte, j int) int {
	if j+1 >= len(b) {
		return 0
	}
	switch b[j+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if j+6 <= len(b) && isHex(b[j+2]) && isHex(b[j+3]) && isHex(b[j+4]) && isHex(b[j+5]) {
			return 6
		}
	}
	return 0
}

// longString finishes a string from b[j], which is not inside an escape.
func longString(b []byte, j int) (int, bool) {
	start := j
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return 0, false
		}
		q += j
		// A quote preceded by an odd run of backslashes is escaped.
		k := q - 1
		for k >= start && b[k] == '\\' {
			k--
		}
		if (q-1-k)%2 == 0 {
			if !validBody(b[start:q]) || !validEscapes(b[start:q]) {
				return 0, false
			}
			return q + 1, true
		}
		j = q + 1
	}
}

// validBody checks a string body (between its quotes, escapes aside) for
// control characters, 32 bytes per step.
func validBody(b []byte) bool {
	i := 0
	var acc uint64
	for ; i+32 <= len(b); i += 32 {
		x0 := binary.LittleEndian.Uint64(b[i:])
		x1 := binary.LittleEndian.Uint64(b[i+8:])
		x2 := binary.LittleEndian.Uint64(b[i+16:])
		x3 := binary.LittleEndian.Uint64(b[i+24:])
		acc |= ((x0 - c20s) &^ x0) | ((x1 - c20s) &^ x1) | ((x2 - c20s) &^ x2) | ((x3 - c20s) &^ x3)
	}
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		acc |= (x - c20s) &^ x
	}
	if acc&highs != 0 {
		return false
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 {
			return false
		}
	}
	return true
}

// validEscapes checks every backslash of a string body (one whose closing
// quote is known) for a letter JSON allows after it.
func validEscapes(b []byte) bool {
	for j := 0; ; {
		k := bytes.IndexByte(b[j:], '\\')
		if k < 0 {
			return true
		}
		j += k
		n := escapeLen(b, j)
		if n == 0 {
			return false
		}
		j += n
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// skipDigits returns the index of the first byte at or after i that is
// not an ASCII digit. Costs in a transcript have twenty digits after the
// point: it looks at eight bytes per step. Per byte, t = c^'0' is 0-9 for
// a digit; t+0x76 sets the high bit for 10-0x89 and t itself has it from
// 0x80 on, so the lowest flagged byte is the first non-digit. (A carry
// leaves only a flagged byte, so it can flag wrongly only above that one.)
func skipDigits(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		t := binary.LittleEndian.Uint64(b[i:]) ^ 0x3030303030303030
		if m := ((t + 0x7676767676767676) | t) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(b) && b[i]-'0' < 10 {
		i++
	}
	return i
}

// scanNumber validates -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? at b[i].
func scanNumber(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i >= len(b) {
		return 0, false
	}
	switch {
	case b[i] == '0':
		i++
	case b[i]-'1' < 9:
		i = skipDigits(b, i+1)
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		d := i + 1
		if i = skipDigits(b, d); i == d {
			return 0, false
		}
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		if i = skipDigits(b, d); i == d {
			return 0, false
		}
	}
	return i, true
}

func scanLiteral(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}

// scanScalar validates a non-container value at b[i].
func scanScalar(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		if e := shortEnd(b, i); e != 0 {
			return e, true
		}
		return String(b, i)
	case c == 't':
		return scanLiteral(b, i, "true")
	case c == 'f':
		return scanLiteral(b, i, "false")
	case c == 'n':
		return scanLiteral(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return scanNumber(b, i)
	}
	return 0, false
}

// maxDepth bounds nesting. V8's JSON.parse throws on very deep input too,
// and a bound keeps a hostile line from costing unbounded memory.
const maxDepth = 10000

// Value validates any value at b[i] (after whitespace), iteratively, and
// returns the index just past it. A string, the most common value, and a
// number are read without a detour through scanScalar.
func Value(b []byte, i int) (int, bool) {
	i = SkipWS(b, i)
	if i >= len(b) {
		return 0, false
	}
	if b[i] != '{' && b[i] != '[' {
		return scanScalar(b, i)
	}
	var stackBuf [64]byte
	stack := stackBuf[:0]
	var ok bool
	for {
		// At the start of a value.
		i = SkipWS(b, i)
		if i >= len(b) {
			return 0, false
		}
		switch c := b[i]; c {
		case '"':
			if e := shortEnd(b, i); e != 0 {
				i = e
			} else if i, ok = String(b, i); !ok {
				return 0, false
			}
		case '{':
			if len(stack) >= maxDepth {
				return 0, false
			}
			i = SkipWS(b, i+1)
			if i < len(b) && b[i] == '}' {
				i++
				break
			}
			stack = append(stack, '}')
			if i, ok = Key(b, i); !ok {
				return 0, false
			}
			continue
		case '[':
			if len(stack) >= maxDepth {
				return 0, false
			}
			i = SkipWS(b, i+1)
			if i < len(b) && b[i] == ']' {
				i++
				break
			}
			stack = append(stack, ']')
			continue
		default:
			if c == '-' || c-'0' < 10 {
				i, ok = scanNumber(b, i)
			} else {
				i, ok = scanScalar(b, i)
			}
			if !ok {
				return 0, false
			}
		}
		// After a value: a separator, or the end of containers.
		for {
			if len(stack) == 0 {
				return i, true
			}
			if i >= len(b) {
				return 0, false
			}
			if b[i] <= ' ' {
				if i = SkipWS(b, i); i >= len(b) {
					return 0, false
				}
			}
			top := stack[len(stack)-1]
			if b[i] == top {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if b[i] != ',' {
				return 0, false
			}
			i++
			if top == '}' {
				if i, ok = Key(b, SkipWS(b, i)); !ok {
					return 0, false
				}
			}
			break
		}
	}
}

// Key validates `"key" :` at b[i] and returns the index after the colon.
func Key(b []byte, i int) (int, bool) {
	_, afterColon, ok := keyColon(b, i)
	return afterColon, ok
}

// keyColon validates `"key" :` at b[i] and returns the index past the
// key's closing quote and the index after the colon.
func keyColon(b []byte, i int) (keyEnd, afterColon int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, 0, false
	}
	if keyEnd = shortEnd(b, i); keyEnd == 0 {
		if keyEnd, ok = String(b, i); !ok {
			return 0, 0, false
		}
	}
	colon := keyEnd
	if colon >= len(b) || b[colon] != ':' { // not compact JSON
		if colon = SkipWS(b, colon); colon >= len(b) || b[colon] != ':' {
			return 0, 0, false
		}
	}
	return keyEnd, colon + 1, true
}

// Member validates one object member, `"key": value`, whose key's quote
// is at b[i], and returns the index past the key's closing quote and the
// index past the value. A caller walking an object that needs each key
// (to decline some) thus makes one call per member.
func Member(b []byte, i int) (keyEnd, end int, ok bool) {
	keyEnd, afterColon, ok := keyColon(b, i)
	if !ok {
		return 0, 0, false
	}
	end, ok = Value(b, afterColon)
	return keyEnd, end, ok
}

// Valid reports whether b holds exactly one JSON value (with surrounding
// whitespace), as JSON.parse would accept it.
func Valid(b []byte) bool {
	end, ok := Value(b, 0)
	return ok && SkipWS(b, end) == len(b)
}

// Unquote returns the content of a validated string literal (quotes
// included), decoding escapes when there are any.
func Unquote(lit []byte) string { return unquoteAt(lit, 0, len(lit)) }

func unquoteAt(b []byte, start, end int) string {
	if body := b[start+1 : end-1]; bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body)
	}
	var s string
	if json.Unmarshal(b[start:end], &s) != nil {
		return string(b[start+1 : end-1])
	}
	return s
}

// Int reads a JSON number as an int64, truncating a fraction; ok is false
// for a number outside int64's range (1e19, 1e300), whose conversion Go
// leaves undefined.
func Int(b []byte) (int64, bool) {
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || !(f >= -(1<<63) && f < 1<<63) {
		return 0, false
	}
	return int64(f), true
}

// Float reads a JSON number.
func Float(b []byte) (float64, error) { return strconv.ParseFloat(string(b), 64) }

// Object calls fn with the raw key (quotes included) and the raw value of
// each field of the object at b[i], in order, validating as it goes; fn
// returns false to stop. It returns the index past the object and whether
// the object (up to where fn stopped) is valid.
func Object(b []byte, i int, fn func(key, value []byte) bool) (int, bool) {
	return walkObject(b, i, func(key []byte, at int) (int, bool, bool) {
		end, ok := Value(b, at)
		if !ok {
			return 0, false, false
		}
		return end, true, !fn(key, b[at:end])
	})
}

// ObjectWith walks the object at b[i] as Object does, but lets fn consume
// each value itself: fn receives the raw key and the index where the value
// starts, and returns the index just past the value and whether it is
// valid. A caller that must look inside one value (and validate it while
// doing so) thus scans it once.
func ObjectWith(b []byte, i int, fn func(key []byte, at int) (int, bool)) (int, bool) {
	return walkObject(b, i, func(key []byte, at int) (int, bool, bool) {
		end, ok := fn(key, at)
		return end, ok, false
	})
}

// walkObject is the loop of Object and ObjectWith: value consumes the
// value at an index and says where it ends, whether it is valid, and
// whether to stop there.
func walkObject(b []byte, i int, value func(key []byte, at int) (end int, ok, stop bool)) (int, bool) {
	i = SkipWS(b, i)
	if i >= len(b) || b[i] != '{' {
		return 0, false
	}
	i = SkipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return 0, false
		}
		kEnd, ok := String(b, i)
		if !ok {
			return 0, false
		}
		key := b[i:kEnd]
		j := SkipWS(b, kEnd)
		if j >= len(b) || b[j] != ':' {
			return 0, false
		}
		vEnd, ok, stop := value(key, SkipWS(b, j+1))
		if !ok {
			return 0, false
		}
		if stop {
			return vEnd, true
		}
		i = SkipWS(b, vEnd)
		if i >= len(b) {
			return 0, false
		}
		if b[i] == '}' {
			return i + 1, true
		}
		if b[i] != ',' {
			return 0, false
		}
		i = SkipWS(b, i+1)
	}
}

// KeyIs reports whether the raw key (quotes included) names name; escaped
// keys are decoded first, as JSON.parse decodes them.
func KeyIs(key []byte, name string) bool {
	if len(key) >= 2 && string(key[1:len(key)-1]) == name {
		return true
	}
	return bytes.IndexByte(key, '\\') >= 0 && Unquote(key) == name
}

// Array calls fn with the raw value of each element of the array at b[i],
// in order, validating as it goes; fn returns false to stop. It returns the
// index past the array and whether the array (up to where fn stopped) is
// valid.
func Array(b []byte, i int, fn func(value []byte) bool) (int, bool) {
	i = SkipWS(b, i)
	if i >= len(b) || b[i] != '[' {
		return 0, false
	}
	i = SkipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		vEnd, ok := Value(b, i)
		if !ok {
			return 0, false
		}
		if !fn(b[i:vEnd]) {
			return vEnd, true
		}
		i = SkipWS(b, vEnd)
		if i >= len(b) {
			return 0, false
		}
		if b[i] == ']' {
			return i + 1, true
		}
		if b[i] != ',' {
			return 0, false
		}
		i = SkipWS(b, i+1)
	}
}
