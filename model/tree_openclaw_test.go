package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// oc builds entries as OpenClaw writes them: a header, then entries with a
// parentId key ("" is null).
func oc(list ...Entry) []Entry {
	for i := range list {
		if list[i].Type != TypeSession && list[i].Flags&flagNoParentKey == 0 {
			list[i].Flags |= FlagParentKey
		}
		list[i].Flags &^= flagNoParentKey
	}
	return build(append([]Entry{hdr()}, list...)...)
}

// flagNoParentKey marks, for oc, an entry written without a parentId key.
const flagNoParentKey EntryFlags = 1 << 7

func role(e Entry, r Role) Entry            { e.Role = r; return e }
func flag(e Entry, f EntryFlags) Entry      { e.Flags |= f; return e }
func leafTo(id, parent string) Entry        { return ent(TypeLeaf, id, parent) }
func asst(id, parent string, t int64) Entry { return role(msg(id, parent, t), RoleAssistant) }

func TestOpenClawRules(t *testing.T) {
	tests := []struct {
		name    string
		entries []Entry
		facts   map[int32]TreeFacts
		leaf    string
		path    []string
		context []string
		roots   []string
		invalid int
		cycle   bool
	}{
		{
			name:    "a leaf control selects an earlier entry; what follows continues from it",
			entries: oc(msg("a", "", 1), asst("b", "a", 2), msg("c", "b", 3), asst("d", "c", 4), leafTo("l", "d"), msg("e", "b", 6), asst("f", "e", 7)),
			facts:   map[int32]TreeFacts{5: {Target: RefID, TargetID: "b"}},
			leaf:    "f", path: []string{"a", "b", "e", "f"}, context: []string{"a", "b", "e", "f"}, roots: []string{"a"},
		},
		{
			name:    "an entry whose parent is the marker continues through its target",
			entries: oc(msg("a", "", 1), asst("b", "a", 2), leafTo("l", "b"), asst("c", "l", 4)),
			facts:   map[int32]TreeFacts{3: {Target: RefID, TargetID: "a"}},
			leaf:    "c", path: []string{"a", "c"}, context: []string{"a", "c"}, roots: []string{"a"},
		},
		{
			name: "a side append does not move the leaf; an entry parented on it continues from the leaf",
			entries: oc(msg("a", "", 1), asst("b", "a", 2), flag(flag(ent(TypeCustom, "s", ""), FlagSideAppend), flagNoParentKey),
				msg("c", "s", 4), asst("d", "c", 5)),
			leaf: "d", path: []string{"a", "b", "c", "d"}, context: []string{"a", "b", "c", "d"}, roots: []string{"a"},
		},
		{
			name: "a reset boundary keeps the user and assistant messages and paired tool results from firstKeptEntryId",
			entries: oc(msg("a", "", 1), asst("b", "a", 2), msg("c", "b", 3), asst("d", "c", 4), role(msg("e", "d", 5), RoleToolResult),
				ent(TypeCustom, "x", "e"), ent(TypeReset, "r", "x"), msg("f", "r", 8), asst("g", "f", 9)),
			facts: map[int32]TreeFacts{7: {FirstKeptEntryID: "c", Label: "new"}},
			leaf:  "g", path: []string{"a", "b", "c", "d", "e", "x", "r", "f", "g"}, context: []string{"c", "d", "e", "f", "g"}, roots: []string{"a"},
		},
		{
			name:    "after a reset, a leaf control to before it stays put, and a parent before it means the leaf",
			entries: oc(msg("a", "", 1), asst("b", "a", 2), ent(TypeReset, "r", "b"), msg("c", "r", 4), leafTo("l", "c"), asst("d", "a", 6)),
			facts:   map[int32]TreeFacts{3: {Label: "reset"}, 5: {Target: RefID, TargetID: "a"}},
			leaf:    "d", path: []string{"a", "b", "r", "c", "d"}, context: []string{"c", "d"}, roots: []string{"a"},
		},
		{
			name:    "a leaf control naming no entry is ignored",
			entries: oc(msg("a", "", 1), asst("b", "a", 2), leafTo("l", "b"), msg("c", "b", 4)),
			facts:   map[int32]TreeFacts{3: {Target: RefID, TargetID: "nosuchid"}},
			leaf:    "c", path: []string{"a", "b", "c"}, context: []string{"a", "b", "c"}, roots: []string{"a"}, invalid: 1,
		},
		{
			name:    "a missing parent continues from the leaf",
			entries: oc(msg("a", "", 1), asst("b", "a", 2), msg("c", "gone", 3), asst("d", "c", 4)),
			leaf:    "d", path: []string{"a", "b", "c", "d"}, context: []string{"a", "b", "c", "d"}, roots: []string{"a"},
		},
		{
			name:    "usage and context_edit entries do not move the leaf",
			entries: oc(msg("a", "", 1), asst("b", "a", 2), ent(TypeUsage, "u", "b"), ent(TypeContextEdit, "e", "u"), msg("c", "e", 5)),
			facts:   map[int32]TreeFacts{4: {TargetID: "a", ReplacementNull: true}},
			leaf:    "c", path: []string{"a", "b", "c"}, context: []string{"a", "b", "c"}, roots: []string{"a"},
		},
		{
			name:    "excludeFromContext leaves a message out of the context, not the path",
			entries: oc(msg("a", "", 1), flag(role(msg("b", "a", 2), RoleBashExecution), FlagExcludeContext), asst("c", "b", 3)),
			leaf:    "c", path: []string{"a", "b", "c"}, context: []string{"a", "c"}, roots: []string{"a"},
		},
		{
			name: "the last boundary counts: a reset after a compaction",
			entries: oc(msg("a", "", 1), asst("b", "a", 2), msg("c", "b", 3), ent(TypeCompaction, "k", "c"), asst("d", "k", 5),
				ent(TypeReset, "r", "d"), msg("e", "r", 7)),
			facts: map[int32]TreeFacts{4: {FirstKeptEntryID: "b"}, 6: {FirstKeptEntryID: "d"}},
			leaf:  "e", path: []string{"a", "b", "c", "k", "d", "r", "e"}, context: []string{"d", "e"}, roots: []string{"a"},
		},
		{
			name:    "a compaction stands for its summary, then the kept entries",
			entries: oc(msg("a", "", 1), asst("b", "a", 2), msg("c", "b", 3), ent(TypeCompaction, "k", "c"), asst("d", "k", 5)),
			facts:   map[int32]TreeFacts{4: {FirstKeptEntryID: "b"}},
			leaf:    "d", path: []string{"a", "b", "c", "k", "d"}, context: []string{"k", "b", "c", "d"}, roots: []string{"a"},
		},
		{
			name:    "a leaf control to null leaves no active path",
			entries: oc(msg("a", "", 1), asst("b", "a", 2), leafTo("l", "b")),
			facts:   map[int32]TreeFacts{3: {Target: RefNull}},
			leaf:    "", roots: []string{"a", "l"},
		},
		{
			name:    "a canonical entry without a parentId key continues from the leaf",
			entries: oc(msg("a", "", 1), flag(ent(TypeModelChange, "m", ""), flagNoParentKey), asst("b", "m", 3)),
			leaf:    "b", path: []string{"a", "m", "b"}, context: []string{"a", "b"}, roots: []string{"a"},
		},
		{
			name:    "a looping path is empty",
			entries: oc(msg("a", "b", 1), asst("b", "a", 2), leafTo("l", "b")),
			facts:   map[int32]TreeFacts{3: {Target: RefID, TargetID: "a"}},
			leaf:    "a", cycle: true,
		},
		{
			name:    "appendParentId: the next entry continues from the target, the side entry from where it was",
			entries: oc(msg("a", "", 1), asst("b", "a", 2), flag(leafTo("l", "b"), FlagSideAppend), flag(ent(TypeCustom, "s", "b"), FlagSideAppend), msg("c", "a", 5)),
			facts:   map[int32]TreeFacts{3: {Target: RefID, TargetID: "a", AppendParent: RefID, AppendParentID: "b"}},
			leaf:    "c", path: []string{"a", "c"}, context: []string{"a", "c"}, roots: []string{"a"},
		},
		{
			name:    "a leaf record with another appendMode is no control",
			entries: oc(msg("a", "", 1), asst("b", "a", 2), leafTo("l", "b"), msg("c", "b", 4)),
			facts:   map[int32]TreeFacts{3: {Target: RefID, TargetID: "a", AppendModeBad: true}},
			leaf:    "c", path: []string{"a", "b", "c"}, context: []string{"a", "b", "c"}, roots: []string{"a", "l"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			facts := tt.facts
			if facts == nil {
				facts = map[int32]TreeFacts{}
			}
			tr := BuildTreeWith(tt.entries, facts, 3, names, RulesOpenClaw)
			if tr.LeafID() != tt.leaf {
				t.Errorf("leaf = %q, want %q", tr.LeafID(), tt.leaf)
			}
			for _, c := range []struct {
				what      string
				got, want []string
			}{
				{"active path", tr.IDs(tr.ActivePath), tt.path},
				{"context", tr.IDs(tr.Context), tt.context},
				{"roots", tr.IDs(tr.Roots), tt.roots},
			} {
				if len(c.got)+len(c.want) > 0 && !slices.Equal(c.got, c.want) {
					t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
				}
			}
			if tr.InvalidLeafControls != tt.invalid {
				t.Errorf("invalid leaf controls = %d, want %d", tr.InvalidLeafControls, tt.invalid)
			}
			if tr.Cycle != tt.cycle {
				t.Errorf("cycle = %v, want %v", tr.Cycle, tt.cycle)
			}
			if tr.Rules != RulesOpenClaw {
				t.Errorf("rules = %v", tr.Rules)
			}
		})
	}
}

