package model

// TreeRow is one line of a transcript's tree as the TUI draws it: the
// entry, how far it is indented, and the guide lines to its left. A linear
// run of entries stays at one indent; each child of a branch point starts
// one level deeper, as pi's /tree draws it.
type TreeRow struct {
	Entry int32 // position in the index's entries
	Depth uint16
	Flags TreeRowFlags
	// Guides has bit k set when level k's branch has more siblings below,
	// so a "│" continues at that level on this row.
	Guides uint64
}

// TreeRowFlags describe a row's place in its branch.
type TreeRowFlags uint16

const (
	// RowBranchStart: the first row of a child of a branch point.
	RowBranchStart TreeRowFlags = 1 << iota
	// RowLastSibling: the branch this row starts is its parent's last child.
	RowLastSibling
	// RowOnPath: the entry is on the active path.
	RowOnPath
)

// TreeView is a tree laid out for display, with the position of each
// entry's row for jumps.
type TreeView struct {
	Rows []TreeRow
	// RowOf maps an entry position to its row, or -1 for entries without
	// a row (the header, or entries outside the context view).
	RowOf []int32
}

// FlattenTree lays the tree out in depth-first order from each root,
// children oldest first. It is iterative: a linear transcript of a million
// entries is a million levels deep. Levels beyond 63 still indent but lose
// their guide lines.
func FlattenTree(t *Tree) TreeView {
	v := TreeView{Rows: make([]TreeRow, 0, t.Nodes), RowOf: make([]int32, len(t.entries))}
	for i := range v.RowOf {
		v.RowOf[i] = -1
	}
	type frame struct {
		entry  int32
		depth  uint16
		flags  TreeRowFlags
		guides uint64
	}
	stack := make([]frame, 0, 64)
	for r := len(t.Roots) - 1; r >= 0; r-- {
		flags := TreeRowFlags(0)
		if len(t.Roots) > 1 {
			flags = RowBranchStart
			if r == len(t.Roots)-1 {
				flags |= RowLastSibling
			}
		}
		stack = append(stack, frame{entry: t.Roots[r], flags: flags})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		row := TreeRow{Entry: f.entry, Depth: f.depth, Flags: f.flags, Guides: f.guides}
		if t.OnPath(f.entry) {
			row.Flags |= RowOnPath
		}
		v.RowOf[f.entry] = int32(len(v.Rows))
		v.Rows = append(v.Rows, row)

		kids := t.Children(f.entry)
		switch len(kids) {
		case 0:
		case 1:
			stack = append(stack, frame{entry: kids[0], depth: f.depth, guides: f.guides})
		default:
			// Children one level deeper, pushed in reverse so the oldest
			// comes out first. Every child but the last keeps a guide line
			// running past the earlier ones' subtrees.
			for k := len(kids) - 1; k >= 0; k-- {
				flags := RowBranchStart
				guides := f.guides
				if k == len(kids)-1 {
					flags |= RowLastSibling
				} else if f.depth < 64 {
					guides |= 1 << f.depth
				}
				stack = append(stack, frame{entry: kids[k], depth: f.depth + 1, flags: flags, guides: guides})
			}
		}
	}
	return v
}

// ContextView lays out only the entries in the model's context, flat.
func ContextView(t *Tree) TreeView {
	v := TreeView{Rows: make([]TreeRow, 0, len(t.Context)), RowOf: make([]int32, len(t.entries))}
	for i := range v.RowOf {
		v.RowOf[i] = -1
	}
	for _, e := range t.Context {
		v.RowOf[e] = int32(len(v.Rows))
		v.Rows = append(v.Rows, TreeRow{Entry: e, Flags: RowOnPath})
	}
	return v
}

// Next returns the first row after from (or before it, when back) whose
// entry satisfies match, and whether there is one.
func (v TreeView) Next(from int, back bool, match func(entry int32) bool) (int, bool) {
	step := 1
	if back {
		step = -1
	}
	for i := from + step; i >= 0 && i < len(v.Rows); i += step {
		if match(v.Rows[i].Entry) {
			return i, true
		}
	}
	return from, false
}
