package jsonscan

import (
	"errors"
	"io"
)

// ErrStream is what ReadObject returns when the input is not exactly one
// JSON object (whitespace around it aside). It does not say what is
// wrong: a caller that must tell which reads the input whole and asks
// Valid, as it did before there was a stream.
var ErrStream = errors.New("not a valid JSON object")

// streamChunk is how much ReadObject reads at a time.
const streamChunk = 256 << 10

// maxStreamMember bounds one member of a streamed object (and what comes
// before the first): past it the input is not a store this program
// reads, and it is refused after reading that much, not read to its end
// (a planted file of NUL bytes or one endless value would otherwise be
// read whole into memory, the buffer doubling all the way).
var maxStreamMember = 64 << 20

// ReadObject walks the top-level object of r as Object walks one in
// memory, calling fn with each member's raw key (quotes included) and raw
// value, in order; fn returns false to stop. It holds one read buffer,
// not the input: the buffer grows only to fit the largest member, so
// walking a sessions.json of 50,000 rows costs a few hundred KiB, not its
// size. The bytes passed to fn are valid only during the call. A member
// cut by the end of the buffer is scanned again once more input is in.
func ReadObject(r io.Reader, fn func(key, value []byte) bool) error {
	_, err := ReadObjectHead(r, -1, fn)
	return err
}

// member is one step through an object: a member (with a leading comma
// after the first) or the closing brace, as offsets from where it starts.
type member struct {
	key, keyEnd, value, end int
	close                   bool
}

func scanMember(b []byte, first bool) (member, bool) {
	j := SkipWS(b, 0)
	if j >= len(b) {
		return member{}, false
	}
	if b[j] == '}' {
		return member{end: j + 1, close: true}, true
	}
	if !first {
		if b[j] != ',' {
			return member{end: invalid}, false
		}
		j = SkipWS(b, j+1)
	}
	if j < len(b) && b[j] != '"' {
		return member{end: invalid}, false
	}
	kEnd, afterColon, ok := keyColon(b, j)
	if !ok {
		return member{}, false
	}
	at := SkipWS(b, afterColon)
	end, ok := Value(b, at)
	// A number that ends the buffer may go on in the next read: a member
	// is complete only with the byte after it in (a comma, a brace or a
	// space, which the next step checks).
	if !ok || end >= len(b) {
		return member{}, false
	}
	return member{key: j, keyEnd: kEnd, value: at, end: end}, true
}

type objectStream struct {
	r   io.Reader
	buf []byte
	// base is the offset in r of buf[0].
	base int64
	eof  bool
	err  error
}

// invalid is what a scan returns, failing, for input that no more bytes
// can make valid.
const invalid = -1

// next runs scan on buf[i:] until it succeeds, reading more input after
// each failure until there is none (then the failure stands: ErrStream,
// or the read error), or the failure is final (scan says invalid). It
// returns the index in buf just past what scan consumed; bytes before i
// may have been dropped to make room.
func (s *objectStream) next(i int, scan func(b []byte) (int, bool)) (int, error) {
	for {
		n, ok := scan(s.buf[i:])
		if ok {
			return i + n, nil
		}
		if n == invalid {
			return 0, ErrStream
		}
		if s.eof {
			// (A member that ends the input is no exception: a closing
			// brace must follow it.)
			if s.err != nil {
				return 0, s.err
			}
			return 0, ErrStream
		}
		if len(s.buf)-i >= maxStreamMember {
			return 0, ErrStream
		}
		if i > 0 {
			s.buf = s.buf[:copy(s.buf, s.buf[i:])]
			s.base += int64(i)
			i = 0
		}
		s.fill()
	}
}

// fill reads more input, growing the buffer when less than half a chunk
// is free (a member larger than the buffer).
func (s *objectStream) fill() {
	if cap(s.buf)-len(s.buf) < streamChunk/2 {
		grown := make([]byte, len(s.buf), min(2*cap(s.buf), maxStreamMember+streamChunk))
		copy(grown, s.buf)
		s.buf = grown
	}
	n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
	s.buf = s.buf[:len(s.buf)+n]
	switch {
	case err == io.EOF:
		s.eof = true
	case err != nil:
		s.eof, s.err = true, err
	}
}

// rest checks that only whitespace follows the object.
func (s *objectStream) rest(i int) error {
	for {
		if SkipWS(s.buf, i) != len(s.buf) {
			return ErrStream
		}
		if s.eof {
			return s.err
		}
		s.base += int64(len(s.buf))
		s.buf, i = s.buf[:0], 0
		s.fill()
	}
}
