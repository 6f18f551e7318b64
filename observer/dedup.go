package observer

import (
	"slices"
	"strings"
	"unicode/utf8"

	"clawvault-tui/jscompat"
)

// The router's duplicate checks, indexed. ClawVault compares a new line
// with every line of its category file (and a new task title with every
// work item): 2,500 distinct decisions in one transcript took seconds,
// 20,000 never finished (its #55 hang, ported). These indexes give the same
// answers (fuzzed against the linear checks, kept in the tests) while
// looking only at lines that can match:
//
//   - Similarity (Jaccard of word bigrams, or of title words, > 0.8): a line
//     that similar shares more than 0.8 of the new line's a bigrams, so it
//     holds at least one of ANY a-⌊0.8a⌋ of them. Every line's bigrams are
//     indexed; a query looks only in the postings of its a-⌊0.8a⌋ rarest
//     bigrams.
//   - Containment (one line inside the other, both longer than 10): lines
//     are fingerprinted by window minimizers: in each window of gramW
//     consecutive gramK-byte grams, the gram of least hash. A window's
//     minimizer depends only on the window's bytes, so a string inside
//     another has each of its minimizers at the same place in the other.
//     A line inside the new one is found from the one minimizer it was
//     anchored on (the least used one, when it was added); a line holding
//     the new one, from the postings of the new line's rarest minimizer.
//
// The work for a line is then bounded by its length and the length of the
// postings it looks in, not by the file: a line made only of bigrams and
// grams thousands of other lines also have is the one case that still scans
// them.

const (
	gramK = 8 // bytes per gram
	gramW = 4 // grams per window: a window spans 11 bytes, the shortest line > 10 UTF-16 units
)

// lineIndex is a category file's lines as appendToCategory's dedup
// compares them.
type lineIndex struct {
	norms []string
	lens  []int // UTF-16 lengths of norms
	exact map[string]bool

	// Similarity, over the lines longer than 10 units.
	gramIDs   map[string]int32
	lineGrams [][]int32 // per line: its distinct bigram ids, ascending
	postings  [][]int32 // bigram id → lines holding it

	// Containment, over the lines longer than 10 units. Lines that are not
	// valid UTF-8 (UTF-16 lengths of a part and of the whole do not add up
	// there) are compared one by one, as ClawVault compares every line.
	holds     map[uint64][]int32  // gram → lines with a minimizer on it
	anchors   map[uint64][]anchor // gram → lines anchored on it
	irregular []int32

	// seen[line] == stamp: the line was looked at for the current query.
	seen  []uint32
	stamp uint32
	// compared counts the lines a query compared the new line with: the
	// work the tests bound.
	compared int
}

type anchor struct{ line, off int32 }

func newLineIndex() *lineIndex {
	return &lineIndex{exact: map[string]bool{}, gramIDs: map[string]int32{}, holds: map[uint64][]int32{}, anchors: map[uint64][]anchor{}}
}

// indexLines indexes a trimmed category file's lines ("".split(/\r?\n/) is
// [""]: an empty file has one empty line).
func indexLines(existing string, date string) *lineIndex {
	idx := newLineIndex()
	for _, line := range strings.Split(existing, "\n") {
		idx.add(normalizeLineForDedup(strings.TrimSuffix(line, "\r"), date))
	}
	return idx
}

func (x *lineIndex) add(norm string) {
	id := int32(len(x.norms))
	x.norms = append(x.norms, norm)
	x.lens = append(x.lens, jscompat.UTF16Len(norm))
	x.seen = append(x.seen, 0)
	x.exact[norm] = true
	if x.lens[id] <= 10 {
		x.lineGrams = append(x.lineGrams, nil)
		return // neither test looks at lines this short
	}
	var ids []int32
	for g := range bigrams(norm) {
		gid, ok := x.gramIDs[g]
		if !ok {
			gid = int32(len(x.postings))
			x.gramIDs[g] = gid
			x.postings = append(x.postings, nil)
		}
		ids = append(ids, gid)
		x.postings[gid] = append(x.postings[gid], id)
	}
	slices.Sort(ids)
	x.lineGrams = append(x.lineGrams, ids)

	if !utf8.ValidString(norm) {
		x.irregular = append(x.irregular, id)
		return
	}
	best, bestGram, bestLen := -1, uint64(0), 0
	minimizers(norm, func(pos int, g uint64) {
		if l := x.holds[g]; len(l) == 0 || l[len(l)-1] != id {
			x.holds[g] = append(l, id)
		}
		if n := len(x.anchors[g]); best < 0 || n < bestLen {
			best, bestGram, bestLen = pos, g, n
		}
	})
	x.anchors[bestGram] = append(x.anchors[bestGram], anchor{line: id, off: int32(best)})
}

// isDuplicate is appendToCategory's two passes: an identical line, then a
// line containing the other (or contained in it) or one whose word bigrams
// overlap by more than 0.8 (Jaccard), both longer than 10. The order of the
// tests does not change the answer.
func (x *lineIndex) isDuplicate(n string) bool {
	if x.exact[n] {
		return true
	}
	nl := jscompat.UTF16Len(n)
	if nl <= 10 {
		return false
	}
	return x.contains(n, nl) || x.similar(n)
}

