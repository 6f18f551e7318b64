package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"clawvault-tui/model"
)

// writeTreeJSON writes the tree document as writeJSON would write it,
// field by field in treeDoc's order, with the lists of entries streamed
// from their positions: a million-entry active path is written without a
// string per entry or the whole document in memory.
func writeTreeJSON(w io.Writer, doc treeDoc, lists treeLists) error {
	o := jsonFields{w: bufio.NewWriterSize(w, 64<<10)}
	o.w.WriteByte('{')
	o.field("file", doc.File)
	o.field("header", doc.Header)
	o.field("entries", doc.Entries)
	o.field("leafId", doc.LeafID)
	o.ids("roots", lists.tree, lists.roots)
	o.ids("branchPoints", lists.tree, lists.branchPoints)
	o.ids("activePath", lists.tree, lists.activePath)
	o.field("compactions", doc.Compactions)
	o.ids("contextEntryIds", lists.tree, lists.context)
	o.ints("malformedLines", doc.MalformedLines)
	o.field("version", doc.Version)
	o.field("lines", doc.Lines)
	o.field("sizeBytes", doc.SizeBytes)
	o.field("labels", doc.Labels)
	if doc.Name != "" {
		o.field("name", doc.Name)
	}
	if doc.TornTail != nil {
		o.field("tornTail", doc.TornTail)
	}
	o.field("duplicateIds", doc.DuplicateIDs)
	o.field("cycle", doc.Cycle)
	o.field("entryTypes", doc.EntryTypes)
	o.field("rules", doc.Rules)
	o.field("contextMessages", doc.ContextMessages)
	o.field("resets", doc.Resets)
	o.field("leafControls", doc.LeafControls)
	o.field("invalidLeafControls", doc.InvalidLeafControls)
	if doc.SQLite != nil {
		o.field("sqlite", doc.SQLite)
	}
	o.field("generations", doc.Generations)
	o.w.WriteString("\n}\n")
	if o.err != nil {
		return o.err
	}
	return o.w.Flush()
}

// jsonFields writes the members of a top-level object as json.Encoder
// does with SetIndent("", "  ") and SetEscapeHTML(false).
type jsonFields struct {
	w    *bufio.Writer
	n    int
	buf  bytes.Buffer
	item []byte
	err  error
}

func (o *jsonFields) key(name string) {
	if o.n > 0 {
		o.w.WriteByte(',')
	}
	o.n++
	o.w.WriteString("\n  \"")
	o.w.WriteString(name)
	o.w.WriteString(`": `)
}

// field writes one member whose value is small enough to encode whole.
func (o *jsonFields) field(name string, v any) {
	o.key(name)
	o.buf.Reset()
	enc := json.NewEncoder(&o.buf)
	enc.SetIndent("  ", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil && o.err == nil {
		o.err = err
	}
	o.w.Write(bytes.TrimSuffix(o.buf.Bytes(), []byte("\n")))
}

// array writes an array of n elements, each written by item.
func (o *jsonFields) array(name string, n int, item func(k int)) {
	o.key(name)
	if n == 0 {
		o.w.WriteString("[]")
		return
	}
	o.w.WriteByte('[')
	for k := range n {
		if k > 0 {
			o.w.WriteByte(',')
		}
		o.w.WriteString("\n    ")
		item(k)
	}
	o.w.WriteString("\n  ]")
}

// ids writes the ids of the entries at idx as an array of strings.
func (o *jsonFields) ids(name string, t *model.Tree, idx []int32) {
	o.array(name, len(idx), func(k int) {
		o.item = t.AppendID(o.item[:0], idx[k])
		o.quoted(o.item)
	})
}

// ints writes an array of numbers.
func (o *jsonFields) ints(name string, v []int32) {
	o.array(name, len(v), func(k int) {
		o.w.Write(strconv.AppendInt(o.item[:0], int64(v[k]), 10))
	})
}

// quoted writes s as a JSON string: pi's ids as they are, anything that
// needs an escape through encoding/json.
func (o *jsonFields) quoted(s []byte) {
	for _, c := range s {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			o.buf.Reset()
			enc := json.NewEncoder(&o.buf)
			enc.SetEscapeHTML(false)
			enc.Encode(string(s))
			o.w.Write(bytes.TrimSuffix(o.buf.Bytes(), []byte("\n")))
			return
		}
	}
	o.w.WriteByte('"')
	o.w.Write(s)
	o.w.WriteByte('"')
}
