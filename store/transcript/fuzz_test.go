package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
	"clawvault-tui/store/jsonscan"
)

// FuzzSniffLine checks the sniffer against the scanner it is built on
// (jsonscan.Valid, itself fuzzed against encoding/json) and against a full
// decode: it never panics, accepts exactly the JSON objects, and extracts
// the same fields encoding/json finds.
func FuzzSniffLine(f *testing.F) {
	for _, s := range []string{
		header, line("a", ""), line("b", "a"), `{}`, `{"type":"label","id":"l","targetId":"a","label":"x"}`,
		`{"type":"compaction","id":"c","firstKeptEntryId":"a","tokensBefore":12.5,"summary":""}`,
		`{"type":"message","message":{"role":"\u0075ser","content":[{"type":"text","text":"a\"b"}]}}`,
		`{"a":[1,-0.5e+3,true,false,null,{"b":[]}],"\u0069d":"x"}`, `{"a":1,}`, `[1]`, `{"a":"\x01"}`, `{"a":01}`,
		`{"type":"message","id":"x","id":"y"}`, `{"version":"2","type":"session","id":""}`,
		`{"type":"leaf","id":"l","parentId":"a","targetId":null,"appendParentId":"b","appendMode":"side"}`,
		`{"type":"reset","id":"r","parentId":" ","reason":"new","firstKeptEntryId":"a"}`,
		`{"type":"context_edit","id":"e","parentId":7,"targetId":"a","replacement":null}`,
		`{"type":"message","id":"m","message":{"role":"bashExecution","excludeFromContext":true},"appendMode":"main"}`,
		`{"type":"compaction","id":"k","parentId":"","systemMessage":{"role":"system"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		info, ok := SniffLine(data)
		trimmed := bytes.TrimLeft(data, " \t\r\n")
		object := jsonscan.Valid(data) && len(trimmed) > 0 && trimmed[0] == '{'
		if ok != object {
			t.Fatalf("SniffLine accepts %q: %v; it is a JSON object: %v", data, ok, object)
		}
		if !ok || !json.Valid(data) {
			return
		}
		// A map, not a struct: encoding/json matches struct fields without
		// regard to case, JavaScript does not.
		var ref map[string]any
		if err := json.Unmarshal(data, &ref); err != nil {
			t.Fatalf("decode: %v", err)
		}
		names := model.NewNames()
		e, _, _ := info.Entry(data, 0, 1, names)
		if s, isStr := ref["id"].(string); isStr != (e.Flags&1 != 0) || (isStr && s != names.String(e.ID)) {
			t.Fatalf("id: sniffed %q (flags %d), decoded %#v", names.String(e.ID), e.Flags, ref["id"])
		}
		if s, isStr := ref["parentId"].(string); isStr && s != names.String(e.ParentID) {
			t.Fatalf("parentId: sniffed %q, decoded %q", names.String(e.ParentID), s)
		}
		if s, _ := ref["type"].(string); info.Type.String() != "other" && info.Type.String() != s {
			t.Fatalf("type: sniffed %v, decoded %q", info.Type, s)
		}
		parent, hasParent := ref["parentId"]
		ps, parentStr := parent.(string)
		if hasParent != (e.Flags&model.FlagParentKey != 0) {
			t.Fatalf("parentId key: flags %b, decoded %#v", e.Flags, ref)
		}
		if bad := hasParent && parent != nil && !(parentStr && strings.TrimFunc(ps, jsSpace) != ""); bad != (e.Flags&model.FlagParentBad != 0) {
			t.Fatalf("parentId %#v: flags %b", parent, e.Flags)
		}
		if side := ref["appendMode"] == "side"; side != (e.Flags&model.FlagSideAppend != 0) {
			t.Fatalf("appendMode %#v: flags %b", ref["appendMode"], e.Flags)
		}
		if msg, isObj := ref["message"].(map[string]any); isObj && info.Type.String() == "message" {
			if x := msg["excludeFromContext"] == true; x != (e.Flags&model.FlagExcludeContext != 0) {
				t.Fatalf("excludeFromContext %#v: flags %b", msg["excludeFromContext"], e.Flags)
			}
			if s, isStr := msg["role"].(string); isStr && model.ParseRole(s) != e.Role {
				t.Fatalf("role: sniffed %v, decoded %q", e.Role, s)
			}
		}
	})
}

// FuzzIndex indexes arbitrary bytes in small chunks and checks the result
// against a line-by-line reading: same entries, same malformed lines.
func FuzzIndex(f *testing.F) {
	f.Add([]byte(header + "\n" + line("a", "") + "\r\n\n{bad\n" + line("b", "a")))
	f.Add([]byte("\xef\xbb\xbf" + header + "\n" + header + "\n"))
	f.Add([]byte("\n\n\n"))
	f.Add([]byte(header + "\n" + line("a", "") + line("b", "a") + "\n" + line("c", "a") + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		old, over := chunkSize, lineOverhang
		chunkSize, lineOverhang = 16, 5
		defer func() { chunkSize, lineOverhang = old, over }()
		ix, err := Build(context.Background(), "fuzz", bytes.NewReader(data), int64(len(data)), Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		entries, malformed, _ := lineByLine(lines, len(data))
		if len(ix.Entries) != entries {
			t.Fatalf("entries = %d, want %d", len(ix.Entries), entries)
		}
		if len(ix.Malformed) != len(malformed) {
			t.Fatalf("malformed = %v, want %v", ix.Malformed, malformed)
		}
		_ = ix.Tree.IDs(ix.Tree.Context)
		if deferred := indexDeferred(t, string(data)); !sameIndex(ix, deferred) {
			t.Fatalf("deferred validation differs: %d/%v vs %d/%v", len(ix.Entries), ix.Malformed, len(deferred.Entries), deferred.Malformed)
		}
		checkCap(t, data, lines)
	})
}

// checkCap indexes data with a cap of a few bytes: the lines longer than
// it (their bytes before the newline) are long and malformed, the others
// read as without a cap, and a last line longer than it is a tail not read.
func checkCap(t *testing.T, data []byte, lines []string) {
	const maxLine = 24
	ix, err := Build(context.Background(), "fuzz", bytes.NewReader(data), int64(len(data)), Options{Workers: 2, MaxLineBytes: maxLine})
	if err != nil {
		t.Fatal(err)
	}
	entries, malformed, long := lineByLine(lines, maxLine)
	if !slices.Equal(ix.LongLines, long) || !slices.Equal(ix.Malformed, malformed) || len(ix.Entries) != entries {
		t.Fatalf("with a cap of %d: long %v, malformed %v, %d entries; want %v, %v, %d", maxLine, ix.LongLines, ix.Malformed, len(ix.Entries), long, malformed, entries)
	}
	if tail := lines[len(lines)-1]; (len(tail) > maxLine) != (ix.Tail != nil && ix.Tail.TooLong) {
		t.Fatalf("a last line of %d bytes: tail %+v", len(tail), ix.Tail)
	}
}

// lineByLine reads lines as the index should: a line longer than maxLine
// (its bytes before the newline) is long and malformed; a blank one is
// skipped; one SniffLine takes is an entry; the others are malformed,
// except a last line without a newline (a torn tail).
func lineByLine(lines []string, maxLine int) (entries int, malformed, long []int32) {
	for i, l := range lines {
		last := i == len(lines)-1
		if len(l) > maxLine {
			if !last {
				long = append(long, int32(i+1))
				malformed = append(malformed, int32(i+1))
			}
			continue
		}
		l = strings.TrimSuffix(l, "\r")
		if i == 0 {
			l = strings.TrimPrefix(l, "\xef\xbb\xbf")
		}
		if isBlank([]byte(l)) {
			continue
		}
		if _, ok := SniffLine([]byte(l)); ok {
			entries++
		} else if !last {
			malformed = append(malformed, int32(i+1))
		}
	}
	return entries, malformed, long
}

// jsSpace is JavaScript's String.prototype.trim set: WhiteSpace (Zs, tab,
// vertical tab, form feed, the byte-order mark) and LineTerminator.
func jsSpace(c rune) bool {
	return unicode.Is(unicode.Zs, c) || strings.ContainsRune("\t\v\f\ufeff\n\r\u2028\u2029", c)
}

// FuzzSniffCanonical: what the canonical fast path accepts, SniffLine
// accepts, with the same entry (lines it declines go to SniffLine).
func FuzzSniffCanonical(f *testing.F) {
	for _, s := range []string{
		line("a", ""), line("b", "a"),
		`{"type":"message","id":"8a9bf100","parentId":"18db902f","timestamp":"2026-10-22T13:15:38.622Z","message":{"role":"assistant","content":[{"type":"text","text":"HEARTBEAT_OK"}],"usage":{"input":19,"cost":{"total":0.0057294500000000005}},"stopReason":"stop","timestamp":1792674937294}}`,
		`{"type":"message","id":"8a9bf100","parentId":null,"timestamp":"2026-10-22T13:15:38.622Z","message":{"role":"user","content":"x","role":"assistant"}}`,
		`{"type":"message","id":"8a9bf100","parentId":null,"timestamp":"2026-10-22T13:15:38.622Z","message":{"role":"user","content":"x"},"id":"other"}`,
		`{"type":"message","id":"8a9bf100","parentId":null,"timestamp":"2026-10-22T13:15:38.622Z","message":{"role":"user","content":"x"},"\u0069d":"other"}`,
		`{"type":"message","id":"8a9bf100","parentId":null,"timestamp":"2026-10-22T13:15:38.622Z","message":{"role":"user","content":"x",}}`,
		`{"type":"message","id":"8a9bf100","parentId":null,"timestamp":"2026-10-22T13:15:38.622Z","message":{"role":"user"} , "x" : [1,2] }`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var days jscompat.ISODayCache
		var fast LineInfo
		ok := sniffCanonical(data, &days, &fast)
		full, fullOK := SniffLine(data)
		if !ok {
			return
		}
		if !fullOK {
			t.Fatalf("sniffCanonical accepts %q, SniffLine does not", data)
		}
		names := model.NewNames()
		a, _, _ := fast.Entry(data, 0, 1, names)
		b, _, _ := full.Entry(data, 0, 1, names)
		if a != b {
			t.Fatalf("%q: fast %+v, full %+v", data, a, b)
		}
	})
}
