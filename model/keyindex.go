package model

import "hash/maphash"

// KeyIndex finds a string's position in a list of strings the caller
// keeps: an open-addressing table of positions, 4 bytes a slot, in place of
// a map from the string. Status looks up 50,000 file names, session ids and
// cursor ids; as Go maps those tables were a fifth of its time (building,
// growing, and the page faults of their memory), as positions they are a
// few hundred kilobytes.
type KeyIndex struct {
	seed  maphash.Seed
	slots []int32 // position+1; 0 is empty
	n     int
}

// NewKeyIndex returns an index sized for hint keys. The zero KeyIndex is
// an empty index too.
func NewKeyIndex(hint int) *KeyIndex {
	x := &KeyIndex{seed: maphash.MakeSeed()}
	x.slots = make([]int32, slotsFor(hint))
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

// Len is the number of keys added.
func (x *KeyIndex) Len() int { return x.n }

// Find returns the position of key in keys, or -1.
func (x *KeyIndex) Find(key string, keys []string) int {
	if len(x.slots) == 0 {
		return -1
	}
	mask := uint64(len(x.slots) - 1)
	for h := maphash.String(x.seed, key) & mask; ; h = (h + 1) & mask {
		p := x.slots[h]
		if p == 0 {
			return -1
		}
		if keys[p-1] == key {
			return int(p - 1)
		}
	}
}

// FindBytes is Find of string(key), without making the string.
func (x *KeyIndex) FindBytes(key []byte, keys []string) int {
	if len(x.slots) == 0 {
		return -1
	}
	mask := uint64(len(x.slots) - 1)
	for h := maphash.Bytes(x.seed, key) & mask; ; h = (h + 1) & mask {
		p := x.slots[h]
		if p == 0 {
			return -1
		}
		if keys[p-1] == string(key) {
			return int(p - 1)
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
	h := maphash.String(x.seed, key) & mask
	for x.slots[h] != 0 {
		h = (h + 1) & mask
	}
	x.slots[h] = int32(pos + 1)
}

func (x *KeyIndex) grow(keys []string) {
	old := x.slots
	x.slots = make([]int32, 2*len(old))
	for _, p := range old {
		if p != 0 {
			x.put(keys[p-1], int(p-1))
		}
	}
}

// Rebuild indexes keys anew (after they were reordered): keys must be
// distinct. The index keeps its size if that is larger.
func (x *KeyIndex) Rebuild(keys []string) {
	if x.slots == nil {
		x.seed = maphash.MakeSeed()
	}
	x.slots = make([]int32, max(len(x.slots), slotsFor(len(keys))))
	x.n = len(keys)
	for i, k := range keys {
		x.put(k, i)
	}
}
