package model

import "hash/maphash"

// KeyIndex finds a string's position in a list of strings the caller
// keeps: an open-addressing table of positions, 8 bytes a slot, in place
// of a map from the string. Status looks up 50,000 file names, session ids
// and cursor ids; as Go maps those tables were a fifth of its time
// (building, growing, and the page faults of their memory), as positions
// they are a megabyte.
//
// A slot holds the position+1 in its low half (0: empty) and the key's
// hash's high half in its high half: most session ids have the same
// length, so a probe that lands on another key is told apart by the hash
// before its bytes are fetched and compared.
type KeyIndex struct {
	seed  maphash.Seed
	slots []uint64
	n     int
}

// NewKeyIndex returns an index sized for hint keys. The zero KeyIndex is
// an empty index too.
func NewKeyIndex(hint int) *KeyIndex {
	x := &KeyIndex{seed: maphash.MakeSeed()}
	x.slots = make([]uint64, slotsFor(hint))
	return x
}

// slotsFor is a power of two at least twice n (at most half full).
func slotsFor(n int) int {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	return size
}

// Find returns the position of key in keys, or -1.
func (x *KeyIndex) Find(key string, keys []string) int {
	if len(x.slots) == 0 {
		return -1
	}
	return find(x, maphash.String(x.seed, key), key, keys)
}

// FindBytes is Find of string(key), without making the string.
func (x *KeyIndex) FindBytes(key []byte, keys []string) int {
	if len(x.slots) == 0 {
		return -1
	}
	return find(x, maphash.Bytes(x.seed, key), key, keys)
}

// find probes from hash h; key is only compared, so FindBytes makes no
// string.
func find[K string | []byte](x *KeyIndex, h uint64, key K, keys []string) int {
	mask := uint64(len(x.slots) - 1)
	tag := h >> 32
	for i := h & mask; ; i = (i + 1) & mask {
		s := x.slots[i]
		if s == 0 {
			return -1
		}
		if s>>32 == tag {
			if p := int(uint32(s)) - 1; keys[p] == string(key) {
				return p
			}
		}
	}
}

// Add records that keys[pos] is at pos. keys holds every key added so far.
// A key added twice is found at its first position.
func (x *KeyIndex) Add(pos int, keys []string) {
	if x.slots == nil {
		*x = *NewKeyIndex(0)
	}
	if 2*(x.n+1) > len(x.slots) {
		x.grow(keys)
	}
	x.put(keys[pos], pos)
	x.n++
}

func (x *KeyIndex) put(key string, pos int) {
	mask := uint64(len(x.slots) - 1)
	h := maphash.String(x.seed, key)
	i := h & mask
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = h>>32<<32 | uint64(pos+1)
}

func (x *KeyIndex) grow(keys []string) {
	old := x.slots
	x.slots = make([]uint64, 2*len(old))
	for _, s := range old {
		if s != 0 {
			p := int(uint32(s)) - 1
			x.put(keys[p], p)
		}
	}
}

// Rebuild indexes keys anew (after they were reordered): keys must be
// distinct. The index keeps its size if that is larger.
func (x *KeyIndex) Rebuild(keys []string) {
	if x.slots == nil {
		x.seed = maphash.MakeSeed()
	}
	x.slots = make([]uint64, max(len(x.slots), slotsFor(len(keys))))
	x.n = len(keys)
	for i, k := range keys {
		x.put(k, i)
	}
}
