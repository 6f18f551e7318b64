package model

import (
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// TreeRules names whose reading of the id/parentId tree applies.
type TreeRules uint8

const (
	// RulesAuto applies OpenClaw 2026.9's rules to entries that hold its
	// records (leaf controls, reset boundaries, side appends) and pi's
	// otherwise.
	RulesAuto TreeRules = iota
	// RulesPi: pi's SessionManager: the leaf is the last entry.
	RulesPi
	// RulesOpenClaw: OpenClaw 2026.9's scanSessionTranscriptTree: leaf
	// controls select the leaf, side appends and non-session entry types do
	// not move it, a reset boundary restarts the context.
	RulesOpenClaw
)

func (r TreeRules) String() string {
	switch r {
	case RulesPi:
		return "pi"
	case RulesOpenClaw:
		return "openclaw-2026.9"
	}
	return "auto"
}

// Tree is the id/parentId tree of one transcript, built the way pi's
// SessionManager builds it on load, or the way OpenClaw 2026.9 scans it.
// Nodes are positions in the entry slice it was built from; the header and
// duplicate headers are not nodes.
type Tree struct {
	entries []Entry
	names   *Names

	// Rules are the rules the tree was built with (never RulesAuto).
	Rules TreeRules
	// HasHeader is false when the first parsed line is not a session header
	// with a string id: pi then counts the file as empty, and so do we.
	// (OpenClaw's rules need no header.)
	HasHeader bool
	Version   int

	// Nodes is the number of tree entries (pi's getEntries().length).
	Nodes int
	// Roots are entries whose parent is null, themselves or missing, in file order.
	Roots []int32
	// Leaf is the active leaf, or -1: pi's is the last entry in file order;
	// OpenClaw's is the last session entry appended, or a leaf control's target.
	Leaf int32
	// ActivePath runs from a root to the leaf. Under OpenClaw's rules it
	// skips leaf controls, and it is every entry when no entry sets a leaf,
	// as OpenClaw's active-event projection has it.
	ActivePath []int32
	// BranchPoints are entries with more than one child, in file order.
	BranchPoints []int32
	// Compactions lists every compaction entry in file order.
	Compactions []int32
	// Resets lists every reset boundary in file order.
	Resets []int32
	// LeafControls counts leaf records; InvalidLeafControls those naming an
	// entry that does not exist (OpenClaw ignores them).
	LeafControls, InvalidLeafControls int
	// Context lists the entries that become messages in the model's context for
	// the leaf, as pi's buildSessionContext (or OpenClaw's
	// iterateSessionContextEntries) builds it. The last compaction on the
	// active path stands for its summary message.
	Context []int32
	// ContextMessages is the number of messages Context makes: a pi 1.5
	// compaction with a system checkpoint makes two.
	ContextMessages int
	// Labels maps a target entry id to its label; the last label entry wins
	// and an empty one clears.
	Labels map[string]string
	// Name is the session name from the latest session_info entry.
	Name string
	// DuplicateIDs counts entries whose id an earlier entry already had; the
	// later one wins, as in pi's byId map.
	DuplicateIDs int
	// Cycle is true when a parent chain loops; pi would hang on such a file.
	Cycle bool

	arena  Arena
	byID   idIndex
	parent []int32
	// childStart and childList are built by the first Children call.
	childrenOnce sync.Once
	childStart   []int32
	childList    []int32
	pathMark     []uint64
	// OpenClaw's rules only: leafCtl marks leaf records that parse,
	// ocNodes the entries its scan makes tree nodes, and ocLeafControl is
	// set when a leaf control took effect.
	leafCtl       []bool
	ocNodes       []bool
	ocLeafControl bool
}

// UsesOpenClawRecords reports entries only OpenClaw 2026.9 writes: leaf
// controls, reset boundaries and side appends.
func UsesOpenClawRecords(entries []Entry) bool {
	for i := range entries {
		if e := &entries[i]; e.Type == TypeLeaf || e.Type == TypeReset || e.Flags&FlagSideAppend != 0 {
			return true
		}
	}
	return false
}

// BuildTreeWith builds the tree over entries with the given rules;
// RulesAuto picks the rules that fit them. facts holds the tree fields of
// compaction, reset, branch_summary, label, session_info, leaf and
// context_edit entries by position. Entries of a v1 file must have been
// migrated with MigrateV1 first.
func BuildTreeWith(entries []Entry, facts map[int32]TreeFacts, version int, names *Names, rules TreeRules) *Tree {
	return BuildTreeIn(nil, entries, facts, version, names, rules)
}

// Arena supplies the big arrays of a tree built under pi's rules (its
// nodes, parents, id index and active path: some 20 bytes per entry),
// zeroed; nil, or a nil slice from it, means the Go heap. A command that
// builds one tree and exits passes memory mapped with huge pages and never
// freed: on a virtual machine the first touch of each 4 KiB page of fresh
// heap costs more than the tree's own work.
type Arena interface {
	Int32s(n int) []int32
	Uint64s(n int) []uint64
}

// BuildTreeIn builds the tree with the given rules, its arrays from arena.
func BuildTreeIn(arena Arena, entries []Entry, facts map[int32]TreeFacts, version int, names *Names, rules TreeRules) *Tree {
	if rules == RulesAuto {
		rules = RulesPi
		if UsesOpenClawRecords(entries) {
			rules = RulesOpenClaw
		}
	}
	t := &Tree{entries: entries, names: names, Leaf: -1, Version: version, Labels: map[string]string{}, Rules: rules, arena: arena}
	t.HasHeader = len(entries) > 0 && entries[0].Type == TypeSession && entries[0].Flags&FlagStringID != 0
	if !t.HasHeader && rules == RulesPi {
		return t
	}

	n := len(entries)
	nodes := t.int32s(n)[:0]
	for i := range entries {
		e := &entries[i]
		if e.Type == TypeSession {
			continue
		}
		nodes = append(nodes, int32(i))
		switch e.Type {
		case TypeCompaction:
			t.Compactions = append(t.Compactions, int32(i))
		case TypeReset:
			t.Resets = append(t.Resets, int32(i))
		case TypeLabel:
			f := facts[int32(i)]
			if f.Label != "" {
				t.Labels[f.TargetID] = f.Label
			} else {
				delete(t.Labels, f.TargetID)
			}
		case TypeSessionInfo:
			t.Name = strings.TrimSpace(facts[int32(i)].Label)
		}
	}
	t.Nodes = len(nodes)
	if rules == RulesOpenClaw {
		t.scanOpenClaw(nodes, facts)
	} else if relink := t.linkPi(nodes); relink != nil {
		// The id index is still being built, and every parent was found
		// without it: those hold unless an id repeats. Shape the tree
		// meanwhile, and again if one does.
		t.shape(nodes, facts)
		if !relink() {
			return t
		}
		t.Roots, t.BranchPoints, t.ActivePath, t.Cycle = nil, nil, nil, false
	}
	t.shape(nodes, facts)
	return t
}

// shape derives the rest of the tree from the parent links: roots, branch
// points, the active path, the loop check and the model's context.
func (t *Tree) shape(nodes []int32, facts map[int32]TreeFacts) {
	n := len(t.entries)
	// Roots and branch points from two bitmaps (has a child, has two):
	// the children lists themselves are built on the first Children call,
	// which a command that prints the summary never makes.
	hasChild := t.uint64s((n + 63) / 64)
	branch := t.uint64s((n + 63) / 64)
	for _, i := range nodes {
		p := t.parent[i]
		if p < 0 {
			t.Roots = append(t.Roots, i)
			continue
		}
		if bit := uint64(1) << (p % 64); hasChild[p/64]&bit != 0 {
			branch[p/64] |= bit
		} else {
			hasChild[p/64] |= bit
		}
	}
	for w, word := range branch {
		for ; word != 0; word &= word - 1 {
			t.BranchPoints = append(t.BranchPoints, int32(w*64+bits.TrailingZeros64(word)))
		}
	}

	t.pathMark = t.uint64s((n + 63) / 64)
	if t.Rules == RulesOpenClaw {
		t.activePathOpenClaw(nodes)
	} else {
		size := 0
		for cur := t.Leaf; cur >= 0; cur = t.parent[cur] {
			if t.OnPath(cur) {
				t.Cycle = true
				break
			}
			t.pathMark[cur/64] |= 1 << (cur % 64)
			size++
		}
		// Filled from the end: one slice of the path's size, no growing.
		if size > 0 {
			t.ActivePath = t.int32s(size)
		}
		for cur := t.Leaf; size > 0; cur = t.parent[cur] {
			size--
			t.ActivePath[size] = cur
		}
	}
	if !t.Cycle && !parentsPrecede(t.parent) {
		t.Cycle = t.hasUnreachable()
	}
	if t.Rules == RulesOpenClaw {
		t.Context = t.buildContextOpenClaw(facts)
	} else {
		t.Context = t.buildContext(facts)
	}
	t.ContextMessages = len(t.Context)
	if len(t.Context) > 0 && t.entries[t.Context[0]].Type == TypeCompaction && facts[t.Context[0]].HasSystemMessage {
		t.ContextMessages++
	}
}

// linkPi sets each node's parent as pi does: the entry with its parentId
// (the last one when ids repeat), and the leaf: the last entry. When every
// parent is the entry before, it returns before the id index is done,
// with relink: it waits for the index and, when an id repeats, links again
// and returns true.
func (t *Tree) linkPi(nodes []int32) (relink func() bool) {
	entries := t.entries
	n := len(entries)
	if len(nodes) > 0 {
		t.Leaf = nodes[len(nodes)-1]
	}
	// The id index (a radix sort) is built beside the parent pass, which
	// needs it only for the rare parent that is not the entry before.
	var superseded map[int32]bool
	indexed := make(chan struct{})
	keys := t.uint64s(len(nodes)) // here: an arena serves one goroutine
	go func() {
		t.byID, t.DuplicateIDs, superseded = newIDIndexIn(keys, entries, nodes)
		close(indexed)
	}()
	t.parent = t.int32s(n)
	for i := range t.parent {
		t.parent[i] = -1
	}
	var lookups []int32 // nodes whose parent must be looked up
	prev := int32(-1)
	for _, i := range nodes {
		e := &entries[i]
		switch {
		case e.ParentID == NoID || e.ParentID == e.ID:
		case prev >= 0 && entries[prev].ID == e.ParentID:
			t.parent[i] = prev
		default:
			lookups = append(lookups, i)
		}
		prev = i
	}
	if len(lookups) == 0 {
		// Every parent is the entry before: only a repeated id (a later
		// entry taking an earlier one's place) can change that.
		return func() bool {
			<-indexed
			if len(superseded) == 0 {
				return false
			}
			t.relinkPi(nodes)
			return true
		}
	}
	<-indexed
	if len(superseded) > 0 {
		t.relinkPi(nodes)
		return nil
	}
	for _, i := range lookups {
		if p, ok := t.byID.get(entries, entries[i].ParentID); ok {
			t.parent[i] = p
		}
	}
	return nil
}

// relinkPi looks every parent up in the id index: a later entry reuses an
// id, so that the entry before may not be the one that wins.
func (t *Tree) relinkPi(nodes []int32) {
	entries := t.entries
	for _, i := range nodes {
		if e := &entries[i]; e.ParentID != NoID && e.ParentID != e.ID {
			t.parent[i] = -1
			if p, ok := t.byID.get(entries, e.ParentID); ok {
				t.parent[i] = p
			}
		}
	}
}

func (t *Tree) sortByTime(kids []int32) {
	for _, k := range kids {
		if t.entries[k].TimeMs == NoTime {
			// pi compares NaN dates as equal; keep file order.
			return
		}
	}
	slices.SortStableFunc(kids, func(a, b int32) int {
		ta, tb := t.entries[a].TimeMs, t.entries[b].TimeMs
		switch {
		case ta < tb:
			return -1
		case ta > tb:
			return 1
		}
		return 0
	})
}

// hasUnreachable reports nodes from which no root can be reached: their
// parents form a loop. Each node's answer is memoised, so with parents
// that mostly precede their children this is one pass.
func (t *Tree) hasUnreachable() bool {
	const unknown, reachable, loops, visiting = 0, 1, 2, 3
	state := make([]uint8, len(t.entries))
	var stack []int32
	for i := range t.entries {
		if t.entries[i].Type == TypeSession || state[i] != unknown {
			continue
		}
		stack = stack[:0]
		cur, result := int32(i), uint8(reachable)
		for {
			if s := state[cur]; s == reachable || s == loops {
				result = s
				break
			} else if s == visiting {
				result = loops
				break
			}
			state[cur] = visiting
			stack = append(stack, cur)
			if t.parent[cur] < 0 {
				break
			}
			cur = t.parent[cur]
		}
		for _, k := range stack {
			state[k] = result
		}
		if result == loops {
			return true
		}
	}
	return false
}

// buildContext mirrors pi's buildSessionContext: only the last compaction
// on the path counts; it stands for its summary, followed by the path
// entries from firstKeptEntryId up to it (pi 1.5 leaves system messages of
// that range out), then everything after it. Only message, custom_message
// and non-empty branch_summary entries produce messages, and pi 1.5's
// context_edit entries with a null replacement take their target out (the
// latest edit of a target wins).
func (t *Tree) buildContext(facts map[int32]TreeFacts) []int32 {
	path := t.ActivePath
	compIdx := -1
	for i, e := range path {
		if t.entries[e].Type == TypeCompaction {
			compIdx = i
		}
	}
	produces := func(i int32) bool {
		switch t.entries[i].Type {
		case TypeMessage, TypeCustomMessage:
			return true
		case TypeBranchSummary:
			return facts[i].HasSummary
		}
		return false
	}
	var ctx, edits []int32
	add := func(e int32) {
		if produces(e) {
			ctx = append(ctx, e)
		} else if t.entries[e].Type == TypeContextEdit {
			edits = append(edits, e)
		}
	}
	if compIdx < 0 {
		for _, e := range path {
			add(e)
		}
		return t.applyContextEdits(ctx, edits, facts)
	}
	comp := path[compIdx]
	ctx = append(ctx, comp)
	firstKept, known := t.names.Find(facts[comp].FirstKeptEntryID)
	found := false
	for _, e := range path[:compIdx] {
		if known && t.entries[e].ID == firstKept {
			found = true
		}
		if found && !(t.entries[e].Type == TypeMessage && t.entries[e].Role == RoleSystem) {
			add(e)
		}
	}
	for _, e := range path[compIdx+1:] {
		add(e)
	}
	return t.applyContextEdits(ctx, edits, facts)
}

// applyContextEdits removes the targets whose latest context_edit has a
// null replacement (a non-null one changes only the content).
func (t *Tree) applyContextEdits(ctx, edits []int32, facts map[int32]TreeFacts) []int32 {
	if len(edits) == 0 {
		return ctx
	}
	omit := map[string]bool{}
	for _, e := range edits {
		f := facts[e]
		omit[f.TargetID] = f.ReplacementNull
	}
	return slices.DeleteFunc(ctx, func(e int32) bool {
		return t.entries[e].Type != TypeCompaction && omit[t.ID(e)]
	})
}

// int32s and uint64s are zeroed arrays from the tree's arena, or the heap.
func (t *Tree) int32s(n int) []int32 {
	if t.arena != nil {
		if s := t.arena.Int32s(n); s != nil {
			return s
		}
	}
	return make([]int32, n)
}

func (t *Tree) uint64s(n int) []uint64 {
	if t.arena != nil {
		if s := t.arena.Uint64s(n); s != nil {
			return s
		}
	}
	return make([]uint64, n)
}

// Entry returns the entry at position i.
func (t *Tree) Entry(i int32) *Entry { return &t.entries[i] }

// Parent returns the parent position of i, or -1 for a root.
func (t *Tree) Parent(i int32) int32 {
	if t.parent == nil {
		return -1
	}
	return t.parent[i]
}

// Children returns the children of i, oldest first. The slice must not be
// modified. The first call builds the lists of every entry's children.
func (t *Tree) Children(i int32) []int32 {
	t.childrenOnce.Do(t.buildChildren)
	if t.childStart == nil {
		return nil
	}
	return t.childList[t.childStart[i]:t.childStart[i+1]]
}

// buildChildren lists the children of every entry in compressed rows: the
// children of i are childList[childStart[i]:childStart[i+1]], in file
// order, then sorted by timestamp as pi sorts them (stable, oldest first).
func (t *Tree) buildChildren() {
	if t.parent == nil {
		return
	}
	n := len(t.entries)
	t.childStart = make([]int32, n+1)
	for _, p := range t.parent {
		if p >= 0 {
			t.childStart[p+1]++
		}
	}
	for i := 1; i <= n; i++ {
		t.childStart[i] += t.childStart[i-1]
	}
	// Filled backwards, each row from its end: childStart[p+1] steps down
	// to p's start, so that childStart ends up shifted by one row (no
	// second array of n counters).
	t.childList = make([]int32, t.childStart[n])
	for i := n - 1; i >= 0; i-- {
		if p := t.parent[i]; p >= 0 {
			t.childStart[p+1]--
			t.childList[t.childStart[p+1]] = int32(i)
		}
	}
	copy(t.childStart[:n], t.childStart[1:])
	t.childStart[n] = int32(len(t.childList))
	for _, b := range t.BranchPoints {
		t.sortByTime(t.childList[t.childStart[b]:t.childStart[b+1]])
	}
}

// parentsPrecede reports that every parent comes before its child in the
// file: then no parent chain can loop.
func parentsPrecede(parent []int32) bool {
	for i, p := range parent {
		if p >= int32(i) {
			return false
		}
	}
	return true
}

// OnPath reports whether i lies on the active path.
func (t *Tree) OnPath(i int32) bool {
	if t.pathMark == nil || i < 0 {
		return false
	}
	return t.pathMark[i/64]&(1<<(i%64)) != 0
}

// Lookup returns the position of the entry with the given id (the last one
// when ids repeat).
func (t *Tree) Lookup(id string) (int32, bool) {
	eid, ok := t.names.Find(id)
	if !ok {
		return 0, false
	}
	return t.byID.get(t.entries, eid)
}

// ID returns the id of the entry at position i, as written in the file.
func (t *Tree) ID(i int32) string {
	return t.names.String(t.entries[i].ID)
}

// AppendID appends the id of the entry at position i to dst.
func (t *Tree) AppendID(dst []byte, i int32) []byte {
	return t.names.AppendString(dst, t.entries[i].ID)
}

// IDs maps positions to entry ids.
func (t *Tree) IDs(idx []int32) []string {
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = t.ID(i)
	}
	return out
}