func TestRulesAuto(t *testing.T) {
	plain := oc(msg("a", "", 1), asst("b", "a", 2), ent(TypeModelChange, "m", "b"))
	if tr := BuildTree(plain, map[int32]TreeFacts{}, 3, names); tr.Rules != RulesPi || tr.LeafID() != "m" {
		t.Errorf("a pi transcript: rules %v, leaf %q (pi: the last entry)", tr.Rules, tr.LeafID())
	}
	for name, extra := range map[string]Entry{
		"leaf control": leafTo("l", "b"),
		"reset":        ent(TypeReset, "r", "b"),
		"side append":  flag(ent(TypeCustom, "s", "b"), FlagSideAppend),
	} {
		entries := oc(msg("a", "", 1), asst("b", "a", 2), extra)
		facts := map[int32]TreeFacts{3: {Target: RefID, TargetID: "a"}}
		if tr := BuildTree(entries, facts, 3, names); tr.Rules != RulesOpenClaw {
			t.Errorf("with a %s: rules %v, want OpenClaw's", name, tr.Rules)
		}
	}
}

// pi 1.5's entry types under pi's rules: usage entries are entries (and
// the leaf when last), a context_edit with a null replacement takes its
// target out of the context (the latest edit wins), system messages among
// the kept entries of a compaction are left out, and a compaction with a
// system checkpoint makes two messages.
func TestPi15Entries(t *testing.T) {
	entries := oc(role(msg("s", "", 1), RoleSystem), msg("a", "s", 2), asst("b", "a", 3), ent(TypeContextEdit, "e1", "b"),
		ent(TypeContextEdit, "e2", "e1"), ent(TypeContextEdit, "e3", "e2"), ent(TypeUsage, "u", "e3"))
	facts := map[int32]TreeFacts{4: {TargetID: "a", ReplacementNull: true}, 5: {TargetID: "b", ReplacementNull: true}, 6: {TargetID: "b"}}
	tr := BuildTreeWith(entries, facts, 3, names, RulesPi)
	if tr.LeafID() != "u" {
		t.Errorf("leaf %q, want the usage entry", tr.LeafID())
	}
	if got := tr.IDs(tr.Context); !slices.Equal(got, []string{"s", "b"}) {
		t.Errorf("context %v, want [s b]: a's edit omits it, b's latest edit replaces it", got)
	}

	entries = oc(msg("a", "", 1), role(msg("s", "a", 2), RoleSystem), asst("b", "s", 3), ent(TypeCompaction, "k", "b"), msg("c", "k", 5))
	facts = map[int32]TreeFacts{4: {FirstKeptEntryID: "a", HasSystemMessage: true}}
	tr = BuildTreeWith(entries, facts, 3, names, RulesPi)
	if got := tr.IDs(tr.Context); !slices.Equal(got, []string{"k", "a", "b", "c"}) || tr.ContextMessages != 5 {
		t.Errorf("context %v (%d messages), want [k a b c] and 5 messages", got, tr.ContextMessages)
	}
}

