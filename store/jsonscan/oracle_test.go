package jsonscan

// The validator as it was before the SWAR number and whitespace paths
// (commit 9b2e834), kept word for word as the oracle of FuzzValidSame:
// the fast one must give the same verdict and the same end on every
// input. Only the names differ (an "old" prefix); the helpers that did not
// change (escapes, long strings, literals) are shared.

import (
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

// oldScanScalar validates a non-container value at b[i].
func oldScanScalar(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		return oldString(b, i)
	case c == 't':
		return scanLiteral(b, i, "true")
	case c == 'f':
		return scanLiteral(b, i, "false")
	case c == 'n':
		return scanLiteral(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return oldScanNumber(b, i)
	}
	return 0, false
}

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
			if len(stack) >= maxDepth {
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
			if len(stack) >= maxDepth {
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
