package observer

import (
	"encoding/json"
	"fmt"
	"strconv"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
)

// vaultOp is one change a sweep makes to a vault file, kept as data so that
// it can be replayed on a newer version of the file: by the commit, when
// another writer changed the file during the sweep, and by the recovery of
// an interrupted commit, when another writer changed it since (the sweep
// journal records each staged file's operations). Replaying an operation
// twice changes nothing the second time, so a recovery interrupted in turn
// can run again.
type vaultOp struct {
	Kind string `json:"kind"` // one of the op* kinds

	// opObservations: merge into a day file, as ClawVault's Observer does.
	Observations []model.Observation `json:"observations,omitempty"`
	KeepUnparsed bool                `json:"keepUnparsed,omitempty"`

	// opAppend: one line appended to a category file unless it is
	// already there (Dedup, its normalized content, under Date); a new
	// file starts with Header.
	Header string `json:"header,omitempty"`
	Date   string `json:"date,omitempty"`
	Line   string `json:"line,omitempty"`
	Dedup  string `json:"dedup,omitempty"`

	// opCreate: a new file, unless someone made one meanwhile (theirs
	// wins).
	Text string `json:"text,omitempty"`

	// opTouch: front matter keys set on a task or backlog item.
	Set []frontSet `json:"set,omitempty"`
}

// The kinds of vaultOp.
const (
	opObservations = "observations"
	opAppend       = "append"
	opCreate       = "create"
	opTouch        = "touch"
)

// frontSet is one front matter key a touch sets.
type frontSet struct {
	Key   string     `json:"key"`
	Value frontValue `json:"value"`
}

// frontValue is a jscompat.FrontValue as a journal keeps it: numbers as
// text, since JSON has no Infinity or NaN and YAML does.
type frontValue struct {
	Kind  jscompat.FrontKind `json:"kind"`
	Str   string             `json:"str,omitempty"`
	Num   string             `json:"num,omitempty"`
	Bool  bool               `json:"bool,omitempty"`
	Time  int64              `json:"time,omitempty"`
	Items []frontValue       `json:"items,omitempty"`
}

func frontValueOf(v jscompat.FrontValue) frontValue {
	out := frontValue{Kind: v.Kind, Str: v.Str, Bool: v.Bool, Time: v.Time}
	if v.Kind == jscompat.FrontNumber {
		out.Num = strconv.FormatFloat(v.Num, 'g', -1, 64)
	}
	for _, it := range v.Items {
		out.Items = append(out.Items, frontValueOf(it))
	}
	return out
}

func (v frontValue) front() jscompat.FrontValue {
	out := jscompat.FrontValue{Kind: v.Kind, Str: v.Str, Bool: v.Bool, Time: v.Time}
	if v.Kind == jscompat.FrontNumber {
		out.Num, _ = strconv.ParseFloat(v.Num, 64)
	}
	if v.Kind == jscompat.FrontSeq {
		out.Items = make([]jscompat.FrontValue, 0, len(v.Items))
	}
	for _, it := range v.Items {
		out.Items = append(out.Items, it.front())
	}
	return out
}

// observationsOp merges observations into a day file. Their scores are
// clamped as the merge clamps them (JSON has no NaN).
func observationsOp(obs []model.Observation, keepUnparsed bool) vaultOp {
	op := vaultOp{Kind: opObservations, KeepUnparsed: keepUnparsed, Observations: make([]model.Observation, len(obs))}
	for i, o := range obs {
		o.Confidence, o.Importance = model.Clamp01(o.Confidence), model.Clamp01(o.Importance)
		op.Observations[i] = o
	}
	return op
}

// apply replays the operation on content (exists is false for no file);
// an error says the operation could not apply (front matter it cannot
// read), and leaves the content as it was.
func (op vaultOp) apply(content []byte, exists bool) ([]byte, bool, error) {
	switch op.Kind {
	case opObservations:
		return op.mergeObservations(content, exists), true, nil
	case opAppend:
		out, ok := op.appendLine(content, exists)
		return out, ok, nil
	case opCreate:
		if exists {
			return content, true, nil // created meanwhile by someone else: theirs wins
		}
		return []byte(op.Text), true, nil
	case opTouch:
		return op.touch(content, exists)
	}
	return content, exists, fmt.Errorf("unknown vault operation %q", op.Kind)
}

func (op vaultOp) mergeObservations(content []byte, exists bool) []byte {
	existing := ""
	if exists {
		existing = jscompat.JSTrim(string(content))
	}
	f := model.ParseDayFile(existing, op.KeepUnparsed)
	for _, o := range op.Observations {
		f.Merge(o)
	}
	if len(op.Observations) == 0 && f.Len() == 0 {
		return []byte(existing + "\n")
	}
	return []byte(f.Render() + "\n")
}

func (op vaultOp) appendLine(content []byte, exists bool) ([]byte, bool) {
	existing := ""
	if exists {
		existing = jscompat.JSTrim(string(content))
	}
	if existing != "" && indexLines(existing, op.Date).isDuplicate(op.Dedup) {
		return content, exists // the line arrived meanwhile
	}
	if existing == "" {
		return []byte(op.Header + "\n" + op.Line + "\n"), true
	}
	return []byte(existing + "\n" + op.Line + "\n"), true
}

func (op vaultOp) touch(content []byte, exists bool) ([]byte, bool, error) {
	if !exists {
		return content, exists, nil
	}
	doc, err := jscompat.ParseMatter(string(content))
	if err != nil {
		return content, exists, err
	}
	fm := doc.Data.Clone()
	for _, s := range op.Set {
		fm.Set(s.Key, s.Value.front())
	}
	text, err := jscompat.StringifyMatter(doc.Content, fm)
	if err != nil {
		return content, exists, err
	}
	return []byte(text), true, nil
}

// replayOps applies a staged file's operations, as a journal records them
// (json), to the file's current content: what recovering an interrupted
// commit writes when another writer changed the file since it was staged.
func replayOps(ops json.RawMessage, content []byte, exists bool) ([]byte, bool, error) {
	list, err := decodeOps(ops)
	if err != nil {
		return nil, false, err
	}
	for _, op := range list {
		// An operation that cannot apply leaves the file as it is, as it
		// does in the sweep that recorded it.
		content, exists, _ = op.apply(content, exists)
	}
	return content, exists, nil
}

// maxOpObservations bounds what a journal's operation may ask to merge.
const maxOpObservations = 1 << 20

// decodeOps reads a journal's operations and checks each is one a sweep
// records.
func decodeOps(ops json.RawMessage) ([]vaultOp, error) {
	var list []vaultOp
	if err := json.Unmarshal(ops, &list); err != nil {
		return nil, fmt.Errorf("holds operations that do not parse (%v)", err)
	}
	for _, op := range list {
		switch op.Kind {
		case opObservations, opAppend, opCreate, opTouch:
		default:
			return nil, fmt.Errorf("records the operation %q, which no sweep makes", truncateText(op.Kind))
		}
		if len(op.Observations) > maxOpObservations {
			return nil, fmt.Errorf("merges %d observations in one operation, more than a sweep does", len(op.Observations))
		}
	}
	return list, nil
}

func truncateText(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