// LeafID is the id of the leaf, or "" when the tree is empty.
func (t *Tree) LeafID() string {
	if t.Leaf < 0 {
		return ""
	}
	return t.ID(t.Leaf)
}

// MigrateV1 gives the entries of a v1 file ids and parent links, as pi's
// migrateV1ToV2 does when it opens one: each entry's parent is the previous
// entry, and a compaction's firstKeptEntryIndex becomes firstKeptEntryId. pi
// writes random ids back into the file; we migrate in memory and derive ids
// from line numbers so that reopening the file gives the same ones.
func MigrateV1(entries []Entry, facts map[int32]TreeFacts) {
	prev := NoID
	for i := range entries {
		e := &entries[i]
		if e.Type == TypeSession {
			continue
		}
		e.ID = v1ID(e.Line)
		e.ParentID = prev
		prev = e.ID
		if e.Type != TypeCompaction {
			continue
		}
		f, ok := facts[int32(i)]
		if !ok {
			continue
		}
		// Only an earlier entry already has its id when pi resolves the index.
		if k := f.FirstKeptEntryIndex; k >= 0 && k < i && entries[k].Type != TypeSession {
			f.FirstKeptEntryID = V1EntryID(entries[k].Line)
		}
		facts[int32(i)] = f
	}
}

// V1EntryID is the id MigrateV1 gives the entry on a line of a v1 file.
func V1EntryID(line int32) string {
	return "v1-" + strconv.Itoa(int(line))
}