// The previous-node shortcut of OpenClaw's rules (a node's parent, when it
// is the node before and no id repeats, needs no lookup) builds the same
// tree as looking every parent up, on random transcripts of messages, side
// appends, leaf controls, resets and compactions.
func TestOpenClawPreviousNodeShortcut(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 13))
	for round := range 2000 {
		n := 2 + rng.IntN(30)
		list := []Entry{}
		facts := map[int32]TreeFacts{}
		id := func(k int) string { return fmt.Sprintf("e%d", k) }
		for k := range n {
			parent := ""
			switch r := rng.IntN(10); {
			case k == 0 || r == 0:
			case r < 7:
				parent = id(k - 1)
			default:
				parent = id(rng.IntN(k))
			}
			pos := int32(len(list) + 1) // after the header
			var e Entry
			switch r := rng.IntN(12); {
			case r < 6:
				e = role(msg(id(k), parent, int64(k)), Role(1+rng.IntN(3)))
			case r < 7:
				e = flag(ent(TypeCustom, id(k), parent), FlagSideAppend)
			case r < 8:
				e = leafTo(id(k), parent)
				target := id(rng.IntN(k + 1))
				facts[pos] = TreeFacts{Target: RefID, TargetID: target}
			case r < 9:
				e = ent(TypeReset, id(k), parent)
				facts[pos] = TreeFacts{FirstKeptEntryID: id(rng.IntN(k + 1))}
			case r < 10:
				e = ent(TypeCompaction, id(k), parent)
				facts[pos] = TreeFacts{FirstKeptEntryID: id(rng.IntN(k + 1))}
			default:
				e = ent(TypeCustom, id(k), parent)
			}
			if rng.IntN(8) == 0 && e.Type != TypeLeaf {
				e.Flags |= flagNoParentKey
			}
			list = append(list, e)
		}
		entries := oc(list...)
		fast := BuildTreeWith(slices.Clone(entries), facts, 3, names, RulesOpenClaw)
		lookupEveryParent = true
		slow := BuildTreeWith(slices.Clone(entries), facts, 3, names, RulesOpenClaw)
		lookupEveryParent = false
		if fast.Leaf != slow.Leaf || !slices.Equal(fast.parent, slow.parent) || !slices.Equal(fast.ActivePath, slow.ActivePath) ||
			!slices.Equal(fast.Context, slow.Context) || !slices.Equal(fast.Roots, slow.Roots) ||
			fast.InvalidLeafControls != slow.InvalidLeafControls || fast.Cycle != slow.Cycle {
			t.Fatalf("round %d: with the shortcut leaf %d path %v parents %v; looked up leaf %d path %v parents %v",
				round, fast.Leaf, fast.ActivePath, fast.parent, slow.Leaf, slow.ActivePath, slow.parent)
		}
	}
}
