package model

import "slices"

// missingID stands for a reference to an id no entry has: it equals no
// EntryID an index hands out (kind 15 is never used).
const missingID EntryID = kindMask

// OpenClaw 2026.9 reads a transcript with scanSessionTranscriptTree, which
// is no longer pi's "the leaf is the last entry":
//   - a leaf record ({"type":"leaf","targetId":…}) is a navigation control:
//     it selects targetId as the active leaf, and entries that name it as
//     their parent continue from its target;
//   - entries appended with appendMode "side", and entry types OpenClaw does
//     not count as session entries (usage, context_edit, unknown types), do
//     not move the leaf;
//   - a canonical entry whose parent is missing, or is an entry appended
//     aside while the leaf moved elsewhere, continues from the leaf;
//   - after a reset boundary, an entry whose parent lies before the reset
//     continues from the leaf (resets happen in place);
//   - a canonical entry without a parentId key continues from the leaf.
//
// scanOpenClaw is that scan, over the positions of the index instead of a
// Map of the entries seen so far: "seen so far" is "at a position before".

// ocRef is an entry reference as the scan holds it: NoID for null.
func (t *Tree) ocRef(state RefState, id string) (EntryID, bool) {
	switch state {
	case RefNull:
		return NoID, true
	case RefID:
		if e, ok := t.names.Find(id); ok {
			return e, true
		}
		return missingID, true
	}
	return NoID, false
}

// blankID reports an id OpenClaw's readNonBlankString rejects.
func (t *Tree) blankID(id EntryID) bool {
	return id == NoID || id&kindMask == kindName && isBlank(t.names.String(id))
}

func isBlank(s string) bool {
	for _, c := range s {
		switch c {
		case ' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\ufeff', '\u2028', '\u2029':
		default:
			return false
		}
	}
	return true
}

// lookupEveryParent turns the previous-node shortcut off, for the test
// that checks it changes nothing.
var lookupEveryParent = false

