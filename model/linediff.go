package model

import (
	"fmt"
	"slices"
	"strings"
)

// Line diffs and three-way merges, for the editor: when a file changed on
// disk while it was being edited, it shows what differs and merges the two
// versions when they touched different lines. Lines are compared as they
// are, line endings included, so a merge gives back exact bytes.

// DiffKind says what a run of lines is in a diff.
type DiffKind uint8

const (
	DiffEqual  DiffKind = iota // in both
	DiffDelete                 // only in a
	DiffInsert                 // only in b
)

// DiffOp is a run of lines: a[A0:A1] and b[B0:B1] (0-based, half open);
// an equal run has both, a deletion an empty B range, an insertion an
// empty A range.
type DiffOp struct {
	Kind           DiffKind
	A0, A1, B0, B1 int
}

// maxDiffEdits bounds the search for the shortest diff: past it the lines
// between the common start and end count as all changed. The result is
// still a correct diff, only not the smallest, and it takes O(D²) memory
// rather than more for files rewritten wholesale.
const maxDiffEdits = 4000

// DiffLines is the shortest edit script from a to b (Myers' algorithm),
// as runs in order.
func DiffLines(a, b []string) []DiffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []DiffOp
	add := func(kind DiffKind, a0, a1, b0, b1 int) {
		if a0 == a1 && b0 == b1 {
			return
		}
		if n := len(ops); n > 0 && ops[n-1].Kind == kind {
			ops[n-1].A1, ops[n-1].B1 = a1, b1
			return
		}
		ops = append(ops, DiffOp{kind, a0, a1, b0, b1})
	}
	add(DiffEqual, 0, pre, 0, pre)
	for _, e := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		add(e.Kind, e.A0+pre, e.A1+pre, e.B0+pre, e.B1+pre)
	}
	add(DiffEqual, len(a)-suf, len(a), len(b)-suf, len(b))
	return ops
}

// myers returns the edits between a and b one line at a time (equal,
// delete or insert runs of length one; the caller merges them).
func myers(a, b []string) []DiffOp {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil
	}
	maxD := min(n+m, maxDiffEdits)
	off := maxD + 1
	// v[off+k] is how far (x) the furthest path on diagonal k = x-y
	// reaches; -1 where no path does.
	v := make([]int, 2*maxD+3)
	for i := range v {
		v[i] = -1
	}
	var trace [][]int // v before each round d, for k in [-d-1, d+1]
	found := -1
	for d := 0; d <= maxD && found < 0; d++ {
		trace = append(trace, slices.Clone(v[off-d-1:off+d+2]))
		prev := trace[d]
		for k := -d; k <= d; k += 2 {
			x := 0
			if d > 0 {
				var ok bool
				if x, _, ok = myersStep(func(k int) int { return prev[k+d+1] }, k, n, m); !ok {
					v[off+k] = -1
					continue
				}
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x == n && y == m {
				found = d
				break
			}
		}
	}
	if found < 0 {
		return []DiffOp{{DiffDelete, 0, n, 0, 0}, {DiffInsert, n, n, 0, m}}
	}
	var rev []DiffOp
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d]
		k := x - y
		px, down, _ := myersStep(func(k int) int { return prev[k+d+1] }, k, n, m)
		// The move ended at (px, px-k); the diagonal run after it at (x, y).
		for x > px {
			rev = append(rev, DiffOp{DiffEqual, x - 1, x, y - 1, y})
			x, y = x-1, y-1
		}
		if down {
			rev = append(rev, DiffOp{DiffInsert, x, x, y - 1, y})
			y--
		} else {
			rev = append(rev, DiffOp{DiffDelete, x - 1, x, y, y})
			x--
		}
	}
	for x > 0 && y > 0 {
		rev = append(rev, DiffOp{DiffEqual, x - 1, x, y - 1, y})
		x, y = x-1, y-1
	}
	slices.Reverse(rev)
	return rev
}

