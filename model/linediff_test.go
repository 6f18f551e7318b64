package model

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

func lines(s string) []string { return SplitLines(s) }

// applyOps rebuilds b from a and a diff, checking that equal runs are
// equal.
func applyOps(t testing.TB, a, b []string, ops []DiffOp) []string {
	t.Helper()
	var out []string
	ai, bi := 0, 0
	for _, op := range ops {
		if op.A0 != ai || op.B0 != bi {
			t.Fatalf("op %+v does not continue at a=%d b=%d", op, ai, bi)
		}
		switch op.Kind {
		case DiffEqual:
			if !slices.Equal(a[op.A0:op.A1], b[op.B0:op.B1]) {
				t.Fatalf("equal run %+v differs", op)
			}
			out = append(out, a[op.A0:op.A1]...)
		case DiffDelete:
			if op.B0 != op.B1 {
				t.Fatalf("deletion with b lines: %+v", op)
			}
		case DiffInsert:
			if op.A0 != op.A1 {
				t.Fatalf("insertion with a lines: %+v", op)
			}
			out = append(out, b[op.B0:op.B1]...)
		}
		ai, bi = op.A1, op.B1
	}
	if ai != len(a) || bi != len(b) {
		t.Fatalf("ops end at a=%d b=%d, want %d %d", ai, bi, len(a), len(b))
	}
	return out
}

func changed(ops []DiffOp) (del, ins int) {
	for _, op := range ops {
		switch op.Kind {
		case DiffDelete:
			del += op.A1 - op.A0
		case DiffInsert:
			ins += op.B1 - op.B0
		}
	}
	return
}

func TestDiffLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, a, b string
		del, ins   int // the shortest script's size
	}{
		{"same", "a\nb\n", "a\nb\n", 0, 0},
		{"empty to text", "", "a\nb\n", 0, 2},
		{"text to empty", "a\nb\n", "", 2, 0},
		{"one changed", "a\nb\nc\n", "a\nB\nc\n", 1, 1},
		{"insert in middle", "a\nc\n", "a\nb\nc\n", 0, 1},
		{"classic", "a\nb\nc\na\nb\nb\na\n", "c\nb\na\nb\na\nc\n", 3, 2},
		{"line ending counts", "a\r\nb\n", "a\nb\n", 1, 1},
		{"no final newline", "a\nb", "a\nb\n", 1, 1},
		{"moved block", "1\n2\n3\n4\n5\n", "4\n5\n1\n2\n3\n", 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := lines(tc.a), lines(tc.b)
			ops := DiffLines(a, b)
			if got := applyOps(t, a, b, ops); strings.Join(got, "") != tc.b {
				t.Fatalf("rebuilt %q, want %q", strings.Join(got, ""), tc.b)
			}
			if del, ins := changed(ops); del != tc.del || ins != tc.ins {
				t.Errorf("deleted %d inserted %d, want %d %d (%+v)", del, ins, tc.del, tc.ins, ops)
			}
		})
	}
}

// Past maxDiffEdits the diff is still correct, only coarse.
func TestDiffLinesCapped(t *testing.T) {
	t.Parallel()
	var a, b []string
	for i := range 3 * maxDiffEdits {
		a = append(a, "a"+strconv.Itoa(i)+"\n")
		b = append(b, "b"+strconv.Itoa(i)+"\n")
	}
	ops := DiffLines(a, b)
	applyOps(t, a, b, ops)
}

func TestUnifiedDiff(t *testing.T) {
	t.Parallel()
	a := lines("one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n")
	b := lines("one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n")
	var got []string
	for _, l := range UnifiedDiff(a, b, 2) {
		got = append(got, string(l.Kind)+l.Text)
	}
	want := []string{
		"@@@ -1,4 +1,4 @@", " one", "-two", "+TWO", " three", " four",
		"@@@ -9,2 +9,3 @@", " nine", " ten", "+eleven",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if d := UnifiedDiff(a, a, 3); len(d) != 0 {
		t.Errorf("no change gives %v", d)
	}
}

func TestMerge3KeepBoth(t *testing.T) {
	base := "# MEMORY\n\n## People\n- Elena\n"
	for _, tc := range []struct {
		name, ours, theirs, want string
		conflict                 bool
	}{
		{"both append", base + "- a\n", base + "- b\n- c\n", base + "- a\n- b\n- c\n", false},
		{"both insert at one place", strings.Replace(base, "\n\n", "\n- a\n\n", 1), strings.Replace(base, "\n\n", "\n- b\n\n", 1),
			strings.Replace(base, "\n\n", "\n- a\n- b\n\n", 1), false},
		{"same insertion once", base + "- a\n", base + "- a\n", base + "- a\n", false},
		{"a line both inserted, once", base + "- a\n", base + "- a\n- r\n", base + "- a\n- r\n", false},
		{"theirs around ours", base + "- a\n", base + "- z\n- a\n- r\n", base + "- z\n- a\n- r\n", false},
		{"apart, as Merge3", strings.Replace(base, "# MEMORY", "# Memory", 1), base + "- b\n", strings.Replace(base, "# MEMORY", "# Memory", 1) + "- b\n", false},
		{"same line changed differently", strings.Replace(base, "Elena", "E", 1), strings.Replace(base, "Elena", "Ele", 1), "", true},
		{"an insertion into a changed run", strings.Replace(base, "## People\n- Elena\n", "## P\n- E\n", 1), strings.Replace(base, "## People\n", "## People\n- b\n", 1), "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, conflicts := Merge3KeepBoth(lines(base), lines(tc.ours), lines(tc.theirs))
			if (len(conflicts) > 0) != tc.conflict || strings.Join(got, "") != tc.want {
				t.Errorf("got %q, conflicts %+v; want %q, conflict %v", strings.Join(got, ""), conflicts, tc.want, tc.conflict)
			}
		})
	}
}

