package jsonscan

import (
	"errors"
	"testing"
)

// endless is a reader of prefix, then byte fill forever; read counts what
// was read.
type endless struct {
	prefix []byte
	fill   byte
	read   int
}

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, e.prefix)
	e.prefix = e.prefix[n:]
	for i := n; i < len(p); i++ {
		p[i] = e.fill
	}
	e.read += len(p)
	return len(p), nil
}

// Input no more bytes can make an object is refused at once; a member
// that never ends is refused after maxStreamMember bytes: never read to
// its end, however long it is.
func TestReadObjectBoundsWhatItReads(t *testing.T) {
	defer func(m int) { maxStreamMember = m }(maxStreamMember)
	maxStreamMember = 1 << 20 // not parallel: the bound is the package's
	for _, tc := range []struct {
		name   string
		in     *endless
		atMost int
	}{
		{"NUL bytes", &endless{fill: 0}, streamChunk},
		{"a second member without a comma", &endless{prefix: []byte(`{"a":1 "b"`), fill: ' '}, maxStreamMember + 2*streamChunk},
		{"a value without end", &endless{prefix: []byte(`{"a":"`), fill: 'x'}, maxStreamMember + 2*streamChunk},
		{"a key without end", &endless{prefix: []byte(`{"`), fill: 'k'}, maxStreamMember + 2*streamChunk},
	} {
		err := ReadObject(tc.in, func(_, _ []byte) bool { return true })
		if !errors.Is(err, ErrStream) || tc.in.read > tc.atMost {
			t.Errorf("%s: %v after reading %d bytes; want ErrStream within %d", tc.name, err, tc.in.read, tc.atMost)
		}
	}
}
