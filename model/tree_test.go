package model

import (
	"slices"
	"testing"
)

// names interns the ids of the entries these tests build.
var names = NewNames()

func build(list ...Entry) []Entry {
	for i := range list {
		list[i].Line = int32(i + 1)
		if list[i].Type == TypeSession || list[i].ID != NoID {
			list[i].Flags |= FlagStringID
		}
	}
	return list
}

func hdr() Entry { return Entry{Type: TypeSession, ID: names.Intern("s")} }
func msg(id, parent string, t int64) Entry {
	return Entry{Type: TypeMessage, ID: names.Intern(id), ParentID: names.Intern(parent), TimeMs: t, Role: RoleUser}
}
func ent(typ EntryType, id, parent string) Entry {
	return Entry{Type: typ, ID: names.Intern(id), ParentID: names.Intern(parent), TimeMs: NoTime}
}

func TestBuildTreeShapes(t *testing.T) {
	tests := []struct {
		name     string
		entries  []Entry
		facts    map[int32]TreeFacts
		nodes    int
		leaf     string
		roots    []string
		branches []string
		path     []string
		context  []string
		labels   map[string]string
		name_    string
		dups     int
		cycle    bool
	}{
		{
			name:    "empty file",
			entries: nil,
			roots:   nil, path: nil,
		},
		{
			name:    "no header: pi treats the file as empty",
			entries: build(msg("a", "", 1), msg("b", "a", 2)),
		},
		{
			name:    "header only",
			entries: build(hdr()),
		},
		{
			name:    "linear",
			entries: build(hdr(), msg("a", "", 1), msg("b", "a", 2), msg("c", "b", 3)),
			nodes:   3, leaf: "c", roots: []string{"a"}, path: []string{"a", "b", "c"}, context: []string{"a", "b", "c"},
		},
		{
			name:    "children sort by time, not file order",
			entries: build(hdr(), msg("a", "", 1), msg("late", "a", 30), msg("early", "a", 20)),
			nodes:   3, leaf: "early", roots: []string{"a"}, branches: []string{"a"},
			path: []string{"a", "early"}, context: []string{"a", "early"},
		},
		{
			name:    "orphans and self-parents are roots, in file order",
			entries: build(hdr(), msg("a", "", 1), msg("b", "missing", 2), msg("c", "c", 3), msg("d", "a", 4)),
			nodes:   4, leaf: "d", roots: []string{"a", "b", "c"}, path: []string{"a", "d"}, context: []string{"a", "d"},
		},
		{
			name:    "the leaf is the last entry of any type",
			entries: build(hdr(), msg("a", "", 1), msg("b", "a", 2), ent(TypeLabel, "l", "b"), ent(TypeModelChange, "m", "a")),
			facts:   map[int32]TreeFacts{3: {TargetID: "a", Label: "first"}},
			nodes:   4, leaf: "m", roots: []string{"a"}, branches: []string{"a"},
			path: []string{"a", "m"}, context: []string{"a"}, labels: map[string]string{"a": "first"},
		},
		{
			name: "labels: last wins, empty clears; session name: latest",
			entries: build(hdr(), msg("a", "", 1), ent(TypeLabel, "l1", "a"), ent(TypeLabel, "l2", "l1"), ent(TypeLabel, "l3", "l2"),
				ent(TypeSessionInfo, "n1", "l3"), ent(TypeSessionInfo, "n2", "n1")),
			facts: map[int32]TreeFacts{
				2: {TargetID: "a", Label: "x"}, 3: {TargetID: "a", Label: "y"}, 4: {TargetID: "zz", Label: ""},
				5: {Label: "First"}, 6: {Label: "  Second  "},
			},
			nodes: 6, leaf: "n2", roots: []string{"a"}, path: []string{"a", "l1", "l2", "l3", "n1", "n2"}, context: []string{"a"},
			labels: map[string]string{"a": "y"}, name_: "Second",
		},
		{
			name: "compaction: summary, kept entries from firstKeptEntryId, then the rest",
			entries: build(hdr(), msg("a", "", 1), msg("b", "a", 2), ent(TypeModelChange, "mc", "b"), msg("c", "mc", 3),
				ent(TypeCompaction, "k", "c"), msg("d", "k", 4), ent(TypeCustom, "cu", "d"), ent(TypeCustomMessage, "cm", "cu")),
			facts: map[int32]TreeFacts{5: {FirstKeptEntryID: "b", TokensBefore: 1000}},
			nodes: 8, leaf: "cm", roots: []string{"a"},
			path:    []string{"a", "b", "mc", "c", "k", "d", "cu", "cm"},
			context: []string{"k", "b", "c", "d", "cm"},
		},
		{
			name:    "only the last compaction on the path counts",
			entries: build(hdr(), msg("a", "", 1), ent(TypeCompaction, "k1", "a"), msg("b", "k1", 2), ent(TypeCompaction, "k2", "b"), msg("c", "k2", 3)),
			facts:   map[int32]TreeFacts{2: {FirstKeptEntryID: "a"}, 4: {FirstKeptEntryID: "b"}},
			nodes:   5, leaf: "c", roots: []string{"a"}, path: []string{"a", "k1", "b", "k2", "c"},
			context: []string{"k2", "b", "c"},
		},
		{
			name:    "a firstKeptEntryId off the path keeps nothing before the compaction",
			entries: build(hdr(), msg("a", "", 1), ent(TypeCompaction, "k", "a"), msg("b", "k", 2)),
			facts:   map[int32]TreeFacts{2: {FirstKeptEntryID: "nope"}},
			nodes:   3, leaf: "b", roots: []string{"a"}, path: []string{"a", "k", "b"}, context: []string{"k", "b"},
		},
		{
			name:    "branch summaries produce a message only when non-empty",
			entries: build(hdr(), msg("a", "", 1), ent(TypeBranchSummary, "bs1", "a"), ent(TypeBranchSummary, "bs2", "bs1"), msg("b", "bs2", 2)),
			facts:   map[int32]TreeFacts{2: {FromID: "a", HasSummary: true}, 3: {FromID: "bs1"}},
			nodes:   4, leaf: "b", roots: []string{"a"}, path: []string{"a", "bs1", "bs2", "b"}, context: []string{"a", "bs1", "b"},
		},
		{
			name:    "a duplicate header mid-file is not an entry",
			entries: build(hdr(), msg("a", "", 1), hdr(), msg("b", "a", 2)),
			nodes:   2, leaf: "b", roots: []string{"a"}, path: []string{"a", "b"}, context: []string{"a", "b"},
		},
		{
			name:    "duplicate ids: the later entry wins",
			entries: build(hdr(), msg("a", "", 1), msg("x", "a", 2), msg("x", "a", 3), msg("b", "x", 4)),
			nodes:   4, leaf: "b", roots: []string{"a"}, branches: []string{"a"}, path: []string{"a", "x", "b"}, context: []string{"a", "x", "b"},
			dups: 1,
		},
		{
			name:    "every parent is the entry before, but an id repeats: the later entry wins, into a loop",
			entries: build(hdr(), msg("a", "", 1), msg("b", "a", 2), msg("a", "b", 3), msg("c", "a", 4)),
			nodes:   4, leaf: "c", roots: []string{"a"}, branches: []string{"a"}, path: []string{"b", "a", "c"}, context: []string{"b", "a", "c"},
			dups: 1, cycle: true,
		},
		{
			name:    "a parent loop does not hang",
			entries: build(hdr(), msg("a", "b", 1), msg("b", "a", 2)),
			nodes:   2, leaf: "b", path: []string{"a", "b"}, context: []string{"a", "b"}, cycle: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			facts := tt.facts
			if facts == nil {
				facts = map[int32]TreeFacts{}
			}
			tr := BuildTree(tt.entries, facts, 3, names)
			check := func(what string, got, want []string) {
				t.Helper()
				if len(got) == 0 && len(want) == 0 {
					return
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s = %v, want %v", what, got, want)
				}
			}
			if tr.Nodes != tt.nodes {
				t.Errorf("nodes = %d, want %d", tr.Nodes, tt.nodes)
			}
			if tr.LeafID() != tt.leaf {
				t.Errorf("leaf = %q, want %q", tr.LeafID(), tt.leaf)
			}
			check("roots", tr.IDs(tr.Roots), tt.roots)
			check("branch points", tr.IDs(tr.BranchPoints), tt.branches)
			check("active path", tr.IDs(tr.ActivePath), tt.path)
			check("context", tr.IDs(tr.Context), tt.context)
			if len(tr.Labels) != len(tt.labels) {
				t.Errorf("labels = %v, want %v", tr.Labels, tt.labels)
			}
			for k, v := range tt.labels {
				if tr.Labels[k] != v {
					t.Errorf("label %s = %q, want %q", k, tr.Labels[k], v)
				}
			}
			if tr.Name != tt.name_ {
				t.Errorf("name = %q, want %q", tr.Name, tt.name_)
			}
			if tr.DuplicateIDs != tt.dups {
				t.Errorf("duplicate ids = %d, want %d", tr.DuplicateIDs, tt.dups)
			}
			if tr.Cycle != tt.cycle {
				t.Errorf("cycle = %v, want %v", tr.Cycle, tt.cycle)
			}
			for _, i := range tr.ActivePath {
				if !tr.OnPath(i) {
					t.Errorf("OnPath(%d) = false for an entry on the path", i)
				}
			}
		})
	}
}

