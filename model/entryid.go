package model

import "strconv"

// EntryID is an entry's id in a form that costs the garbage collector
// nothing: pi's ids (eight lowercase hex digits, from a random UUID) are
// stored as their value; the ids MigrateV1 derives from line numbers as the
// line; any other id (a full UUID after collisions, a hand-written id) as a
// number in the index's Names table. Equal ids of one index are equal
// EntryIDs, so comparing and hashing them needs no strings. An index of a
// million entries would otherwise hold two million tiny strings for the
// collector to scan on every cycle.
type EntryID uint64

const (
	// NoID is an absent or empty id.
	NoID EntryID = 0

	kindShift         = 60
	kindHex   EntryID = 1 << kindShift
	kindV1    EntryID = 2 << kindShift
	kindName  EntryID = 3 << kindShift
	kindMask  EntryID = 15 << kindShift
)

// Names interns the ids that are not pi's eight hex digits.
type Names struct {
	list  []string
	index map[string]uint32
}

// NewNames returns an empty table.
func NewNames() *Names {
	return &Names{index: map[string]uint32{}}
}

// Intern returns the EntryID of s, adding it to the table when needed.
func (n *Names) Intern(s string) EntryID {
	if id, ok := hexID(s); ok || s == "" {
		return id
	}
	if id, ok := parseV1ID(s); ok {
		return id
	}
	if i, ok := n.index[s]; ok {
		return kindName | EntryID(i)
	}
	i := uint32(len(n.list))
	n.list = append(n.list, s)
	n.index[s] = i
	return kindName | EntryID(i)
}

// Find returns the EntryID of s without adding it; ok is false when no
// entry of the table's index can have that id.
func (n *Names) Find(s string) (EntryID, bool) {
	if s == "" {
		return NoID, false
	}
	if id, ok := hexID(s); ok {
		return id, true
	}
	if v1, ok := parseV1ID(s); ok {
		return v1, true
	}
	if n == nil {
		return NoID, false
	}
	i, ok := n.index[s]
	return kindName | EntryID(i), ok
}

// InternBytes is Intern for bytes, allocating only for a new name.
func (n *Names) InternBytes(b []byte) EntryID {
	if id, ok := hexID(b); ok || len(b) == 0 {
		return id
	}
	if i, ok := n.index[string(b)]; ok {
		return kindName | EntryID(i)
	}
	return n.Intern(string(b))
}

// Clone returns a copy that can grow without changing n.
func (n *Names) Clone() *Names {
	c := &Names{list: append([]string(nil), n.list...), index: make(map[string]uint32, len(n.index))}
	for k, v := range n.index {
		c.index[k] = v
	}
	return c
}

// Len is the number of interned names.
func (n *Names) Len() int { return len(n.list) }

// Name returns the i-th interned name.
func (n *Names) Name(i int) string { return n.list[i] }

// String writes an id as it was in the file.
func (n *Names) String(id EntryID) string {
	if id&kindMask == kindName {
		if n != nil && int(uint32(id)) < len(n.list) {
			return n.list[uint32(id)]
		}
		return ""
	}
	var b [16]byte
	return string(n.AppendString(b[:0], id))
}

// AppendString appends an id as it was in the file to dst: writing a
// million ids costs no string each.
func (n *Names) AppendString(dst []byte, id EntryID) []byte {
	switch id & kindMask {
	case kindHex:
		v := uint32(id)
		for shift := 28; shift >= 0; shift -= 4 {
			dst = append(dst, "0123456789abcdef"[(v>>shift)&15])
		}
	case kindV1:
		dst = strconv.AppendUint(append(dst, "v1-"...), uint64(uint32(id)), 10)
	case kindName:
		if n != nil && int(uint32(id)) < len(n.list) {
			dst = append(dst, n.list[uint32(id)]...)
		}
	}
	return dst
}

// Remap returns the id with its name number translated by m (for merging
// tables built apart); other ids are returned as they are.
func Remap(id EntryID, m []uint32) EntryID {
	if id&kindMask != kindName {
		return id
	}
	return kindName | EntryID(m[uint32(id)])
}

// hexValue maps '0'-'9' and 'a'-'f' to their value and every other byte
// to 0xff. Upper-case digits are not pi's and must round-trip as written.
var hexValue = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c - 'a' + 10)
	}
	return t
}()

func hexID[T string | []byte](s T) (EntryID, bool) {
	if len(s) != 8 {
		return NoID, false
	}
	d0, d1, d2, d3 := hexValue[s[0]], hexValue[s[1]], hexValue[s[2]], hexValue[s[3]]
	d4, d5, d6, d7 := hexValue[s[4]], hexValue[s[5]], hexValue[s[6]], hexValue[s[7]]
	if (d0|d1|d2|d3|d4|d5|d6|d7)&0xf0 != 0 {
		return NoID, false
	}
	v := uint32(d0)<<28 | uint32(d1)<<24 | uint32(d2)<<20 | uint32(d3)<<16 | uint32(d4)<<12 | uint32(d5)<<8 | uint32(d6)<<4 | uint32(d7)
	return kindHex | EntryID(v), true
}

// v1ID is the id MigrateV1 gives the entry on a line of a v1 file.
func v1ID(line int32) EntryID { return kindV1 | EntryID(uint32(line)) }

func parseV1ID(s string) (EntryID, bool) {
	rest, ok := cutPrefix(s, "v1-")
	if !ok {
		return NoID, false
	}
	n, err := strconv.ParseUint(rest, 10, 32)
	if err != nil || strconv.FormatUint(n, 10) != rest {
		return NoID, false
	}
	return v1ID(int32(n)), true
}

func cutPrefix(s, p string) (string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):], true
	}
	return s, false
}
