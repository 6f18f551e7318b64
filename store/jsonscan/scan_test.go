package jsonscan

import (
	"encoding/json"
	"testing"
)

// hasBadEscape reports a backslash not followed by a letter JSON allows;
// Valid leaves those to the decoder (see validBody).
func hasBadEscape(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if i+1 >= len(b) {
			return true
		}
		switch b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i++
		case 'u':
			if i+5 >= len(b) {
				return true
			}
			for _, c := range b[i+2 : i+6] {
				if !isHex(c) {
					return true
				}
			}
			i += 5
		default:
			return true
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// FuzzValid: Valid agrees with encoding/json (but for bad escapes), and
// Object walks exactly the fields a decode finds, in order.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1,"b":[true,false,null],"c":{"d":"\u00e9\n"}}`, `[1,2`, `{"a":1,}`, `"x"`, ` 12.5e-3 `, `{"a":"\x01"}`, `{"a":01}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, want := Valid(data), json.Valid(data)
		if got != want && !(got && hasBadEscape(data)) {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", data, got, want)
		}
		if !want {
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(data, &m) != nil {
			return // not an object
		}
		n := 0
		_, ok := Object(data, 0, func(key, value []byte) bool {
			n++
			if _, found := m[Unquote(key)]; !found {
				t.Fatalf("Object gave key %s, not in %v", key, m)
			}
			return true
		})
		if !ok || n < len(m) {
			t.Fatalf("Object: ok=%v, %d fields, decode has %d", ok, n, len(m))
		}
	})
}

func TestKeyIs(t *testing.T) {
	if !KeyIs([]byte(`"type"`), "type") || !KeyIs([]byte(`"\u0074ype"`), "type") || KeyIs([]byte(`"Type"`), "type") {
		t.Error("KeyIs")
	}
}

// A number outside int64's range is not an int64 (the conversion was
// undefined, -2⁶³ on amd64).
func TestIntRange(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"42", 42, true}, {"-7", -7, true}, {"12.9", 12, true}, {"9007199254740993", 9007199254740993, true},
		{"1e19", 0, false}, {"-1e19", 0, false}, {"1e300", 0, false}, {"9223372036854775808", 0, false}, {"x", 0, false},
	} {
		if got, ok := Int([]byte(c.in)); got != c.want || ok != c.ok {
			t.Errorf("Int(%s) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
