package jscompat

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// A Value is what JavaScript's JSON.parse builds, for code that must then
// change it and write it back exactly as JSON.stringify would: objects keep
// JavaScript's property order (array-index keys first, ascending, then the
// others in the order they were first set; a repeated key keeps its first
// place and its last value), numbers are doubles, and strings are UTF-16
// as JavaScript holds them (a lone surrogate, which \ud800 makes, is kept
// in WTF-8 and written back as \ud800).
type Value struct {
	Kind Kind
	Num  float64
	Str  string // WTF-8: UTF-8, and lone surrogates as their three bytes
	Arr  []*Value
	Obj  *Object
}

// Kind is a Value's JavaScript type.
type Kind uint8

const (
	Null Kind = iota
	False
	True
	Number
	String
	Array
	ObjectKind
)

// Object holds an object's properties in JavaScript's order.
type Object struct {
	keys []string
	vals []*Value
}

// Get returns the value of key.
func (o *Object) Get(key string) (*Value, bool) {
	for i, k := range o.keys {
		if k == key {
			return o.vals[i], true
		}
	}
	return nil, false
}

// Has reports whether key is an own property.
func (o *Object) Has(key string) bool {
	_, ok := o.Get(key)
	return ok
}

// Set sets key as an assignment does: an existing key keeps its place, a
// new one goes where JavaScript's order puts it.
func (o *Object) Set(key string, v *Value) {
	for i, k := range o.keys {
		if k == key {
			o.vals[i] = v
			return
		}
	}
	at := len(o.keys)
	if IsArrayIndexKey(key) {
		n := arrayIndex(key)
		at = 0
		for at < len(o.keys) && IsArrayIndexKey(o.keys[at]) && arrayIndex(o.keys[at]) < n {
			at++
		}
	}
	o.keys = append(o.keys, "")
	o.vals = append(o.vals, nil)
	copy(o.keys[at+1:], o.keys[at:])
	copy(o.vals[at+1:], o.vals[at:])
	o.keys[at], o.vals[at] = key, v
}

// Delete removes key, as the delete operator does.
func (o *Object) Delete(key string) {
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			o.vals = append(o.vals[:i], o.vals[i+1:]...)
			return
		}
	}
}

// Clone is a shallow copy: {...o}.
func (o *Object) Clone() *Object {
	return &Object{keys: append([]string(nil), o.keys...), vals: append([]*Value(nil), o.vals...)}
}

func arrayIndex(key string) uint64 {
	n, _ := strconv.ParseUint(key, 10, 64)
	return n
}

// NewString and NewObject make values.
func NewString(s string) *Value  { return &Value{Kind: String, Str: s} }
func NewObject(o *Object) *Value { return &Value{Kind: ObjectKind, Obj: o} }

// IsRecord is OpenClaw's isRecord: an object that is not an array (nor null).
func (v *Value) IsRecord() bool { return v != nil && v.Kind == ObjectKind }

// IsString reports whether v is a string.
func (v *Value) IsString() bool { return v != nil && v.Kind == String }

// Truthy is JavaScript's truthiness.
func (v *Value) Truthy() bool {
	switch v.Kind {
	case Null, False:
		return false
	case Number:
		return v.Num == v.Num && v.Num != 0
	case String:
		return v.Str != ""
	}
	return true
}

// Field returns an object's property, nil when v is no record or lacks it.
func (v *Value) Field(key string) *Value {
	if !v.IsRecord() {
		return nil
	}
	f, _ := v.Obj.Get(key)
	return f
}

// ErrJSONSyntax is the error of input JSON.parse would throw on.
var ErrJSONSyntax = errors.New("not JSON")

// maxJSONDepth bounds nesting: deeper input is refused rather than
// recursed into without end.
const maxJSONDepth = 10000

// ParseJSON is JSON.parse of UTF-8 text (the caller has checked it is UTF-8).
func ParseJSON(b []byte) (*Value, error) {
	p := jsonParser{b: b}
	p.ws()
	v, ok := p.value(0)
	if !ok {
		return nil, ErrJSONSyntax
	}
	p.ws()
	if p.i != len(b) {
		return nil, ErrJSONSyntax
	}
	return v, nil
}

type jsonParser struct {
	b []byte
	i int
}

func (p *jsonParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) lit(s string, v *Value) (*Value, bool) {
	if len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return nil, false
	}
	p.i += len(s)
	return v, true
}

