package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonStream writes one JSON document a value at a time, byte for byte as
// writeJSON (encoding/json with two-space indentation, no HTML escaping)
// would write the same document built whole: status and tree print tens
// of megabytes on a large workspace, and building that as Go values, then
// as one []byte, then indenting it into another, cost more time and memory
// than what it describes. Output is buffered and written in blocks of
// about 64 KiB; the first write error stops the stream and is returned by
// end.
type jsonStream struct {
	w   io.Writer
	b   []byte
	err error
	// open holds, for each container being written, whether it has an
	// element yet.
	open []bool
	// key: a key was just written, so the value follows it on its line.
	key bool
}

const jsonFlushAt = 64 << 10

func newJSONStream(w io.Writer) *jsonStream {
	return &jsonStream{w: w, b: make([]byte, 0, jsonFlushAt+4096)}
}

// value starts a value: after a key it follows on the same line; in an
// array it starts a new indented line.
func (s *jsonStream) value() {
	if s.key {
		s.key = false
		return
	}
	if n := len(s.open); n > 0 {
		if s.open[n-1] {
			s.b = append(s.b, ',')
		}
		s.open[n-1] = true
		s.newline(n)
	}
}

func (s *jsonStream) newline(depth int) {
	s.b = append(s.b, '\n')
	for range depth {
		s.b = append(s.b, ' ', ' ')
	}
}

func (s *jsonStream) flushSome() {
	// A stream without a writer (a block encoded for ElementsInBlocks)
	// keeps everything.
	if len(s.b) >= jsonFlushAt && s.err == nil && s.w != nil {
		_, s.err = s.w.Write(s.b)
		s.b = s.b[:0]
	}
}

// writeThrough writes what is buffered, then b, which is encoded JSON
// that continues the document.
func (s *jsonStream) writeThrough(b []byte) {
	if s.err != nil {
		return
	}
	if len(s.b) > 0 {
		if _, s.err = s.w.Write(s.b); s.err != nil {
			return
		}
		s.b = s.b[:0]
	}
	_, s.err = s.w.Write(b)
}

// Key writes an object's key; its value comes next.
func (s *jsonStream) Key(k string) {
	s.value()
	s.b = appendJSONString(s.b, k)
	s.b = append(s.b, ':', ' ')
	s.key = true
}

// Object and Array open a container; End closes the innermost one.
func (s *jsonStream) Object() { s.begin('{') }
func (s *jsonStream) Array()  { s.begin('[') }

func (s *jsonStream) begin(c byte) {
	s.value()
	s.b = append(s.b, c)
	s.open = append(s.open, false)
}

// End closes the innermost container: `{}` or `[]` when it is empty, else
// on its own line.
func (s *jsonStream) End(c byte) {
	n := len(s.open)
	if s.open[n-1] {
		s.newline(n - 1)
	}
	s.open = s.open[:n-1]
	s.b = append(s.b, c)
	s.flushSome()
}

func (s *jsonStream) String(v string) {
	s.value()
	s.b = appendJSONString(s.b, v)
	s.flushSome()
}

// KeyString writes a key and its string value, nothing when v is empty
// (encoding/json's omitempty).
func (s *jsonStream) KeyString(key, v string) {
	if v != "" {
		s.Key(key)
		s.String(v)
	}
}

func (s *jsonStream) Int(v int64) {
	s.value()
	s.b = strconv.AppendInt(s.b, v, 10)
}

func (s *jsonStream) Bool(v bool) {
	s.value()
	s.b = strconv.AppendBool(s.b, v)
}

func (s *jsonStream) Null() {
	s.value()
	s.b = append(s.b, "null"...)
}

// Float writes a number as encoding/json does (ES6 number formatting).
// Infinities and NaN, which encoding/json refuses, never reach here:
// decoding keeps only finite numbers.
func (s *jsonStream) Float(f float64) {
	s.value()
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	s.b = strconv.AppendFloat(s.b, f, format, -1, 64)
	if format == 'e' {
		// e-09 is written e-9.
		if n := len(s.b); n >= 4 && s.b[n-4] == 'e' && s.b[n-3] == '-' && s.b[n-2] == '0' {
			s.b[n-2] = s.b[n-1]
			s.b = s.b[:n-1]
		}
	}
}

// Value writes v as writeJSON would (encoding/json, HTML escaping off),
// indented at the current depth: for small parts of a streamed document.
func (s *jsonStream) Value(v any) {
	s.value()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(strings.Repeat("  ", len(s.open)), "  ")
	if err := enc.Encode(v); err != nil {
		s.b = append(s.b, "null"...)
		return
	}
	s.b = append(s.b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// Finish ends the document with a newline, as json.Encoder does, and
// writes what is buffered.
func (s *jsonStream) Finish() error {
	s.b = append(s.b, '\n')
	if s.err == nil {
		_, s.err = s.w.Write(s.b)
	}
	s.b = s.b[:0]
	return s.err
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes a string exactly as encoding/json does with
// HTML escaping off: \" \\ \b \f \n \r \t, other control characters as
// \u00XX, invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString[T string | []byte](dst []byte, src T) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(src); {
		if b := src[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, src[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		n := min(len(src)-i, utf8.UTFMax)
		c, size := utf8.DecodeRuneInString(string(src[i : i+n]))
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, src[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, src[start:]...)
	return append(dst, '"')
}