func TestMerge3(t *testing.T) {
	t.Parallel()
	base := "# MEMORY\n\n## People\n- Elena\n- Marco\n\n## Lessons\n- backups\n"
	for _, tc := range []struct {
		name, ours, theirs string
		want               string
		conflicts          [][2]int // base ranges
	}{
		{"only ours", strings.Replace(base, "- Elena", "- Elena Vasquez", 1), base,
			strings.Replace(base, "- Elena", "- Elena Vasquez", 1), nil},
		{"only theirs", base, base + "- timeouts\n", base + "- timeouts\n", nil},
		{"different lines",
			strings.Replace(base, "- Elena", "- Elena Vasquez", 1),
			strings.Replace(base, "- backups", "- backups first", 1),
			strings.Replace(strings.Replace(base, "- Elena", "- Elena Vasquez", 1), "- backups", "- backups first", 1), nil},
		{"adjacent lines",
			strings.Replace(base, "- Elena", "- Elena V", 1),
			strings.Replace(base, "- Marco", "- Marco B", 1),
			strings.Replace(strings.Replace(base, "- Elena", "- Elena V", 1), "- Marco", "- Marco B", 1), nil},
		{"same change", base + "- x\n", base + "- x\n", base + "- x\n", nil},
		{"same line differently",
			strings.Replace(base, "- Elena", "- Elena V", 1),
			strings.Replace(base, "- Elena", "- Elena Vasquez", 1), "", [][2]int{{4, 4}}},
		{"both append differently", base + "- a\n", base + "- b\n", "", [][2]int{{9, 8}}},
		{"one deletes what the other edits",
			strings.Replace(base, "- Marco\n", "", 1),
			strings.Replace(base, "- Marco", "- Marco Bianchi", 1), "", [][2]int{{5, 5}}},
		{"insert inside a replaced run",
			strings.Replace(base, "- Elena\n- Marco\n", "- E\n- M\n", 1),
			strings.Replace(base, "- Elena\n", "- Elena\n- Priya\n", 1), "", [][2]int{{4, 5}}},
		{"crlf kept", strings.ReplaceAll(base, "\n", "\r\n") + "- x\r\n", strings.Replace(strings.ReplaceAll(base, "\n", "\r\n"), "# MEMORY", "# Memory", 1),
			strings.Replace(strings.ReplaceAll(base, "\n", "\r\n"), "# MEMORY", "# Memory", 1) + "- x\r\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := base
			if tc.name == "crlf kept" {
				b = strings.ReplaceAll(base, "\n", "\r\n")
			}
			got, conflicts := Merge3(lines(b), lines(tc.ours), lines(tc.theirs))
			var ranges [][2]int
			for _, c := range conflicts {
				ranges = append(ranges, [2]int{c.BaseFrom, c.BaseTo})
			}
			if !slices.Equal(ranges, tc.conflicts) {
				t.Fatalf("conflicts %v, want %v", ranges, tc.conflicts)
			}
			if conflicts == nil && strings.Join(got, "") != tc.want {
				t.Errorf("merged\n%q\nwant\n%q", strings.Join(got, ""), tc.want)
			}
			if conflicts != nil && got != nil {
				t.Errorf("a conflict still returned a text")
			}
		})
	}
}

// lcsLen is the length of the longest common subsequence, by dynamic
// programming: the reference the shortest edit script is checked against.
func lcsLen(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func FuzzDiffMerge(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", "a\nb\nc\nd\n")
	f.Add("", "x\n", "y\n")
	f.Add("1\n2\n3\n4\n", "4\n3\n2\n1\n", "1\n2\r\n3\n4")
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		b, o, th := lines(base), lines(ours), lines(theirs)
		for _, pair := range [][2][]string{{b, o}, {b, th}, {o, th}} {
			ops := DiffLines(pair[0], pair[1])
			applyOps(t, pair[0], pair[1], ops)
			if del, ins := changed(ops); del+ins != len(pair[0])+len(pair[1])-2*lcsLen(pair[0], pair[1]) {
				t.Fatalf("not the shortest script: %d+%d for %q → %q", del, ins, pair[0], pair[1])
			}
		}
		// One side unchanged: the merge is the other side.
		if got, c := Merge3(b, o, b); c != nil || strings.Join(got, "") != ours {
			t.Fatalf("merge(base, ours, base) = %q, %v", strings.Join(got, ""), c)
		}
		if got, c := Merge3(b, b, th); c != nil || strings.Join(got, "") != theirs {
			t.Fatalf("merge(base, base, theirs) = %q, %v", strings.Join(got, ""), c)
		}
		if got, c := Merge3(b, o, o); c != nil || strings.Join(got, "") != ours {
			t.Fatalf("merge(base, ours, ours) = %q, %v", strings.Join(got, ""), c)
		}
		// A clean merge holds every line either side added.
		if got, c := Merge3(b, o, th); c == nil {
			UnifiedDiff(b, got, 3)
		}
	})
}
