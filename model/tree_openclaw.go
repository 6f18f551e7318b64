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
	n := len(t.entries)
	t.parent = make([]int32, n)
	for i := range t.parent {
		t.parent[i] = -1
	}
	t.leafCtl = make([]bool, n)
	explicit, treeNodes := t.openClawNodes(nodes, facts)
	t.byID, t.DuplicateIDs, _ = newIDIndex(t.entries, treeNodes)
	s := &ocScan{
		t: t, entries: t.entries, facts: facts, explicit: explicit,
		ref: make([]EntryID, n), resetGen: make([]uint32, n), prev: -1,
		unique: t.DuplicateIDs == 0 && !lookupEveryParent,
		leaf:   NoID, appendParent: NoID, // null
	}
	isNode := make([]bool, n)
	for _, i := range treeNodes {
		isNode[i] = true
		s.step(i)
	}
	s.linkParents(treeNodes)
	t.ocNodes = isNode
	t.ocLeafControl = s.sawLeafControl
}

// openClawNodes picks the entries that are tree nodes, a choice each entry
// makes alone: an explicit entry (a parentId key holding null or an id,
// and a non-blank id; a leaf with well-formed targetId/appendParentId/
// appendMode) or a canonical entry without a parentId key. It marks the
// well-formed leaf controls in t.leafCtl.
func (t *Tree) openClawNodes(nodes []int32, facts map[int32]TreeFacts) (explicit []bool, treeNodes []int32) {
	explicit = make([]bool, len(t.entries))
	treeNodes = make([]int32, 0, len(nodes))
	for _, i := range nodes {
		e := &t.entries[i]
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
	return explicit, treeNodes
}

// ocScan is the state of scanOpenClaw's walk over the tree nodes in file
// order.
type ocScan struct {
	t        *Tree
	entries  []Entry
	facts    map[int32]TreeFacts
	explicit []bool
	// ref is a node's parentId as the scan leaves it (NoID: null).
	ref []EntryID
	// resetGen is the reset generation a node descends from; gen the
	// latest.
	resetGen   []uint32
	gen        uint32
	invalidCtl map[EntryID]bool
	// prev is the previous node: the usual parent, found without a lookup.
	prev int32
	// unique: no id repeats, so the previous node is the only one with
	// its id (see byPrev).
	unique bool
	// leaf is the active leaf, appendParent where the last entry appended
	// aside would continue.
	leaf, appendParent        EntryID
	haveReset, sawLeafControl bool
}

// step reads node i: its parent as OpenClaw resolves it, then what it
// does to the leaf and the reset generations.
func (s *ocScan) step(i int32) {
	e := &s.entries[i]
	side := e.Flags&FlagSideAppend != 0
	canonical := e.Type.OpenClawCanonical()
	var parent, target, appendTo EntryID
	setsLeaf := false
	switch {
	case s.t.leafCtl[i]:
		var ok bool
		if parent, target, appendTo, ok = s.navigation(i); !ok {
			s.invalidControl(i)
			return
		}
		setsLeaf = true
	case s.explicit[i]:
		parent, setsLeaf, target, appendTo = e.ParentID, canonical && !side, e.ID, e.ID
	default:
		parent, setsLeaf, target, appendTo = s.leaf, !side, e.ID, e.ID
	}
	if canonical {
		parent = s.canonicalParent(i, parent, side)
	}
	s.ref[i] = parent
	s.trackReset(i, e.Type, parent)
	s.appendParent = appendTo
	if setsLeaf {
		s.leaf = target
	}
	if s.t.leafCtl[i] {
		s.sawLeafControl = true
		s.t.LeafControls++
	}
	s.prev = i
}

// navigation reads leaf control i: its parent, the leaf it selects and
// where an entry appended next continues; ok is false when it names an
// entry not seen before it (or an invalid control), and it then moves
// nothing.
func (s *ocScan) navigation(i int32) (parent, target, appendTo EntryID, ok bool) {
	f := s.facts[i]
	target, _ = s.t.ocRef(f.Target, f.TargetID)
	appendTo = target
	if f.AppendParent != RefAbsent {
		appendTo, _ = s.t.ocRef(f.AppendParent, f.AppendParentID)
	}
	parent = target
	if s.haveReset && s.leaf != NoID && (target == NoID || !s.resetDescendant(target, i)) {
		// A navigation to before the latest reset stays where it is.
		parent, target, appendTo = s.leaf, s.leaf, s.leaf
	}
	return parent, target, appendTo, s.known(target, i) && s.known(appendTo, i)
}

// invalidControl records leaf control i as invalid: counted, and an entry
// that names it as its parent does not follow it.
func (s *ocScan) invalidControl(i int32) {
	e := &s.entries[i]
	s.t.InvalidLeafControls++
	if s.invalidCtl == nil {
		s.invalidCtl = map[EntryID]bool{}
	}
	s.invalidCtl[e.ID] = true
	s.ref[i] = e.ParentID
	s.prev = i
}

// canonicalParent is where canonical node i continues from, given the
// parent its record names (or the leaf).
func (s *ocScan) canonicalParent(i int32, parent EntryID, side bool) EntryID {
	parentKnown := parent == NoID || s.prev >= 0 && s.entries[s.prev].ID == parent || s.has(parent, i)
	switch {
	case s.haveReset && !side && (parent == NoID || !s.resetDescendant(parent, i)):
		parent = s.leaf
	case !side && s.explicit[i] && parent != NoID && !parentKnown && s.leaf != NoID:
		parent = s.leaf // a stale parent
	case s.explicit[i] && !side && parent == s.appendParent && s.leaf != s.appendParent:
		parent = s.leaf // the parent was appended aside; the leaf moved on
	}
	return s.resolve(parent, i)
}

// trackReset: a reset starts a generation; a node whose parent descends
// from the latest reset belongs to it.
func (s *ocScan) trackReset(i int32, typ EntryType, parent EntryID) {
	if typ == TypeReset {
		s.haveReset = true
		s.gen++
		s.resetGen[i] = s.gen
	} else if s.haveReset && parent != NoID && s.resetDescendant(parent, i) {
		s.resetGen[i] = s.gen
	}
}

// has says whether a node before position before has the id.
func (s *ocScan) has(id EntryID, before int32) bool {
	_, ok := s.t.byID.lastBefore(s.entries, id, before)
	return ok
}

// known: null, or the id of a node before that is no invalid control.
func (s *ocScan) known(id EntryID, before int32) bool {
	return id == NoID || s.has(id, before) && !s.invalidCtl[id]
}

// byPrev is the common case answered without a lookup in the id index (a
// binary search that misses the cache, per node): id is the previous
// node's and no id repeats, so that node is the only one.
func (s *ocScan) byPrev(id EntryID) bool {
	return s.unique && s.prev >= 0 && s.entries[s.prev].ID == id
}

// resetDescendant says whether a node with the id before position before
// descends from the latest reset.
func (s *ocScan) resetDescendant(id EntryID, before int32) bool {
	if s.byPrev(id) {
		return s.resetGen[s.prev] == s.gen
	}
	found := false
	s.t.byID.each(s.entries, id, func(p int32) bool {
		if p >= before {
			return false
		}
		found = s.resetGen[p] == s.gen
		return !found
	})
	return found
}

// resolve follows a parent through leaf controls to the entry they select.
func (s *ocScan) resolve(p EntryID, before int32) EntryID {
	var seen []EntryID
	for p != NoID {
		if slices.Contains(seen, p) {
			return p
		}
		if len(seen) == 0 && s.byPrev(p) {
			if !s.t.leafCtl[s.prev] {
				return p
			}
		}
		q, ok := s.t.byID.lastBefore(s.entries, p, before)
		if !ok || !s.t.leafCtl[q] {
			return p
		}
		seen = append(seen, p)
		p = s.ref[q]
	}
	return NoID
}

// linkParents sets the final tree: each parentId resolves against the
// last entry with that id, as the scan's Map ends up; so does the leaf.
func (s *ocScan) linkParents(treeNodes []int32) {
	t := s.t
	for k, i := range treeNodes {
		if p := s.ref[i]; p != NoID && p != missingID {
			if k > 0 && s.unique && s.entries[treeNodes[k-1]].ID == p {
				t.parent[i] = treeNodes[k-1] // the only node with that id
				continue
			}
			if q, ok := t.byID.get(s.entries, p); ok && q != i {
				t.parent[i] = q
			}
		}
	}
	if s.leaf != NoID {
		if q, ok := t.byID.get(s.entries, s.leaf); ok {
			t.Leaf = q
		}
	}
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