// containsEither is the containment test of one pair, as ClawVault makes
// it: the shorter (in UTF-16 units) inside the longer.
func containsEither(n string, nl int, e string, el int) bool {
	if el <= 10 {
		return false
	}
	if nl < el {
		return strings.Contains(e, n)
	}
	return strings.Contains(n, e)
}

func (x *lineIndex) contains(n string, nl int) bool {
	for _, id := range x.irregular {
		x.compared++
		if containsEither(n, nl, x.norms[id], x.lens[id]) {
			return true
		}
	}
	if !utf8.ValidString(n) {
		for id, e := range x.norms {
			x.compared++
			if containsEither(n, nl, e, x.lens[id]) {
				return true
			}
		}
		return false
	}
	// A line holding n has every minimizer of n: look at the lines of the
	// rarest one.
	var holders []int32
	first := true
	minimizers(n, func(_ int, g uint64) {
		if l := x.holds[g]; first || len(l) < len(holders) {
			holders, first = l, false
		}
	})
	for _, id := range holders {
		x.compared++
		if x.lens[id] > nl && strings.Contains(x.norms[id], n) {
			return true
		}
	}
	// A line inside n has its anchor among n's minimizers, at its offset.
	found := false
	minimizers(n, func(pos int, g uint64) {
		for _, a := range x.anchors[g] {
			if found {
				return
			}
			x.compared++
			e := x.norms[a.line]
			if s := pos - int(a.off); s >= 0 && s+len(e) <= len(n) && n[s:s+len(e)] == e && x.lens[a.line] <= nl {
				found = true
			}
		}
	})
	return found
}

func (x *lineIndex) similar(n string) bool {
	grams := bigrams(n)
	a := len(grams)
	if a == 0 {
		return false
	}
	known := make([]int32, 0, a)
	for g := range grams {
		if gid, ok := x.gramIDs[g]; ok {
			known = append(known, gid)
		}
	}
	// Bigrams no line holds have empty postings: they are the rarest.
	probe := similarityProbe(a) - (a - len(known))
	if probe <= 0 {
		return false
	}
	slices.SortFunc(known, func(p, q int32) int { return len(x.postings[p]) - len(x.postings[q]) })
	probes := known[:probe]
	mine := slices.Clone(known)
	slices.Sort(mine)
	x.nextStamp()
	for _, gid := range probes {
		for _, id := range x.postings[gid] {
			if x.seen[id] == x.stamp {
				continue
			}
			x.seen[id] = x.stamp
			x.compared++
			b := len(x.lineGrams[id])
			inter := intersectSorted(mine, x.lineGrams[id])
			if float64(inter)/float64(a+b-inter) > 0.8 {
				return true
			}
		}
	}
	return false
}

func (x *lineIndex) nextStamp() {
	x.stamp++
	if x.stamp == 0 { // wrapped: forget every mark
		clear(x.seen)
		x.stamp = 1
	}
}

// similarityProbe is how many of a set's a elements a query must look up
// so that every set with Jaccard > 0.8 against it holds one of them: such a
// set shares more than 0.8a elements (the test, in float64, cannot pass at
// exactly 0.8, and ⌊0.8a⌋ is exact in float64), so it misses at most
// a-⌊0.8a⌋-1 of any a-⌊0.8a⌋.
func similarityProbe(a int) int {
	return a - 4*a/5
}

// intersectSorted counts the elements two ascending slices share.
func intersectSorted(p, q []int32) int {
	n, i, j := 0, 0, 0
	for i < len(p) && j < len(q) {
		switch {
		case p[i] < q[j]:
			i++
		case p[i] > q[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// minimizers calls f with the position and gram of each window minimizer
// of s, in ascending position, each once. A string shorter than one window
// has none. Ties go to the leftmost gram; the hash is a bijection, so only
// equal grams tie, and the choice depends on the window's bytes alone.
func minimizers(s string, f func(pos int, gram uint64)) {
	grams := len(s) - gramK + 1
	if grams < gramW {
		return
	}
	var keys [gramW]uint64 // the window's hashes, in a ring
	for i := range gramW - 1 {
		keys[i%gramW] = gramHash(gramAt(s, i))
	}
	last := -1
	for j := 0; j+gramW <= grams; j++ {
		keys[(j+gramW-1)%gramW] = gramHash(gramAt(s, j+gramW-1))
		best := j
		for i := j + 1; i < j+gramW; i++ {
			if keys[i%gramW] < keys[best%gramW] {
				best = i
			}
		}
		if best != last {
			f(best, gramAt(s, best))
			last = best
		}
	}
}

func gramAt(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// gramHash mixes a gram's bits (odd multipliers and shift-xors: each step
// invertible, so distinct grams never tie).
func gramHash(g uint64) uint64 {
	g ^= g >> 33
	g *= 0xff51afd7ed558ccd
	g ^= g >> 33
	g *= 0xc4ceb9fe1a85ec53
	return g ^ g>>33
}