func (t *Tree) scanOpenClaw(nodes []int32, facts map[int32]TreeFacts) {
	entries := t.entries
	n := len(entries)
	t.parent = make([]int32, n)
	for i := range t.parent {
		t.parent[i] = -1
	}
	t.leafCtl = make([]bool, n)
	// Which entries are tree nodes is decided by each entry alone: an
	// explicit entry (a parentId key holding null or an id, and a non-blank
	// id; a leaf with well-formed targetId/appendParentId/appendMode) or a
	// canonical entry without a parentId key.
	explicit := make([]bool, n)
	treeNodes := make([]int32, 0, len(nodes))
	for _, i := range nodes {
		e := &entries[i]
		if t.blankID(e.ID) {
			continue
		}
		if e.Flags&FlagParentKey != 0 && e.Flags&FlagParentBad == 0 {
			ok := true
			if e.Type == TypeLeaf {
				f := facts[i]
				ok = (f.Target == RefNull || f.Target == RefID) && f.AppendParent != RefInvalid && !f.AppendModeBad
				t.leafCtl[i] = ok
			}
			if ok {
				explicit[i] = true
				treeNodes = append(treeNodes, i)
				continue
			}
		}
		if e.Type.OpenClawCanonical() && e.Flags&FlagParentKey == 0 {
			treeNodes = append(treeNodes, i)
		}
	}
	t.byID, t.DuplicateIDs, _ = newIDIndex(entries, treeNodes)

	// ref is a node's parentId as the scan leaves it (NoID: null).
	ref := make([]EntryID, n)
	isNode := make([]bool, n)
	for _, i := range treeNodes {
		isNode[i] = true
	}
	resetGen := make([]uint32, n)
	var gen uint32
	var invalidCtl map[EntryID]bool
	has := func(id EntryID, before int32) bool {
		_, ok := t.byID.lastBefore(entries, id, before)
		return ok
	}
	known := func(id EntryID, before int32) bool {
		return id == NoID || has(id, before) && !invalidCtl[id]
	}
	prev := int32(-1) // the previous node: the usual parent, found without a lookup
	// byPrev is the common case answered without a lookup in the id
	// index (a binary search that misses the cache, per node): id is the
	// previous node's and no id repeats, so that node is the only one.
	unique := t.DuplicateIDs == 0 && !lookupEveryParent
	byPrev := func(id EntryID) bool {
		return unique && prev >= 0 && entries[prev].ID == id
	}
	resetDescendant := func(id EntryID, before int32) bool {
		if byPrev(id) {
			return resetGen[prev] == gen
		}
		found := false
		t.byID.each(entries, id, func(p int32) bool {
			if p >= before {
				return false
			}
			found = resetGen[p] == gen
			return !found
		})
		return found
	}
	// resolve follows a parent through leaf controls to the entry they select.
	resolve := func(p EntryID, before int32) EntryID {
		var seen []EntryID
		for p != NoID {
			if slices.Contains(seen, p) {
				return p
			}
			if len(seen) == 0 && byPrev(p) {
				if !t.leafCtl[prev] {
					return p
				}
			}
			q, ok := t.byID.lastBefore(entries, p, before)
			if !ok || !t.leafCtl[q] {
				return p
			}
			seen = append(seen, p)
			p = ref[q]
		}
		return NoID
	}

	leaf, appendParent := NoID, NoID // null
	haveReset, leafControl := false, false
	for _, i := range treeNodes {
		e := &entries[i]
		f := facts[i]
		side := e.Flags&FlagSideAppend != 0
		canonical := e.Type.OpenClawCanonical()
		var parent, target, appendTo EntryID
		setsLeaf := false
		if explicit[i] {
			if t.leafCtl[i] {
				target, _ = t.ocRef(f.Target, f.TargetID)
				appendTo = target
				if f.AppendParent != RefAbsent {
					appendTo, _ = t.ocRef(f.AppendParent, f.AppendParentID)
				}
				parent, setsLeaf = target, true
			} else {
				parent, setsLeaf, target, appendTo = e.ParentID, canonical && !side, e.ID, e.ID
			}
			if t.leafCtl[i] && haveReset && leaf != NoID && (target == NoID || !resetDescendant(target, i)) {
				// A navigation to before the latest reset stays where it is.
				parent, target, appendTo = leaf, leaf, leaf
			}
			if t.leafCtl[i] && (!known(target, i) || !known(appendTo, i)) {
				t.InvalidLeafControls++
				if invalidCtl == nil {
					invalidCtl = map[EntryID]bool{}
				}
				invalidCtl[e.ID] = true
				ref[i] = e.ParentID
				prev = i
				continue
			}
		} else {
			parent, setsLeaf, target, appendTo = leaf, !side, e.ID, e.ID
		}
		if canonical {
			parentKnown := parent == NoID || prev >= 0 && entries[prev].ID == parent || has(parent, i)
			switch {
			case haveReset && !side && (parent == NoID || !resetDescendant(parent, i)):
				parent = leaf
			case !side && explicit[i] && parent != NoID && !parentKnown && leaf != NoID:
				parent = leaf // a stale parent
			case explicit[i] && !side && parent == appendParent && leaf != appendParent:
				parent = leaf // the parent was appended aside; the leaf moved on
			}
			parent = resolve(parent, i)
		}
		ref[i] = parent
		if e.Type == TypeReset {
			haveReset = true
			gen++
			resetGen[i] = gen
		} else if haveReset && parent != NoID && resetDescendant(parent, i) {
			resetGen[i] = gen
		}
		appendParent = appendTo
		if setsLeaf {
			leaf = target
		}
		if t.leafCtl[i] {
			leafControl = true
			t.LeafControls++
		}
		prev = i
	}

	// The final tree resolves each parentId against the last entry with
	// that id, as the scan's Map ends up.
	for k, i := range treeNodes {
		if p := ref[i]; p != NoID && p != missingID {
			if k > 0 && unique && entries[treeNodes[k-1]].ID == p {
				t.parent[i] = treeNodes[k-1] // the only node with that id
				continue
			}
			if q, ok := t.byID.get(entries, p); ok && q != i {
				t.parent[i] = q
			}
		}
	}
	if leaf != NoID {
		if q, ok := t.byID.get(entries, leaf); ok {
			t.Leaf = q
		}
	}
	t.ocNodes = isNode
	t.ocLeafControl = leafControl
}

