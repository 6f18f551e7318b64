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
	keys := make([]uint64, len(nodes))
	for k, i := range nodes {
		keys[k] = uint64(hashID(entries[i].ID))<<32 | uint64(uint32(i))
	}
	radixSortHigh32(keys)
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

// radixSortHigh32 sorts keys by their upper 32 bits, stably, so that keys
// with the same hash stay in position order: two passes of 16 bits, whose
// counters still fit in a core's cache.
func radixSortHigh32(keys []uint64) {
	if len(keys) < 1024 {
		slices.SortStableFunc(keys, func(a, b uint64) int {
			switch {
			case a>>32 < b>>32:
				return -1
			case a>>32 > b>>32:
				return 1
			}
			return 0
		})
		return
	}
	tmp := make([]uint64, len(keys))
	count := make([]int, 1<<16+1)
	src, dst := keys, tmp
	for shift := uint(32); shift < 64; shift += 16 {
		clear(count)
		for _, k := range src {
			count[(k>>shift)&0xffff+1]++
		}
		for b := 1; b < len(count); b++ {
			count[b] += count[b-1]
		}
		for _, k := range src {
			b := (k >> shift) & 0xffff
			dst[count[b]] = k
			count[b]++
		}
		src, dst = dst, src
	}
	// Two passes: the result is back in keys.
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
