package jscompat

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The files we share with ClawVault are written by Node's JSON.stringify.
// Byte-compatible output needs its rules, which differ from encoding/json:
// property order (integer-like keys first), number formatting, and which
// characters are escaped.

// AppendJSString appends s quoted as JSON.stringify quotes a string: only
// '"', '\\' and control characters are escaped; '<', '>', '&', U+2028 and
// U+2029 are written as they are. Invalid UTF-8 becomes U+FFFD, as Node's
// UTF-8 decoder would have made it when the string was read.
func AppendJSString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				b = append(b, '\\', '"')
			case c == '\\':
				b = append(b, '\\', '\\')
			case c >= 0x20:
				b = append(b, c)
			case c == '\b':
				b = append(b, '\\', 'b')
			case c == '\f':
				b = append(b, '\\', 'f')
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigit(c>>4), hexDigit(c&0xf))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

func hexDigit(c byte) byte {
	return "0123456789abcdef"[c&0xf]
}

// AppendJSNumber appends f as JavaScript's Number.prototype.toString writes
// it: the shortest digits that round-trip, fixed notation for exponents in
// [-7, 21), otherwise d.ddde+N.
func AppendJSNumber(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return append(b, "null"...) // JSON.stringify writes null for these
	case f == 0:
		return append(b, '0')
	}
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	// Shortest round-trip digits and decimal exponent.
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.dddde±XX
	mant, expStr, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expStr)
	k := len(digits)
	n := exp + 1 // position of the decimal point relative to the digits
	switch {
	case k <= n && n <= 21:
		b = append(b, digits...)
		for i := 0; i < n-k; i++ {
			b = append(b, '0')
		}
	case 0 < n && n <= 21:
		b = append(b, digits[:n]...)
		b = append(b, '.')
		b = append(b, digits[n:]...)
	case -6 < n && n <= 0:
		b = append(b, '0', '.')
		for i := 0; i < -n; i++ {
			b = append(b, '0')
		}
		b = append(b, digits...)
	default:
		b = append(b, digits[0])
		if k > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'e')
		if n-1 >= 0 {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, int64(n-1), 10)
	}
	return b
}

// IsArrayIndexKey reports whether JavaScript treats key as an array index
// (a canonical decimal below 2^32-1). Such keys come first in an object's
// property order, in ascending numeric order.
func IsArrayIndexKey(key string) bool {
	if key == "" || len(key) > 10 || (len(key) > 1 && key[0] == '0') {
		return false
	}
	var v uint64
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c < '0' || c > '9' {
			return false
		}
		v = v*10 + uint64(c-'0')
	}
	return v < 1<<32-1
}

// JSPropertyOrder reorders keys, given in insertion order, into the order a
// JavaScript object enumerates them.
func JSPropertyOrder(keys []string) []string {
	var idx, rest []string
	for _, k := range keys {
		if IsArrayIndexKey(k) {
			idx = append(idx, k)
		} else {
			rest = append(rest, k)
		}
	}
	if len(idx) == 0 {
		return keys
	}
	slices.SortFunc(idx, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return append(idx, rest...)
}
