package cli

import (
	"bytes"
	"encoding/json"
	"io"

	"clawvault-tui/jscompat"
	"clawvault-tui/model/recall"
	"clawvault-tui/store/memsearch"
)

// ordered is a JSON object written with its members in order and numbers
// as JavaScript writes them: `memory search --json` prints the results
// exactly as `openclaw memory search --json` does (JSON.stringify, two
// spaces).
type ordered []member

type member struct {
	key   string
	value any
}

func (o ordered) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		b = jscompat.AppendJSString(b, m.key)
		b = append(b, ':')
		v, err := marshalJS(m.value)
		if err != nil {
			return nil, err
		}
		b = append(b, v...)
	}
	return append(b, '}'), nil
}

func marshalJS(v any) ([]byte, error) {
	switch x := v.(type) {
	case string:
		return jscompat.AppendJSString(nil, x), nil
	case float64:
		return jscompat.AppendJSNumber(nil, x), nil
	case int:
		return jscompat.AppendJSNumber(nil, float64(x)), nil
	case int64:
		return jscompat.AppendJSNumber(nil, float64(x)), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// resultJSON is one result as OpenClaw's CLI prints it for the mode:
// hybrid results have vectorScore and textScore, keyword-only ones
// textScore, vector-only ones their chunk id.
func resultJSON(e *recall.Entry, mode string) ordered {
	o := ordered{}
	if mode == "vector-only" {
		o = append(o, member{"id", e.ID})
	}
	o = append(o, member{"path", e.Path}, member{"startLine", e.StartLine}, member{"endLine", e.EndLine}, member{"score", e.Score})
	if mode == "hybrid" {
		o = append(o, member{"vectorScore", e.VectorScore})
	}
	if mode != "vector-only" {
		o = append(o, member{"textScore", e.TextScore})
	}
	o = append(o, member{"snippet", e.Snippet}, member{"source", e.Source})
	if e.Meta.Importance != nil {
		o = append(o, member{"importance", *e.Meta.Importance})
	}
	if e.Meta.Triggers != "" {
		o = append(o, member{"triggers", e.Meta.Triggers})
	}
	if e.Meta.ProjectKey != "" {
		o = append(o, member{"projectKey", e.Meta.ProjectKey})
	}
	if p := e.Meta.Provenance; p != nil {
		po := ordered{{"originClass", p.OriginClass}, {"sessionKind", p.SessionKind}, {"observedAt", p.ObservedAt}}
		if p.SupersedesKey != "" {
			po = append(po, member{"supersedesKey", p.SupersedesKey})
		}
		o = append(o, member{"provenance", po})
	}
	return o
}

func resultsJSON(entries []*recall.Entry, mode string) []ordered {
	out := make([]ordered, len(entries))
	for i, e := range entries {
		out[i] = resultJSON(e, mode)
	}
	return out
}

// explainJSON is what memory search adds to OpenClaw's document.
func explainJSON(rep *memsearch.Report) ordered {
	s := rep.Settings
	o := ordered{
		{"agent", rep.Agent}, {"status", rep.Status}, {"reason", rep.Reason}, {"mode", rep.Mode},
		{"settings", ordered{{"maxResults", s.MaxResults}, {"minScore", s.MinScore}, {"vectorWeight", s.VectorWeight},
			{"textWeight", s.TextWeight}, {"candidates", s.Candidates()}, {"mmr", s.MMR}, {"mmrLambda", s.MMRLambda},
			{"temporalDecay", s.Decay}, {"halfLifeDays", s.HalfLifeDays}, {"sources", nonNil(rep.Config.SearchSources)},
			{"tokenizer", rep.Config.Tokenizer}}},
		{"identity", ordered{{"status", cmpOrStr(rep.Identity.Status, "unchecked")}, {"code", rep.Identity.Code}, {"reason", rep.Identity.Reason}}},
	}
	if p := rep.Provider; p != nil {
		o = append(o, member{"provider", ordered{{"id", p.ID}, {"model", p.Model}, {"endpoint", p.Host()},
			{"apiKeyFrom", p.KeySource}, {"embedded", rep.Embedded}, {"cached", rep.Cached}, {"embedMs", rep.EmbedTook.Milliseconds()}}})
	}
	o = append(o, member{"searchMs", float64(rep.Took.Microseconds()) / 1000}, member{"chunks", rep.Chunks})
	if rep.Fallback != nil {
		o = append(o, member{"keywordOnly", ordered{{"note", "keyword-only ranking: NOT what memory_search returns to the agent"},
			{"results", resultsJSON(rep.Fallback, "keyword-only")}}})
	}
	o = append(o, member{"files", nonNil(rep.Explain)}, member{"warnings", nonNil(rep.Warnings)})
	return o
}

func cmpOrStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// writeMemorySearchJSON prints {"results": [...], "explain": {...}}.
func writeMemorySearchJSON(w io.Writer, rep *memsearch.Report) error {
	mode := rep.Mode
	if rep.Status != memsearch.StatusOK && rep.Status != memsearch.StatusKeywordOnly {
		mode = "hybrid"
	}
	doc := ordered{{"results", resultsJSON(rep.Results, mode)}, {"explain", explainJSON(rep)}}
	raw, err := doc.MarshalJSON()
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}
