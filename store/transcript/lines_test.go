package transcript

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// countingReader counts the bytes read, and refuses a read larger than
// max: a line must never be loaded whole when it is over the cap.
type countingReader struct {
	data  []byte
	read  int64
	max   int
	calls int
}

func (r *countingReader) ReadAt(p []byte, off int64) (int, error) {
	r.calls++
	if len(p) > r.max {
		return 0, fmt.Errorf("a read of %d bytes (the cap is about %d)", len(p), r.max)
	}
	if off >= int64(len(r.data)) {
		return 0, nil
	}
	n := copy(p, r.data[off:])
	r.read += int64(n)
	return n, nil
}

// Lines longer than the cap are handed out as TooLong, with their offset
// and length and no bytes, and the lines after them as usual. Before the
// cap, a line of any length was loaded whole (200 MB single-line
// transcripts took gigabytes).
func TestForEachLineCapsLongLines(t *testing.T) {
	t.Parallel()
	const cap = 1 << 10
	long := strings.Repeat("x", 5*cap+3)
	exact := strings.Repeat("y", cap)
	for _, c := range []struct {
		name string
		data string
		want []string // "text" or "long:<len>" per line, "|tail" when not terminated
	}{
		{"a long line between short ones", "a\n" + long + "\nb\n", []string{"a", "long:5123", "b"}},
		{"a line exactly at the cap", exact + "\n" + "b", []string{exact, "b|tail"}},
		{"a long torn last line", "a\n" + long, []string{"a", "long:5123|tail"}},
		{"long lines back to back", long + "\n" + long + "\n", []string{"long:5123", "long:5123"}},
		{"a long first line of the range", long + "\nz\n", []string{"long:5123", "z"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &countingReader{data: []byte(c.data), max: 2*cap + 2}
			var got []string
			var offsets []int64
			err := ForEachLine(r, 0, int64(len(c.data)), cap, func(l Line) bool {
				s := string(l.Bytes)
				if l.TooLong {
					if l.Bytes != nil {
						t.Errorf("a long line came with its bytes")
					}
					s = fmt.Sprintf("long:%d", l.Len)
				} else if l.Len != int64(len(l.Bytes)) {
					t.Errorf("Len %d for %d bytes", l.Len, len(l.Bytes))
				}
				if !l.Terminated {
					s += "|tail"
				}
				got = append(got, s)
				offsets = append(offsets, l.Offset)
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("lines = %q, want %q", got, c.want)
			}
			// Offsets are where each line starts.
			off := int64(0)
			for i, o := range offsets {
				if o != off {
					t.Errorf("line %d at %d, want %d", i, o, off)
				}
				if j := bytes.IndexByte([]byte(c.data[off:]), '\n'); j >= 0 {
					off += int64(j) + 1
				}
			}
			if r.read > 2*int64(len(c.data)) {
				t.Errorf("read %d bytes of %d", r.read, len(c.data))
			}
		})
	}
}

// FuzzForEachLine: any content, range and cap give the lines a plain split
// gives, long ones as TooLong with their length.
func FuzzForEachLine(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), uint16(0), uint16(2))
	f.Add([]byte(strings.Repeat("x", 300)+"\ny\n"), uint16(3), uint16(17))
	f.Fuzz(func(t *testing.T, data []byte, startRaw, capRaw uint16) {
		start := int64(startRaw) % int64(len(data)+1)
		maxLine := int64(capRaw % 64)
		var want []Line
		rest, off := data[start:], start
		for len(rest) > 0 {
			i := bytes.IndexByte(rest, '\n')
			l := Line{Offset: off, Terminated: i >= 0}
			if i < 0 {
				i = len(rest)
			}
			l.Len = int64(i)
			if maxLine > 0 && l.Len > maxLine {
				l.TooLong = true
			} else {
				l.Bytes = rest[:i]
			}
			want = append(want, l)
			if !l.Terminated {
				break
			}
			rest, off = rest[i+1:], off+int64(i)+1
		}
		var got []Line
		r := &countingReader{data: data, max: 1 << 30}
		if err := ForEachLine(r, start, int64(len(data)), maxLine, func(l Line) bool {
			l.Bytes = bytes.Clone(l.Bytes)
			got = append(got, l)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%d lines, want %d", len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.Offset != w.Offset || g.Len != w.Len || g.Terminated != w.Terminated || g.TooLong != w.TooLong || !bytes.Equal(g.Bytes, w.Bytes) {
				t.Fatalf("line %d = %+v, want %+v", i, g, w)
			}
		}
		if r.read > 2*(int64(len(data))-start) {
			t.Fatalf("read %d bytes of a %d-byte range: a byte is read at most twice", r.read, int64(len(data))-start)
		}
	})
}
