package jscompat

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// JSON.parse then JSON.stringify, as Node prints them (node -p
// 'JSON.stringify(JSON.parse(s))').
func TestParseThenStringifyIsNodes(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"b":1,"2":2,"1":3,"a":1}`, `{"1":3,"2":2,"b":1,"a":1}`},
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{`{"x":1.50,"y":1E3,"z":-0,"w":1e21,"v":1e-7,"u":12345678901234567890,"t":0.1e1}`, `{"x":1.5,"y":1000,"z":0,"w":1e+21,"v":1e-7,"u":12345678901234567000,"t":1}`},
		{`{"big":1e400,"small":-1e400,"under":1e-400}`, `{"big":null,"small":null,"under":0}`},
		{`"\u00e9\u2028\/<>&\ud83d\ude00"`, "\"é\u2028/<>&😀\""},
		{`"lone \udc00 and \ud800x"`, `"lone \udc00 and \ud800x"`},
		{`"\u0001\u001f\u007f\b\f\n\r\t"`, `"\u0001\u001f` + "\x7f" + `\b\f\n\r\t"`},
		{` [ 1 , { } , [ ] , "a" , null , true , false ] `, `[1,{},[],"a",null,true,false]`},
		{`{"__proto__":{"x":1},"4294967295":1,"4294967294":2,"01":3}`, `{"4294967294":2,"__proto__":{"x":1},"4294967295":1,"01":3}`},
	} {
		v, err := ParseJSON([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if got := string(v.AppendJSON(nil)); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// What JSON.parse throws on.
func TestParseJSONRefuses(t *testing.T) {
	for _, in := range []string{``, ` `, `{`, `{"a"}`, `{"a":1,}`, `[1,]`, `01`, `1.`, `.5`, `+1`, `-`, `1e`, `"a`, "\"a\tb\"",
		`"\x"`, `"\u12"`, `"\u12g4"`, `nul`, `truex`, `{"a":1}x`, `'a'`, `NaN`, `Infinity`, "\u00a0{}"} {
		if _, err := ParseJSON([]byte(in)); err == nil {
			t.Errorf("%q parsed", in)
		}
	}
}

// Set puts a new array-index key among the others in ascending order, and
// keeps an existing key's place; Delete and Set move a key to the end.
func TestObjectOrder(t *testing.T) {
	v, _ := ParseJSON([]byte(`{"b":1,"10":2,"a":3}`))
	o := v.Obj
	o.Set("2", &Value{Kind: True})
	o.Set("b", NewString("x"))
	o.Set("c", &Value{Kind: False})
	o.Delete("a")
	o.Set("a", NewString("again"))
	if got, want := string(v.AppendJSON(nil)), `{"2":true,"10":2,"b":"x","c":false,"a":"again"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// FuzzParseJSON: on UTF-8 input, ParseJSON accepts exactly what
// encoding/json (RFC 8259, as JSON.parse) does, never panics, and what it
// writes parses back to the same text.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\ud800"`, `1e400`, `{"1":1,"a":2,"0":3}`, `[]`, `-0.0e-0`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !utf8.Valid(b) {
			return
		}
		v, err := ParseJSON(b)
		if (err == nil) != json.Valid(b) {
			t.Fatalf("%q: ParseJSON error %v, encoding/json valid %v", b, err, json.Valid(b))
		}
		if err != nil {
			return
		}
		out := v.AppendJSON(nil)
		w, err := ParseJSON(out)
		if err != nil {
			t.Fatalf("%q wrote %q, which does not parse: %v", b, out, err)
		}
		if again := w.AppendJSON(nil); string(again) != string(out) {
			t.Fatalf("%q wrote %q, then %q", b, out, again)
		}
	})
}