// activePathOpenClaw is selectSessionTranscriptTreePathNodes from the
// leaf: the path skips leaf controls and is empty when it loops. As in
// OpenClaw's active-event projection, an empty path means every entry when
// the transcript has no leaf control.
func (t *Tree) activePathOpenClaw(nodes []int32) {
	// A bit per entry, not a map: a million-entry path put a million keys
	// in a map.
	seen := make([]uint64, (len(t.entries)+63)/64)
	size := 0
	for cur := t.Leaf; cur >= 0; cur = t.parent[cur] {
		if seen[cur/64]&(1<<(cur%64)) != 0 {
			t.Cycle = true
			break
		}
		seen[cur/64] |= 1 << (cur % 64)
		if !t.leafCtl[cur] {
			size++
		}
	}
	if !t.Cycle && size > 0 {
		// Filled from the end: one slice of the path's size, no growing.
		t.ActivePath = make([]int32, size)
		for cur := t.Leaf; cur >= 0; cur = t.parent[cur] {
			if !t.leafCtl[cur] {
				size--
				t.ActivePath[size] = cur
			}
		}
	}
	if len(t.ActivePath) == 0 && !t.ocLeafControl {
		for _, i := range nodes {
			if t.ocNodes[i] || t.entries[i].Type.OpenClawCanonical() || t.entries[i].Type == TypeMessage {
				t.ActivePath = append(t.ActivePath, i)
			}
		}
	}
	for _, i := range t.ActivePath {
		t.pathMark[i/64] |= 1 << (i % 64)
	}
}

// buildContextOpenClaw mirrors OpenClaw's iterateSessionContextEntries over
// the active path: the last reset or compaction on it is the boundary. A
// compaction stands for its summary, followed by the entries from its
// firstKeptEntryId and everything after it. A reset makes no message; of
// the entries from its firstKeptEntryId it keeps user and assistant
// messages and paired tool results (a tool result counts as paired when an
// assistant message precedes it in that range: the pairing itself needs
// the bodies). Messages marked excludeFromContext are left out, unless a
// reset keeps them.
func (t *Tree) buildContextOpenClaw(facts map[int32]TreeFacts) []int32 {
	path := t.ActivePath
	boundary := -1
	for i, e := range path {
		if ty := t.entries[e].Type; ty == TypeReset || ty == TypeCompaction {
			boundary = i
		}
	}
	firstKept := boundary
	var resetKept map[int32]bool
	var ctx []int32
	if boundary >= 0 {
		b := path[boundary]
		if id, ok := t.names.Find(facts[b].FirstKeptEntryID); ok && facts[b].FirstKeptEntryID != "" {
			if k := slices.IndexFunc(path, func(e int32) bool { return t.entries[e].ID == id }); k >= 0 && k < boundary {
				firstKept = k
			}
		}
		if t.entries[b].Type == TypeReset {
			resetKept = map[int32]bool{}
			framed := false
			for _, e := range path[firstKept:boundary] {
				en := &t.entries[e]
				if en.Type != TypeMessage {
					continue
				}
				switch en.Role {
				case RoleUser, RoleAssistant:
					resetKept[e] = true
					framed = framed || en.Role == RoleAssistant
				case RoleToolResult:
					resetKept[e] = framed
				}
			}
		} else {
			ctx = append(ctx, b)
		}
	}
	for i, e := range path {
		retained := i < boundary
		if i == boundary || retained && (i < firstKept || resetKept != nil && !resetKept[e]) {
			continue
		}
		en := &t.entries[e]
		switch en.Type {
		case TypeMessage:
			if en.Flags&FlagExcludeContext != 0 && !resetKept[e] {
				continue
			}
		case TypeCustomMessage:
		case TypeBranchSummary:
			if !facts[e].HasSummary {
				continue
			}
		default:
			continue
		}
		ctx = append(ctx, e)
	}
	return ctx
}

// ResetRetainedWindow returns the active-path entries from the latest reset
// boundary's firstKeptEntryId up to the boundary: the only entries whose
// message role the OpenClaw context needs. A reader that builds the tree
// without roles (from SQLite identities) fills their roles and rebuilds.
func (t *Tree) ResetRetainedWindow(facts map[int32]TreeFacts) []int32 {
	if t.Rules != RulesOpenClaw {
		return nil
	}
	path := t.ActivePath
	boundary := -1
	for i, e := range path {
		if ty := t.entries[e].Type; ty == TypeReset || ty == TypeCompaction {
			boundary = i
		}
	}
	if boundary < 0 || t.entries[path[boundary]].Type != TypeReset {
		return nil
	}
	id, ok := t.names.Find(facts[path[boundary]].FirstKeptEntryID)
	if !ok {
		return nil
	}
	k := slices.IndexFunc(path[:boundary], func(e int32) bool { return t.entries[e].ID == id })
	if k < 0 {
		return nil
	}
	return path[k:boundary]
}

// IsLeafControl reports a valid leaf record (OpenClaw's rules).
func (t *Tree) IsLeafControl(i int32) bool {
	return t.leafCtl != nil && t.leafCtl[i]
}