func (p *jsonParser) value(depth int) (*Value, bool) {
	if p.i >= len(p.b) || depth > maxJSONDepth {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, ok := p.str()
		return &Value{Kind: String, Str: s}, ok
	case c == 't':
		return p.lit("true", &Value{Kind: True})
	case c == 'f':
		return p.lit("false", &Value{Kind: False})
	case c == 'n':
		return p.lit("null", &Value{Kind: Null})
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, false
}

func (p *jsonParser) object(depth int) (*Value, bool) {
	p.i++ // {
	o := &Object{}
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return NewObject(o), true
	}
	for {
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, false
		}
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, false
		}
		p.i++
		p.ws()
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		o.Set(k, v)
		switch end, ok := p.afterMember('}'); {
		case !ok:
			return nil, false
		case end:
			return NewObject(o), true
		}
	}
}

// afterMember reads what follows a member of an object or an element of an
// array: a comma (end false) or the closing byte (end true); anything else
// is not JSON (ok false).
func (p *jsonParser) afterMember(closing byte) (end, ok bool) {
	p.ws()
	if p.i >= len(p.b) {
		return false, false
	}
	switch p.b[p.i] {
	case ',':
		p.i++
		return false, true
	case closing:
		p.i++
		return true, true
	}
	return false, false
}

func (p *jsonParser) array(depth int) (*Value, bool) {
	p.i++ // [
	v := &Value{Kind: Array, Arr: []*Value{}}
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return v, true
	}
	for {
		p.ws()
		e, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		v.Arr = append(v.Arr, e)
		switch end, ok := p.afterMember(']'); {
		case !ok:
			return nil, false
		case end:
			return v, true
		}
	}
}

func (p *jsonParser) number() (*Value, bool) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.b[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.b) && p.b[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, false
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, false
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	// Out of range is Infinity or 0 in JavaScript, as ParseFloat rounds it.
	f, _ := strconv.ParseFloat(string(p.b[start:p.i]), 64)
	return &Value{Kind: Number, Num: f}, true
}

// str reads a string literal at p.i into WTF-8.
func (p *jsonParser) str() (string, bool) {
	p.i++ // "
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			s := string(p.b[start:p.i])
			p.i++
			return s, true
		}
		if c == '\\' || c < 0x20 {
			break
		}
		p.i++
	}
	out := append([]byte(nil), p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return string(out), true
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.b) {
			return "", false
		}
		e := p.b[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			u, ok := p.hex4()
			if !ok {
				return "", false
			}
			if u >= 0xd800 && u < 0xdc00 && p.i+6 <= len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
				save := p.i
				p.i += 2
				if lo, ok := p.hex4(); ok && lo >= 0xdc00 && lo < 0xe000 {
					out = utf8.AppendRune(out, 0x10000+(u-0xd800)<<10+(lo-0xdc00))
					continue
				}
				p.i = save
			}
			out = appendWTF8(out, u)
		default:
			return "", false
		}
	}
	return "", false
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.i+4 > len(p.b) {
		return 0, false
	}
	var r rune
	for _, c := range p.b[p.i : p.i+4] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	p.i += 4
	return r, true
}

// appendWTF8 appends a code point, a lone surrogate as its three bytes
// (which UTF-8 forbids and Go's encoder would replace).
func appendWTF8(b []byte, r rune) []byte {
	if r >= 0xd800 && r < 0xe000 {
		return append(b, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
	}
	return utf8.AppendRune(b, r)
}

// AppendJSON appends v as JSON.stringify(v) writes it.
func (v *Value) AppendJSON(b []byte) []byte {
	switch v.Kind {
	case Null:
		return append(b, "null"...)
	case False:
		return append(b, "false"...)
	case True:
		return append(b, "true"...)
	case Number:
		return AppendJSNumber(b, v.Num)
	case String:
		return appendWTF8String(b, v.Str)
	case Array:
		b = append(b, '[')
		for i, e := range v.Arr {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.AppendJSON(b)
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i, k := range v.Obj.keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendWTF8String(b, k)
		b = append(b, ':')
		b = v.Obj.vals[i].AppendJSON(b)
	}
	return append(b, '}')
}

// appendWTF8String quotes s as JSON.stringify does, a lone surrogate as
// \udxxx (ES2019's well-formed JSON.stringify).
func appendWTF8String(b []byte, s string) []byte {
	start := len(b)
	b = AppendJSString(b, s)
	if utf8.ValidString(s) {
		return b
	}
	// Redo the rare string with a lone surrogate by hand.
	b = append(b[:start], '"')
	for i := 0; i < len(s); {
		if i+2 < len(s) && s[i] == 0xed && s[i+1] >= 0xa0 && s[i+1] <= 0xbf && s[i+2] >= 0x80 && s[i+2] <= 0xbf {
			u := rune(s[i]&0x0f)<<12 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f)
			b = append(b, '\\', 'u', hexDigit(byte(u>>12)), hexDigit(byte(u>>8)), hexDigit(byte(u>>4)), hexDigit(byte(u)))
			i += 3
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		q := AppendJSString(nil, s[i:i+size])
		b = append(b, q[1:len(q)-1]...)
		i += size
	}
	return append(b, '"')
}
