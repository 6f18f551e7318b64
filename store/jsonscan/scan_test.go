package jsonscan

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
)

// FuzzValid: Valid agrees with encoding/json, and
// Object walks exactly the fields a decode finds, in order.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1,"b":[true,false,null],"c":{"d":"\u00e9\n"}}`, `[1,2`, `{"a":1,}`, `"x"`, ` 12.5e-3 `, `{"a":"\x01"}`, `{"a":01}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, want := Valid(data), json.Valid(data)
		if got != want {
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

// Strings of every length around the eight-byte steps and the switch to
// IndexByte, with a quote, a backslash escape (good or bad) or a control
// character at every position: Valid agrees with encoding/json.
func TestStringEveryPosition(t *testing.T) {
	inserts := []string{`\"`, `\\`, `\/`, `\n`, `\u00e9`, `\u00E`, `\x`, `\`, "\x01", "\x1f", "\x7f", "é", "\xff", `"`}
	for n := 0; n <= 140; n++ {
		for _, ins := range inserts {
			for at := 0; at <= n; at += max(1, n/17) {
				body := strings.Repeat("a", at) + ins + strings.Repeat("b", n-at)
				lit := []byte(`"` + body + `"`)
				if got, want := Valid(lit), json.Valid(lit); got != want {
					t.Fatalf("Valid(%q) = %v; encoding/json says %v", lit, got, want)
				}
				// Unterminated: never valid, never read past the end.
				if open := lit[:len(lit)-1]; Valid(open) != json.Valid(open) {
					t.Fatalf("Valid(%q) = %v", open, Valid(open))
				}
			}
		}
	}
}

// oneByte reads one byte at a time: every member is cut somewhere.
type oneByte struct{ b []byte }

func (r *oneByte) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = r.b[0]
	r.b = r.b[1:]
	return 1, nil
}

// FuzzReadObject: ReadObject accepts exactly the inputs that are one JSON
// object, and gives the members Object gives, whether the input comes
// whole or a byte at a time.
func FuzzReadObject(f *testing.F) {
	for _, s := range []string{`{}`, ` {"a":1,"b":[true,false,null],"c":{"d":"\u00e9\n"}} `, `{"a":1,}`, `{"a":12`, `{"a":12}x`,
		`{"n":123456789}`, `[1]`, `{"a":"b"`, `{,"a":1}`, `{"a" 1}`, "{\"k\":\"" + strings.Repeat("x", 300000) + "\",\"z\":0}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want []string
		end, ok := Object(data, 0, func(key, value []byte) bool {
			want = append(want, string(key)+"="+string(value))
			return true
		})
		ok = ok && SkipWS(data, end) == len(data)
		for _, r := range []io.Reader{bytes.NewReader(data), &oneByte{data}} {
			var got []string
			err := ReadObject(r, func(key, value []byte) bool {
				got = append(got, string(key)+"="+string(value))
				return true
			})
			if (err == nil) != ok {
				t.Fatalf("ReadObject(%q): err = %v; Object says valid=%v", data, err, ok)
			}
			if ok && !slices.Equal(got, want) {
				t.Fatalf("ReadObject(%q) = %q, Object gives %q", data, got, want)
			}
		}
	})
}
