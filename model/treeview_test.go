package model

import (
	"fmt"
	"strings"
	"testing"
)

// draw renders rows as the TUI's guides would, for readable expectations.
func draw(t *Tree, v TreeView) string {
	var b strings.Builder
	for _, r := range v.Rows {
		for lvl := 0; lvl < int(r.Depth); lvl++ {
			last := lvl == int(r.Depth)-1
			switch {
			case last && r.Flags&RowBranchStart != 0 && r.Flags&RowLastSibling != 0:
				b.WriteString("└─")
			case last && r.Flags&RowBranchStart != 0:
				b.WriteString("├─")
			case r.Guides&(1<<lvl) != 0:
				b.WriteString("│ ")
			default:
				b.WriteString("  ")
			}
		}
		mark := " "
		if r.Flags&RowOnPath != 0 {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s%s\n", mark, t.ID(r.Entry))
	}
	return b.String()
}

func TestFlattenTree(t *testing.T) {
	// a ─ b ┬ c ─ d
	//       ├ e ┬ f
	//       │   └ g ─ h   (h is the leaf)
	//       └ i
	entries := build(hdr(), msg("a", "", 1), msg("b", "a", 2), msg("c", "b", 3), msg("d", "c", 4),
		msg("e", "b", 5), msg("f", "e", 6), msg("i", "b", 9), msg("g", "e", 7), msg("h", "g", 8))
	tr := BuildTree(entries, map[int32]TreeFacts{}, 3, names)
	v := FlattenTree(tr)
	want := `*a
*b
├─ c
│  d
├─*e
│ ├─ f
│ └─*g
│   *h
└─ i
`
	if got := draw(tr, v); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for i, r := range v.Rows {
		if v.RowOf[r.Entry] != int32(i) {
			t.Errorf("RowOf[%d] = %d, want %d", r.Entry, v.RowOf[r.Entry], i)
		}
	}
	if next, ok := v.Next(0, false, func(e int32) bool { return len(tr.Children(e)) > 1 }); !ok || next != 1 {
		t.Errorf("next branch point = %d", next)
	}
	if prev, ok := v.Next(len(v.Rows)-1, true, func(e int32) bool { return tr.ID(e) == "e" }); !ok || prev != 4 {
		t.Errorf("previous e = %d", prev)
	}
	if _, ok := v.Next(0, true, func(int32) bool { return true }); ok {
		t.Error("nothing comes before the first row")
	}

	ctx := ContextView(tr)
	if len(ctx.Rows) != len(tr.Context) || ctx.RowOf[1] != 0 {
		t.Errorf("context view: %+v", ctx)
	}
}

func TestFlattenDeepLinearTree(t *testing.T) {
	list := []Entry{hdr()}
	prev := ""
	for i := range 200000 {
		id := fmt.Sprintf("%08x", i)
		list = append(list, msg(id, prev, int64(i)))
		prev = id
	}
	tr := BuildTree(build(list...), map[int32]TreeFacts{}, 3, names)
	v := FlattenTree(tr)
	if len(v.Rows) != 200000 || v.Rows[len(v.Rows)-1].Depth != 0 {
		t.Fatalf("a linear transcript stays at depth 0: %d rows", len(v.Rows))
	}
}
