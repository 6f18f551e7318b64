package model

import "slices"

// idIndex maps entry ids to positions, the last entry with an id winning,
// as in pi's byId Map. It is a sorted array of (hash, position) keys
// instead of a hash map: for a million entries a map's random accesses
// dominated building the tree, while a radix sort streams through memory.
// pi's ids are eight random hex digits, whose value is already a good hash.
type idIndex struct {
	keys []uint64 // hash<<32 | position, sorted
}

// hashID spreads an id over 32 bits. Hex ids are random already; the
// multiplication (a bijection) spreads v1 line numbers and name numbers.
func hashID(id EntryID) uint32 {
	return (uint32(id) ^ uint32(id>>32)) * 0x9E3779B1
}

// newIDIndex indexes the given positions and counts ids that repeat;
// superseded holds the positions a later entry with the same id overrides.
func newIDIndex(entries []Entry, nodes []int32) (x idIndex, dups int, superseded map[int32]bool) {
	return newIDIndexIn(make([]uint64, len(nodes)), entries, nodes)
}

// newIDIndexIn is newIDIndex with the keys' array given (one per node).
func newIDIndexIn(keys []uint64, entries []Entry, nodes []int32) (x idIndex, dups int, superseded map[int32]bool) {
	sortKeys(keys, entries, nodes)
	for k := 1; k < len(keys); k++ {
		if keys[k]>>32 != keys[k-1]>>32 {
			continue
		}
		// Same hash: a repeat only if an earlier key of the run has the same
		// id (keys of one hash are in position order, so that one is older).
		id := entries[uint32(keys[k])].ID
		for j := k - 1; j >= 0 && keys[j]>>32 == keys[k]>>32; j-- {
			if older := int32(uint32(keys[j])); entries[older].ID == id && !superseded[older] {
				if superseded == nil {
					superseded = map[int32]bool{}
				}
				superseded[older] = true
				dups++
				break
			}
		}
	}
	return idIndex{keys: keys}, dups, superseded
}

// sortKeys fills keys with hash<<32 | position of the given positions,
// sorted by hash, keys of one hash in position order (positions differ,
// so that is sorting whole keys). The keys are dealt straight from the
// entries into buckets by the top bits of their hash, in position order,
// and an insertion sort finishes each bucket (a dozen keys on average):
// one pass that writes, and no second array of keys, whose fresh memory
// costs more than the sort on a virtual machine. The buckets grow with the
// keys (65,536 up to a million): with a fixed 65,536, a 1 GB transcript's
// 2.4 million keys filled 37 a bucket, past the insertion sort's limit,
// and nearly every bucket went to the general sort.
func sortKeys(keys []uint64, entries []Entry, nodes []int32) {
	if len(nodes) < 1024 {
		for k, i := range nodes {
			keys[k] = uint64(hashID(entries[i].ID))<<32 | uint64(uint32(i))
		}
		slices.Sort(keys)
		return
	}
	shift := 16 // 32 minus the bits that pick a bucket
	for shift > 12 && len(nodes)>>(32-shift) > 16 {
		shift--
	}
	buckets := 1 << (32 - shift)
	next := make([]int32, buckets+1)
	for _, i := range nodes {
		next[hashID(entries[i].ID)>>shift+1]++
	}
	for b := 1; b <= buckets; b++ {
		next[b] += next[b-1]
	}
	for _, i := range nodes {
		h := hashID(entries[i].ID)
		b := h >> shift
		keys[next[b]] = uint64(h)<<32 | uint64(uint32(i))
		next[b]++
	}
	// next[b] is now where bucket b ends.
	from := int32(0)
	for _, to := range next[:buckets] {
		bucket := keys[from:to]
		from = to
		if len(bucket) > 32 {
			slices.Sort(bucket) // crafted ids that share a bucket
			continue
		}
		for i := 1; i < len(bucket); i++ {
			for j := i; j > 0 && bucket[j] < bucket[j-1]; j-- {
				bucket[j], bucket[j-1] = bucket[j-1], bucket[j]
			}
		}
	}
}

// get returns the last position whose entry has the id.
func (x idIndex) get(entries []Entry, id EntryID) (int32, bool) {
	found := int32(-1)
	x.each(entries, id, func(i int32) bool {
		found = i // keys with one hash are in position order: the last match wins
		return true
	})
	return found, found >= 0
}

// each calls fn with every position whose entry has the id, oldest first,
// until fn returns false.
func (x idIndex) each(entries []Entry, id EntryID, fn func(pos int32) bool) {
	h := uint64(hashID(id))
	k, _ := slices.BinarySearchFunc(x.keys, h, func(key, h uint64) int {
		switch {
		case key>>32 < h:
			return -1
		case key>>32 > h:
			return 1
		}
		return 0
	})
	for ; k < len(x.keys) && x.keys[k]>>32 == h; k++ {
		if i := int32(uint32(x.keys[k])); entries[i].ID == id && !fn(i) {
			return
		}
	}
}

// lastBefore returns the last position before `before` whose entry has the
// id: what a Map of the entries seen so far would answer.
func (x idIndex) lastBefore(entries []Entry, id EntryID, before int32) (int32, bool) {
	found := int32(-1)
	x.each(entries, id, func(i int32) bool {
		if i >= before {
			return false
		}
		found = i
		return true
	})
	return found, found >= 0
}
