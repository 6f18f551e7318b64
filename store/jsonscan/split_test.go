package jsonscan

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

// sessionsJSON is a sessions.json of n rows as OpenClaw writes it
// (indented, each row holding a nested object).
func sessionsJSON(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n  \"agent:main:direct:u%d\": {\n    \"sessionId\": \"s%d\",\n    \"origin\": {\n      \"label\": \"}, \\\"x\\\": {\"\n    },\n    \"updatedAt\": %d\n  }", i, i, 1000+i)
	}
	b.WriteString("\n}\n")
	return b.String()
}

// splitMembers walks data in two halves at cut as a caller of
// ReadObjectHead and ReadObjectTail does: the tail's members count only
// when the head reaches the cut.
func splitMembers(data []byte, cut int64, r io.Reader) ([]string, bool, error) {
	var got []string
	collect := func(key, value []byte) bool {
		got = append(got, string(key)+"="+string(value))
		return true
	}
	reached, err := ReadObjectHead(r, cut, collect)
	if err != nil || !reached {
		return got, reached, err
	}
	err = ReadObjectTail(bytes.NewReader(data[cut:]), collect)
	return got, reached, err
}

func wholeMembers(data []byte) ([]string, error) {
	var want []string
	err := ReadObject(bytes.NewReader(data), func(key, value []byte) bool {
		want = append(want, string(key)+"="+string(value))
		return true
	})
	return want, err
}

func TestFindCut(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		cut  bool // a cut is found, and the head confirms it
	}{
		{"rows as OpenClaw writes them", sessionsJSON(200), true},
		{"compact rows", `{"a":{"x":{}},"b":{"y":1},"c":{},"d":{},"e":{},"f":{}}`, true},
		{"too few rows after the middle", `{"a":{"x":1},"b":{"y":1}}`, false},
		{"rows that are not objects", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7}`, false},
		{"one large string", `{"a":"` + strings.Repeat(`},"b":{},"c":{},"d":{}`, 100) + `"}`, false},
		{"not an object", `[` + strings.Repeat(`{},`, 100) + `{}]`, false},
		{"empty", ``, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.data)
			cut, size := FindCut(bytes.NewReader(data), int64(len(data)))
			if cut >= 0 && size <= 0 {
				t.Fatalf("FindCut = %d with a member size of %d", cut, size)
			}
			if cut >= 0 && (cut < int64(len(data)/2) || data[cut-1] != '}') {
				t.Fatalf("FindCut = %d, not past a brace after the middle of %d bytes", cut, len(data))
			}
			got, reached, err := splitMembers(data, cut, bytes.NewReader(data))
			if reached != tc.cut {
				t.Fatalf("cut %d reached = %v, want %v", cut, reached, tc.cut)
			}
			want, wantErr := wholeMembers(data)
			if (err == nil) != (wantErr == nil) || !slices.Equal(got, want) {
				t.Fatalf("in two halves: %d members, err %v; whole: %d members, err %v", len(got), err, len(want), wantErr)
			}
		})
	}
}

// A guess inside a string or a nested object is never confirmed: the
// head walks the whole object, and nothing is counted twice.
func TestReadObjectHeadWrongCut(t *testing.T) {
	data := []byte(sessionsJSON(20))
	want, _ := wholeMembers(data)
	for cut := int64(0); cut <= int64(len(data)); cut++ {
		got, reached, err := splitMembers(data, cut, bytes.NewReader(data))
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("cut %d (reached %v): %d members, err %v; want %d", cut, reached, len(got), err, len(want))
		}
		if reached && data[cut-1] != '}' {
			t.Fatalf("cut %d confirmed inside a row", cut)
		}
	}
}

// TestReadObjectHalves: at every cut, the two halves read at once give
// ReadObject's members (the tail's only when the head confirmed the cut),
// and a damaged object is an error whichever half holds the damage.
func TestReadObjectHalves(t *testing.T) {
	data := []byte(sessionsJSON(20))
	want, _ := wholeMembers(data)
	halves := func(data []byte, cut int64) ([]string, bool, error) {
		var head, tail []string
		joined, err := ReadObjectHalves(bytes.NewReader(data), int64(len(data)), cut,
			func(key, value []byte) bool { head = append(head, string(key)+"="+string(value)); return true },
			func(key, value []byte) bool { tail = append(tail, string(key)+"="+string(value)); return true })
		if joined {
			head = append(head, tail...)
		}
		return head, joined, err
	}
	joins := 0
	for cut := int64(0); cut <= int64(len(data)); cut++ {
		got, joined, err := halves(data, cut)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("cut %d (joined %v): %d members, err %v; want %d", cut, joined, len(got), err, len(want))
		}
		if joined {
			joins++
		}
	}
	if joins == 0 {
		t.Fatal("no cut was joined")
	}
	cut, _ := FindCut(bytes.NewReader(data), int64(len(data)))
	headDamaged := bytes.Replace(data, []byte(","), []byte(";"), 1)
	for _, damaged := range [][]byte{headDamaged, append(slices.Clone(data), 'x'), data[:len(data)-5]} {
		if _, _, err := halves(damaged, cut); err == nil {
			t.Errorf("%d bytes ending %q read without an error", len(damaged), damaged[max(0, len(damaged)-12):])
		}
	}
}

// FuzzReadObjectSplit: walking an object in two halves, at the cut
// FindCut guesses or at any offset, gives exactly ReadObject's members and
// accepts exactly the inputs it accepts, whole or a byte at a time.
func FuzzReadObjectSplit(f *testing.F) {
	for _, s := range []string{`{}`, sessionsJSON(8), `{"a":{},"b":{},"c":{},"d":{},"e":{}} x`, `{"a":{},"b":{},"c":{},"d":{},"e":{},`,
		`{"a":{"b":{},"c":{},"d":{},"e":{}},"f":1}`, `{"a":"},\"b\":{},\"c\":{},\"d\":{}","e":{}}`} {
		f.Add([]byte(s), uint16(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, at uint16) {
		want, wantErr := wholeMembers(data)
		guess, _ := FindCut(bytes.NewReader(data), int64(len(data)))
		for _, cut := range []int64{guess, int64(at) % int64(len(data)+1)} {
			for _, r := range []io.Reader{bytes.NewReader(data), &oneByte{data}} {
				got, _, err := splitMembers(data, cut, r)
				if (err == nil) != (wantErr == nil) {
					t.Fatalf("%q cut %d: err %v, ReadObject's %v", data, cut, err, wantErr)
				}
				if err == nil && !slices.Equal(got, want) {
					t.Fatalf("%q cut %d: %q, ReadObject gives %q", data, cut, got, want)
				}
			}
		}
	})
}