// myersStep is the move onto diagonal k in a round, from the furthest
// points of the round before (prev): down from diagonal k+1 (an insertion)
// or right from k-1 (a deletion), whichever reaches further inside the
// n×m grid. It returns where the move ends (x) and which it was.
func myersStep(prev func(int) int, k, n, m int) (x int, down, ok bool) {
	x = -1
	if dn := prev(k + 1); dn >= 0 && dn-k <= m {
		x, down = dn, true
	}
	if rt := prev(k - 1); rt >= 0 && rt+1 <= n && rt+1 > x {
		x, down = rt+1, false
	}
	return x, down, x >= 0
}

// DiffLine is a line of a unified diff: Kind ' ', '-', '+', or '@' for a
// hunk header (its Text "@@ -a,n +b,m @@"). A and B are the 1-based line
// numbers in each version (0 where the line is not in it).
type DiffLine struct {
	Kind byte
	Text string
	A, B int
}

// UnifiedDiff lists the changes from a to b as hunks with context lines
// around them, line endings stripped.
func UnifiedDiff(a, b []string, context int) []DiffLine {
	ops := DiffLines(a, b)
	var out []DiffLine
	strip := func(s string) string { return strings.TrimRight(s, "\r\n") }
	for i := 0; i < len(ops); {
		if ops[i].Kind == DiffEqual {
			i++
			continue
		}
		// A hunk: changes, joined across equal runs shorter than 2×context.
		j := i
		for j+1 < len(ops) && (ops[j+1].Kind != DiffEqual || (ops[j+1].A1-ops[j+1].A0 <= 2*context && j+2 < len(ops))) {
			j++
		}
		a0, b0 := ops[i].A0, ops[i].B0
		if i > 0 {
			a0, b0 = max(ops[i-1].A0, a0-context), max(ops[i-1].B0, b0-context)
		}
		a1, b1 := ops[j].A1, ops[j].B1
		if j+1 < len(ops) {
			a1, b1 = min(ops[j+1].A1, a1+context), min(ops[j+1].B1, b1+context)
		}
		out = append(out, DiffLine{Kind: '@', Text: fmt.Sprintf("@@ -%d,%d +%d,%d @@", a0+1, a1-a0, b0+1, b1-b0)})
		for x, y := a0, b0; x < ops[i].A0; x, y = x+1, y+1 {
			out = append(out, DiffLine{' ', strip(a[x]), x + 1, y + 1})
		}
		for _, op := range ops[i : j+1] {
			switch op.Kind {
			case DiffEqual:
				for x, y := op.A0, op.B0; x < op.A1; x, y = x+1, y+1 {
					out = append(out, DiffLine{' ', strip(a[x]), x + 1, y + 1})
				}
			case DiffDelete:
				for x := op.A0; x < op.A1; x++ {
					out = append(out, DiffLine{'-', strip(a[x]), x + 1, 0})
				}
			case DiffInsert:
				for y := op.B0; y < op.B1; y++ {
					out = append(out, DiffLine{'+', strip(b[y]), 0, y + 1})
				}
			}
		}
		for x, y := ops[j].A1, ops[j].B1; x < a1; x, y = x+1, y+1 {
			out = append(out, DiffLine{' ', strip(a[x]), x + 1, y + 1})
		}
		i = j + 1
	}
	return out
}

// hunk is a change of one side against the base: base[A0:A1] becomes Lines.
type hunk struct {
	a0, a1 int
	lines  []string
	theirs bool
}

// hunks groups a diff's changes: each run of deletions and insertions
// between equal lines is one hunk.
func hunks(base, x []string, theirs bool) []hunk {
	var out []hunk
	ops := DiffLines(base, x)
	for i := 0; i < len(ops); i++ {
		if ops[i].Kind == DiffEqual {
			continue
		}
		j := i
		for j+1 < len(ops) && ops[j+1].Kind != DiffEqual {
			j++
		}
		out = append(out, hunk{ops[i].A0, ops[j].A1, slices.Clone(x[ops[i].B0:ops[j].B1]), theirs})
		i = j
	}
	return out
}