func TestMigrateV1(t *testing.T) {
	// v1: no ids; the compaction keeps from parsed entry index 2.
	entries := build(Entry{Type: TypeSession}, Entry{Type: TypeMessage}, Entry{Type: TypeMessage},
		Entry{Type: TypeMessage}, Entry{Type: TypeCompaction}, Entry{Type: TypeMessage})
	entries[0].Flags |= FlagStringID
	facts := map[int32]TreeFacts{4: {FirstKeptEntryIndex: 2}}
	MigrateV1(entries, facts)
	tr := BuildTree(entries, facts, 1, names)
	want := []string{"v1-2", "v1-3", "v1-4", "v1-5", "v1-6"}
	if got := tr.IDs(tr.ActivePath); !slices.Equal(got, want) {
		t.Errorf("path = %v, want %v", got, want)
	}
	if got := facts[4].FirstKeptEntryID; got != "v1-3" {
		t.Errorf("firstKeptEntryId = %q, want v1-3", got)
	}
	if got := tr.IDs(tr.Context); !slices.Equal(got, []string{"v1-5", "v1-3", "v1-4", "v1-6"}) {
		t.Errorf("context = %v", got)
	}
	// A second migration of the same entries gives the same ids.
	MigrateV1(entries, facts)
	if got := BuildTree(entries, facts, 1, names).IDs(tr.ActivePath); !slices.Equal(got, want) {
		t.Errorf("re-migration changed ids: %v", got)
	}
}
