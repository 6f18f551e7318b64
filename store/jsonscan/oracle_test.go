package jsonscan

// The validator as it was before the SWAR number and whitespace paths
// (commit 9b2e834), kept word for word as the oracle of FuzzValidSame:
// the fast one must give the same verdict and the same end on every
// input. Only the names differ (an "old" prefix).

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

const (
	oldOnes   = 0x0101010101010101
	oldHighs  = 0x8080808080808080
	oldC20s   = 0x2020202020202020
	oldQuotes = 0x2222222222222222
	oldBslash = 0x5C5C5C5C5C5C5C5C
)

func oldIsWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// oldSkipWS returns the index of the first non-whitespace byte at or after i.
func oldSkipWS(b []byte, i int) int {
	for i < len(b) && oldIsWS(b[i]) {
		i++
	}
	return i
}

// oldStringStop has the high bit set in the lowest byte of x that is a
// quote, a backslash or a control character, if any. (Bytes above it may
// be flagged wrongly: a borrow carries; only the lowest counts.)
func oldStringStop(x uint64) uint64 {
	q, s := x^oldQuotes, x^oldBslash
	return (((q - oldOnes) &^ q) | ((s - oldOnes) &^ s) | ((x - oldC20s) &^ x)) & oldHighs
}

// oldShortString is how far oldString looks eight bytes at a time before it
// switches to IndexByte.
const oldShortString = 64

// oldString validates the string starting at b[i] == '"' and returns the
// index just past its closing quote.
func oldString(b []byte, i int) (end int, ok bool) {
	j := i + 1
	for j-i <= oldShortString {
		if j+8 <= len(b) {
			m := oldStringStop(binary.LittleEndian.Uint64(b[j:]))
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
			n := oldEscapeLen(b, j)
			if n == 0 {
				return 0, false
			}
			j += n
		default:
			return 0, false // a control character
		}
	}
	return oldLongString(b, j)
}

// oldEscapeLen is the length of the valid escape at b[j] == '\\', or 0.
func oldEscapeLen(b []byte, j int) int {
	if j+1 >= len(b) {
		return 0
	}
	switch b[j+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if j+6 <= len(b) && oldIsHex(b[j+2]) && oldIsHex(b[j+3]) && oldIsHex(b[j+4]) && oldIsHex(b[j+5]) {
			return 6
		}
	}
	return 0
}

// oldLongString finishes a string from b[j], which is not inside an escape.
func oldLongString(b []byte, j int) (int, bool) {
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
			if !oldValidBody(b[start:q]) || !oldValidEscapes(b[start:q]) {
				return 0, false
			}
			return q + 1, true
		}
		j = q + 1
	}
}

// oldValidBody checks a string body (between its oldQuotes, escapes aside) for
// control characters, 32 bytes per step.
func oldValidBody(b []byte) bool {
	i := 0
	var acc uint64
	for ; i+32 <= len(b); i += 32 {
		x0 := binary.LittleEndian.Uint64(b[i:])
		x1 := binary.LittleEndian.Uint64(b[i+8:])
		x2 := binary.LittleEndian.Uint64(b[i+16:])
		x3 := binary.LittleEndian.Uint64(b[i+24:])
		acc |= ((x0 - oldC20s) &^ x0) | ((x1 - oldC20s) &^ x1) | ((x2 - oldC20s) &^ x2) | ((x3 - oldC20s) &^ x3)
	}
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		acc |= (x - oldC20s) &^ x
	}
	if acc&oldHighs != 0 {
		return false
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 {
			return false
		}
	}
	return true
}

// oldValidEscapes checks every backslash of a string body (one whose closing
// quote is known) for a letter JSON allows after it.
func oldValidEscapes(b []byte) bool {
	for j := 0; ; {
		k := bytes.IndexByte(b[j:], '\\')
		if k < 0 {
			return true
		}
		j += k
		n := oldEscapeLen(b, j)
		if n == 0 {
			return false
		}
		j += n
	}
}

func oldIsHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// oldScanNumber validates -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? at b[i].
func oldScanNumber(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i >= len(b) {
		return 0, false
	}
	switch {
	case b[i] == '0':
		i++
	case b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return 0, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return 0, false
		}
	}
	return i, true
}

func oldScanLiteral(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}

// oldScanScalar validates a non-container value at b[i].
func oldScanScalar(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		return oldString(b, i)
	case c == 't':
		return oldScanLiteral(b, i, "true")
	case c == 'f':
		return oldScanLiteral(b, i, "false")
	case c == 'n':
		return oldScanLiteral(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return oldScanNumber(b, i)
	}
	return 0, false
}

// oldMaxDepth bounds nesting. V8's JSON.parse throws on very deep input too,
// and a bound keeps a hostile line from costing unbounded memory.
const oldMaxDepth = 10000

// oldValue validates any value at b[i] (after whitespace), iteratively, and
// returns the index just past it.
func oldValue(b []byte, i int) (int, bool) {
	i = oldSkipWS(b, i)
	if i >= len(b) {
		return 0, false
	}
	if b[i] != '{' && b[i] != '[' {
		return oldScanScalar(b, i)
	}
	var stackBuf [64]byte
	stack := stackBuf[:0]
	for {
		// At the start of a value.
		i = oldSkipWS(b, i)
		if i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case '{':
			if len(stack) >= oldMaxDepth {
				return 0, false
			}
			stack = append(stack, '}')
			i = oldSkipWS(b, i+1)
			if i < len(b) && b[i] == '}' {
				stack = stack[:len(stack)-1]
				i++
				break
			}
			var ok bool
			if i, ok = oldKey(b, i); !ok {
				return 0, false
			}
			continue
		case '[':
			if len(stack) >= oldMaxDepth {
				return 0, false
			}
			stack = append(stack, ']')
			i = oldSkipWS(b, i+1)
			if i < len(b) && b[i] == ']' {
				stack = stack[:len(stack)-1]
				i++
				break
			}
			continue
		default:
			var ok bool
			if i, ok = oldScanScalar(b, i); !ok {
				return 0, false
			}
		}
		// After a value: a separator, or the end of containers.
		for {
			if len(stack) == 0 {
				return i, true
			}
			i = oldSkipWS(b, i)
			if i >= len(b) {
				return 0, false
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
				var ok bool
				if i, ok = oldKey(b, oldSkipWS(b, i)); !ok {
					return 0, false
				}
			}
			break
		}
	}
}

// oldKey validates `"key" :` at b[i] and returns the index after the colon.
func oldKey(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	end, ok := oldString(b, i)
	if !ok {
		return 0, false
	}
	end = oldSkipWS(b, end)
	if end >= len(b) || b[end] != ':' {
		return 0, false
	}
	return end + 1, true
}

// oldValid reports whether b holds exactly one JSON value (with surrounding
// whitespace), as JSON.parse would accept it.
func oldValid(b []byte) bool {
	end, ok := oldValue(b, 0)
	return ok && oldSkipWS(b, end) == len(b)
}
