package model

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeys checks the bucket sort against slices.Sort: random ids,
// ids whose hashes crowd one bucket (past the insertion sort's bound), and
// repeated ids, whose keys must stay in position order; sizes on both
// sides of the key count where the buckets grow past 65,536.
func TestSortKeys(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	// oneBucket gives ids whose hashes share their top 16 bits: hashID
	// folds the kind in and multiplies by an odd constant, which its
	// inverse undoes.
	const inverse = 0x0E8B2F51 // 0x9E3779B1 * inverse ≡ 1 (mod 2^32)
	oneBucket := func() EntryID {
		return kindHex | EntryID((0xABCD0000|rng.Uint32()&0xFFFF)*inverse^uint32(kindHex>>32))
	}
	cases := map[string]func() EntryID{
		"random":     func() EntryID { return kindHex | EntryID(rng.Uint32()) },
		"one bucket": oneBucket,
		"few ids":    func() EntryID { return kindHex | EntryID(rng.IntN(7)) },
	}
	for name, id := range cases {
		for _, n := range []int{0, 1, 1023, 1024, 5000, 70000, 1_400_000} { // the last past 16 a bucket of 65,536
			entries := make([]Entry, n)
			var nodes []int32
			for i := range entries {
				entries[i].ID = id()
				if i%5 != 0 { // not every position is a node
					nodes = append(nodes, int32(i))
				}
			}
			want := make([]uint64, len(nodes))
			for k, i := range nodes {
				want[k] = uint64(hashID(entries[i].ID))<<32 | uint64(i)
			}
			slices.Sort(want)
			got := make([]uint64, len(nodes))
			if sortKeys(got, entries, nodes); !slices.Equal(got, want) {
				t.Errorf("%s, %d entries: keys not sorted by hash then position", name, n)
			}
		}
	}
	if h := hashID(oneBucket()) >> 16; h != 0xABCD {
		t.Fatalf("oneBucket hashes to bucket %#x", h)
	}
}
