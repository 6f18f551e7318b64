package cli

import (
	"io"

	"clawvault-tui/model"
)

// writeTreeJSON writes the tree document as writeJSON would write it,
// field by field in treeDoc's order, with the lists of entries streamed
// from their positions in t: a million-entry active path is written
// without a string per entry or the whole document in memory.
func writeTreeJSON(w io.Writer, doc treeDoc, t *model.Tree) error {
	s := newJSONStream(w)
	field := func(name string, v any) {
		s.Key(name)
		s.Value(v)
	}
	var id []byte
	ids := func(name string, idx []int32) {
		s.Key(name)
		s.Array()
		for _, i := range idx {
			id = t.AppendID(id[:0], i)
			s.value()
			s.b = appendJSONString(s.b, id)
			s.flushSome()
		}
		s.End(']')
	}
	s.Object()
	field("file", doc.File)
	field("header", doc.Header)
	field("entries", doc.Entries)
	field("leafId", doc.LeafID)
	ids("roots", t.Roots)
	ids("branchPoints", t.BranchPoints)
	ids("activePath", t.ActivePath)
	field("compactions", doc.Compactions)
	ids("contextEntryIds", t.Context)
	s.Key("malformedLines")
	s.Array()
	for _, line := range doc.MalformedLines {
		s.Int(int64(line))
	}
	s.End(']')
	field("longLines", doc.LongLines)
	field("version", doc.Version)
	field("lines", doc.Lines)
	field("sizeBytes", doc.SizeBytes)
	field("labels", doc.Labels)
	if doc.Name != "" {
		field("name", doc.Name)
	}
	if doc.TornTail != nil {
		field("tornTail", doc.TornTail)
	}
	field("duplicateIds", doc.DuplicateIDs)
	field("cycle", doc.Cycle)
	field("entryTypes", doc.EntryTypes)
	field("rules", doc.Rules)
	field("contextMessages", doc.ContextMessages)
	field("resets", doc.Resets)
	field("leafControls", doc.LeafControls)
	field("invalidLeafControls", doc.InvalidLeafControls)
	if doc.SQLite != nil {
		field("sqlite", doc.SQLite)
	}
	field("generations", doc.Generations)
	s.End('}')
	return s.Finish()
}
