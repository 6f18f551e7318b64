package jsonscan

import (
	"bytes"
	"io"
	"sync/atomic"
)

// A large top-level object (a sessions.json of 50,000 rows is 42 MB) is
// walked in two halves at once, one on each core: FindCut guesses where a
// member ends near the middle, ReadObjectHead walks from the start and
// says whether a member really ends there, and ReadObjectTail walks from
// there to the end. Only the head knows where members end (a guess may lie
// inside a string or a nested object), so the tail's members count only
// when the head confirms the cut; otherwise the head has walked the whole
// object by itself, as ReadObject would.

// cutWindow is how much FindCut reads around the middle.
const cutWindow = 64 << 10

// cutCheck is how many members must follow a guessed cut, each an object,
// before FindCut offers it: a guess inside a nested object meets that
// object's closing brace first.
const cutCheck = 3

// FindCut returns an offset near the middle of r (size bytes, one JSON
// object) just past the value of a top-level member, by the look of it:
// an object's closing brace, then a comma and cutCheck members whose
// values are objects; and the average size of the members it saw there,
// to size what the halves hold. It returns -1 when it finds none. The cut
// is a guess until ReadObjectHead confirms it.
func FindCut(r io.ReaderAt, size int64) (cut int64, memberSize int) {
	from := size / 2
	n := min(int64(cutWindow), size-from)
	if n <= 0 {
		return -1, 0
	}
	b := make([]byte, n)
	if m, err := r.ReadAt(b, from); m < len(b) && err != nil {
		b = b[:m]
	}
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '}')
		if j < 0 {
			return -1, 0
		}
		at := i + j + 1
		if membersFollow(b[at:]) {
			return from + int64(at), averageMember(b[at:])
		}
		i = at
	}
	return -1, 0
}

// averageMember is the average size of the whole members b starts with.
func averageMember(b []byte) int {
	i, count := 0, 0
	for {
		m, ok := scanMember(b[i:], false)
		if !ok || m.close {
			break
		}
		i += m.end
		count++
	}
	return i / max(count, 1)
}

// membersFollow: b starts with cutCheck members of an object (each with
// its leading comma) whose values are objects.
func membersFollow(b []byte) bool {
	i := 0
	for range cutCheck {
		m, ok := scanMember(b[i:], false)
		if !ok || m.close || b[i+m.value] != '{' {
			return false
		}
		i += m.end
	}
	return true
}

// ReadObjectHead walks the top-level object of r as ReadObject does until
// a member ends exactly at offset cut (cut is true then, and the rest is
// not read), or, when none does, to the end, with ReadObject's result
// (cut is false).
func ReadObjectHead(r io.Reader, cut int64, fn func(key, value []byte) bool) (bool, error) {
	s := objectStream{r: r, buf: make([]byte, 0, streamChunk)}
	i, err := s.next(0, func(b []byte) (int, bool) {
		j := SkipWS(b, 0)
		if j < len(b) && b[j] != '{' {
			return invalid, false
		}
		return j + 1, j < len(b)
	})
	if err != nil {
		return false, err
	}
	return s.members(i, true, cut, fn)
}

// ReadObjectTail walks the members of the object r continues, from a cut
// ReadObjectHead confirmed (a comma first, whitespace aside) to the
// closing brace and the end, calling fn as ReadObject does.
func ReadObjectTail(r io.Reader, fn func(key, value []byte) bool) error {
	s := objectStream{r: r, buf: make([]byte, 0, streamChunk)}
	_, err := s.members(0, false, -1, fn)
	return err
}

// members walks members from buf[i] (the first of the object when first)
// to the closing brace and checks that only whitespace follows; with cut
// ≥ 0 it stops early, true, once a member ends at offset cut.
func (s *objectStream) members(i int, first bool, cut int64, fn func(key, value []byte) bool) (bool, error) {
	for {
		var m member
		var err error
		i, err = s.next(i, func(b []byte) (int, bool) {
			var ok bool
			m, ok = scanMember(b, first)
			return m.end, ok
		})
		if err != nil {
			return false, err
		}
		if m.close {
			return false, s.rest(i)
		}
		// The member ends at i; its spans are relative to where it began.
		b := s.buf[i-m.end : i]
		if !fn(b[m.key:m.keyEnd], b[m.value:]) {
			return false, nil
		}
		if s.base+int64(i) == cut {
			return true, nil
		}
		first = false
	}
}

// ReadObjectHalves walks the object r holds (size bytes) in two halves at
// once: the members before cut go to head (ReadObjectHead, on the calling
// goroutine), those after it to tail (ReadObjectTail, on another). joined
// says the head confirmed the cut, so tail's members count and follow
// head's; when it is false the head has walked the whole object, and
// whatever tail was given must be dropped. err is the head's, or, when
// joined, the tail's.
func ReadObjectHalves(r io.ReaderAt, size, cut int64, head, tail func(key, value []byte) bool) (joined bool, err error) {
	var dropped atomic.Bool
	var tailErr error
	tailDone := make(chan struct{})
	go func() {
		defer close(tailDone)
		tailErr = ReadObjectTail(io.NewSectionReader(r, cut, size-cut), func(key, value []byte) bool {
			return !dropped.Load() && tail(key, value)
		})
	}()
	joined, err = ReadObjectHead(io.NewSectionReader(r, 0, size), cut, head)
	if !joined {
		dropped.Store(true)
	}
	<-tailDone
	if err == nil && joined {
		err = tailErr
	}
	return joined, err
}
