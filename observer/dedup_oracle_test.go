package observer

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"clawvault-tui/jscompat"
)

// quadraticLineIndex is the category dedup as it was ported from
// ClawVault: each new line is compared with every line of the file for
// containment, and with every line sharing a bigram for similarity. Kept as
// the oracle lineIndex is fuzzed against (FuzzLineIndex): the same answer
// for every line, in any order of additions.
type quadraticLineIndex struct {
	norms    []string
	lens     []int // UTF-16 lengths of norms
	exact    map[string]bool
	nGrams   []int            // distinct bigrams per line
	postings map[string][]int // bigram → lines holding it
	compared int
}

func (x *quadraticLineIndex) add(norm string) {
	if x.exact == nil {
		x.exact = map[string]bool{}
	}
	id := len(x.norms)
	x.norms = append(x.norms, norm)
	x.lens = append(x.lens, jscompat.UTF16Len(norm))
	x.exact[norm] = true
	grams := bigrams(norm)
	x.nGrams = append(x.nGrams, len(grams))
	if x.postings == nil {
		x.postings = map[string][]int{}
	}
	for g := range grams {
		x.postings[g] = append(x.postings[g], id)
	}
}

func (x *quadraticLineIndex) isDuplicate(n string) bool {
	if x.exact[n] {
		return true
	}
	nl := jscompat.UTF16Len(n)
	if nl <= 10 {
		return false
	}
	for i, e := range x.norms {
		x.compared++
		el := x.lens[i]
		if el <= 10 {
			continue
		}
		shorter, longer := e, n
		if nl < el {
			shorter, longer = n, e
		}
		if strings.Contains(longer, shorter) {
			return true
		}
	}
	grams := bigrams(n)
	if len(grams) == 0 {
		return false
	}
	shared := map[int]int{}
	for g := range grams {
		for _, id := range x.postings[g] {
			shared[id]++
		}
	}
	for id, inter := range shared {
		x.compared++
		if x.lens[id] <= 10 {
			continue
		}
		if float64(inter)/float64(len(grams)+x.nGrams[id]-inter) > 0.8 {
			return true
		}
	}
	return false
}

func jaccardSets(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for g := range a {
		if b[g] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// FuzzLineIndex: the indexed category dedup answers as the quadratic one
// for every line of a file, the file growing line by line (bar-separated;
// lines of any bytes, normalized or not).
func FuzzLineIndex(f *testing.F) {
	f.Add("we decided to use postgres for billing|we decided to use postgres for the billing stack|use postgres for billing|x", false)
	f.Add("lesson learned: check the webhook before every release|check the webhook before every|the webhook before every release.|check the webhook", true)
	f.Add("décidé d'utiliser postgres|utiliser postgres ici et là|\xff\xfe broken bytes here ok|broken bytes here", false)
	f.Add("aaaaaaaaaaaa|aaaaaaaaaaaaa|aaaaaaaaaaa|b aaaaaaaaaaaa b", true)
	f.Add("a b c d e f g h i j k|a b c d e f g h i j x|b c d e f g h i j k|k j i h g f e d c b a", false)
	f.Add("😀😀😀😀😀😀 emoji line|😀😀😀😀😀 emoji|emoji line with 😀😀😀😀😀😀 emoji line twice", true)
	f.Fuzz(func(t *testing.T, file string, normalize bool) {
		idx, oracle := newLineIndex(), &quadraticLineIndex{}
		for i, line := range splitBar(file) {
			if normalize {
				line = normalizeForDedup(line)
			}
			if got, want := idx.isDuplicate(line), oracle.isDuplicate(line); got != want {
				t.Fatalf("line %d %q: indexed %v, quadratic %v; lines before: %q", i, line, got, want, oracle.norms)
			}
			idx.add(line)
			oracle.add(line)
		}
	})
}

// ClawVault's #55 in one transcript: thousands of distinct decisions share
// their common bigrams ("decided to", "of the"). The indexed check
// compares each new line with a bounded number of others; the quadratic
// one, with every line of the file (it took 2.8 s at 2,500 and 24 s at
// 5,000, and 20,000 never finished).
func TestLineIndexWorkIsLinear(t *testing.T) {
	t.Parallel()
	const n = 1500 // enough to tell linear (8n) from quadratic (n²/4) work
	idx, oracle := newLineIndex(), &quadraticLineIndex{}
	for i := range n {
		line := normalizeForDedup(fmt.Sprintf("We decided to use %s for service %d of the billing stack.", distinctWords(i), i))
		if idx.isDuplicate(line) || oracle.isDuplicate(line) {
			t.Fatalf("line %d is distinct: %q", i, line)
		}
		idx.add(line)
		oracle.add(line)
	}
	if idx.compared > 8*n {
		t.Errorf("the index compared %d lines for %d new ones", idx.compared, n)
	}
	if oracle.compared < n*n/4 {
		t.Errorf("the quadratic oracle compared only %d lines: the test no longer shows the difference", oracle.compared)
	}
}

// distinctWords is three made-up words for decision i: content words no
// other decision has, as distinct decisions have (the rest of the line is
// the same for all of them).
func distinctWords(i int) string {
	syll := strings.Fields("ka lo mi ru te so na vi pe du ri go ba ze lu fo")
	var out []string
	x := uint32(i)*2654435761 + 12345
	for range 3 {
		var w strings.Builder
		for range 3 {
			w.WriteString(syll[x%16])
			x = x*1103515245 + 12345
			x ^= x >> 13
		}
		out = append(out, w.String())
	}
	return strings.Join(out, " ")
}

// Random files where lines are cut from, glued to and edited from earlier
// lines (the cases fuzzing reaches slowly: containment at every offset,
// near-identical bigram sets, multi-byte and broken UTF-8).
func TestLineIndexMatchesQuadraticOnRandomFiles(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "c", " ", " ", "é", "😀", "\xff", "de", "fg "}
	word := func() string {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for file := range 300 {
		idx, oracle := newLineIndex(), &quadraticLineIndex{}
		var lines []string
		for i := range 60 {
			var line string
			switch k := rng.IntN(6); {
			case k == 0 || len(lines) == 0:
				var ws []string
				for range 2 + rng.IntN(10) {
					ws = append(ws, word())
				}
				line = strings.Join(ws, " ")
			case k == 1: // a piece of an earlier line
				src := lines[rng.IntN(len(lines))]
				a := rng.IntN(len(src) + 1)
				b := a + rng.IntN(len(src)-a+1)
				line = src[a:b]
			case k == 2: // an earlier line inside a longer one
				line = word() + lines[rng.IntN(len(lines))] + word()
			case k == 3: // an earlier line with one word changed
				ws := strings.Split(lines[rng.IntN(len(lines))], " ")
				ws[rng.IntN(len(ws))] = word()
				line = strings.Join(ws, " ")
			case k == 4: // two earlier lines glued
				line = lines[rng.IntN(len(lines))] + " " + lines[rng.IntN(len(lines))]
			default:
				line = lines[rng.IntN(len(lines))]
			}
			if got, want := idx.isDuplicate(line), oracle.isDuplicate(line); got != want {
				t.Fatalf("file %d line %d %q: indexed %v, quadratic %v; lines before: %q", file, i, line, got, want, lines)
			}
			idx.add(line)
			oracle.add(line)
			lines = append(lines, line)
		}
	}
}