// MergeConflict is a part of the base both sides changed differently.
type MergeConflict struct {
	// BaseFrom and BaseTo are the 1-based lines of the base both changed
	// (BaseTo < BaseFrom: both inserted lines after line BaseTo).
	BaseFrom, BaseTo int
	Ours, Theirs     []string
}

// Merge3 merges two versions of base, line by line: where only one side
// changed a run of lines, its change is taken; where both made the same
// change, it is taken once; where both changed overlapping lines (or
// inserted at the same place) differently, that is a conflict, and no
// merged text is returned.
func Merge3(base, ours, theirs []string) ([]string, []MergeConflict) {
	return merge3(base, ours, theirs, false)
}

// Merge3KeepBoth is Merge3 for a merge nobody looks at before it is
// written (another program saved the file while we did): where both sides
// only inserted lines at the same place (two writers appending to the same
// section), both insertions are kept, ours first. Changes to the same
// lines still conflict.
func Merge3KeepBoth(base, ours, theirs []string) ([]string, []MergeConflict) {
	return merge3(base, ours, theirs, true)
}

func merge3(base, ours, theirs []string, keepBoth bool) ([]string, []MergeConflict) {
	all := append(hunks(base, ours, false), hunks(base, theirs, true)...)
	slices.SortStableFunc(all, func(x, y hunk) int {
		if x.a0 != y.a0 {
			return x.a0 - y.a0
		}
		return x.a1 - y.a1
	})
	overlaps := func(x0, x1, y0, y1 int) bool {
		return x0 < y1 && y0 < x1 || x0 == x1 && y0 == y1 && x0 == y0
	}
	var out []string
	var conflicts []MergeConflict
	pos := 0
	for k := 0; k < len(all); {
		r0, r1 := all[k].a0, all[k].a1
		group := []hunk{all[k]}
		k++
		for k < len(all) && overlaps(all[k].a0, all[k].a1, r0, r1) {
			r1 = max(r1, all[k].a1)
			group = append(group, all[k])
			k++
		}
		out = append(out, base[pos:r0]...)
		pos = r1
		if len(group) == 1 {
			out = append(out, group[0].lines...)
			continue
		}
		o, t := applyHunks(base, r0, r1, group, false), applyHunks(base, r0, r1, group, true)
		if slices.Equal(o, t) {
			out = append(out, o...)
			continue
		}
		if keepBoth && r0 == r1 { // insertions only: nothing of the base is changed
			out = append(out, bothInsertions(o, t)...)
			continue
		}
		conflicts = append(conflicts, MergeConflict{BaseFrom: r0 + 1, BaseTo: r1, Ours: o, Theirs: t})
	}
	if len(conflicts) > 0 {
		return nil, conflicts
	}
	return append(out, base[pos:]...), nil
}

// bothInsertions keeps the lines two sides inserted at one place, each
// side's in its order, ours first where the order is free, and a line
// both inserted once (the shortest sequence holding both, from their
// longest common subsequence): a writer whose version already holds some
// of ours adds only its own.
func bothInsertions(ours, theirs []string) []string {
	var out []string
	for _, op := range DiffLines(ours, theirs) {
		if op.Kind == DiffInsert { // only in theirs
			out = append(out, theirs[op.B0:op.B1]...)
		} else { // in both, or only in ours (a deletion runs before an insertion)
			out = append(out, ours[op.A0:op.A1]...)
		}
	}
	return out
}

// applyHunks is base[r0:r1] with one side's hunks of a group applied.
func applyHunks(base []string, r0, r1 int, group []hunk, theirs bool) []string {
	var out []string
	pos := r0
	for _, h := range group {
		if h.theirs != theirs {
			continue
		}
		out = append(out, base[pos:h.a0]...)
		out = append(out, h.lines...)
		pos = h.a1
	}
	return append(out, base[pos:r1]...)
}
