package store

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"testing"

	"clawvault-tui/model"
	"clawvault-tui/store/jsonscan"
)

// FuzzSessionStore: any sessions.json loads without panicking; rows keep
// unique keys; the streaming reader of a scan accepts the same files and
// gives the same rows with the same status fields and row problems, read
// whole or in two halves (at FindCut's guess or at any offset).
func FuzzSessionStore(f *testing.F) {
	f.Add([]byte(`{"agent:main:main":{"sessionId":"a","updatedAt":1,"compactionCount":2}}`), uint16(0))
	f.Add([]byte(`{"2":{"sessionId":5},"1":null,"x":[],"x":{"updatedAt":"7"}}`), uint16(20))
	f.Add([]byte(`{"k":{"sessionFile":"a.jsonl","model":"m","provider":"p","estimatedCostUsd":0.5,"totalTokens":"x","label":7}}`), uint16(3))
	f.Add([]byte(`{"a":{"model":1},"b":{},"c":{},"d":{},"a":{"model":"m"},"e":{"f":{}},"b":{"chatType":2},"g":{},"h":{}}`), uint16(30))
	f.Add([]byte(`{"a":{},"1":{},"b":{},"c":{},"0":{},"d":{},"a":{},"e":{}}`), uint16(12))
	f.Add([]byte(`[]`), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, at uint16) {
		rows, _, err := parseSessionStore(data)
		lean, leanProblems, leanErr := readSessionStore(bytes.NewReader(data), int64(len(data)))
		if (err == nil) != (leanErr == nil) {
			t.Fatalf("%q: whole %v, streamed %v", data, err, leanErr)
		}
		size := int64(len(data))
		guess, memberSize := jsonscan.FindCut(bytes.NewReader(data), size)
		for _, cut := range []int64{guess, int64(at) % (size + 1)} {
			halves, halvesProblems, halvesErr := readSessionStoreCut(bytes.NewReader(data), size, cut, max(memberSize, 1+int(at)%300))
			if (halvesErr == nil) != (leanErr == nil) {
				t.Fatalf("%q cut %d: in two halves %v, streamed %v", data, cut, halvesErr, leanErr)
			}
			if halvesErr == nil && (!reflect.DeepEqual(halves, lean) || !maps.Equal(halvesProblems, leanProblems)) {
				t.Fatalf("%q cut %d: in two halves %+v %v, streamed %+v %v", data, cut, halves, halvesProblems, lean, leanProblems)
			}
		}
		if err != nil {
			return
		}
		if len(lean) != len(rows) {
			t.Fatalf("%q: %d rows whole, %d streamed", data, len(rows), len(lean))
		}
		for i := range rows {
			w, g := rows[i].Entry, lean[i].Entry
			if rows[i].Key != lean[i].Key || !reflect.DeepEqual(w.StatusEntry, g) {
				t.Fatalf("%q: row %d whole %q %+v, streamed %q %+v", data, i, rows[i].Key, w.StatusEntry, lean[i].Key, g)
			}
		}
		seen := map[string]bool{}
		for _, r := range rows {
			if seen[r.Key] {
				t.Fatalf("duplicate key %q", r.Key)
			}
			seen[r.Key] = true
			_ = r.Entry.IndexRow(r.Key)
			_, _, _ = r.Entry.FlushSkipped()
		}
	})
}

// FuzzParseCursorStore: any bytes load without panicking; what loads
// writes back in ClawVault's format and reads back the same; parsed in two
// halves (at FindCut's guess or at any offset), a file gives the entries
// one walk gives, or none when one walk finds it does not parse.
func FuzzParseCursorStore(f *testing.F) {
	f.Add([]byte(sampleCursors), uint16(0))
	f.Add([]byte(`{"1":{"lastObservedOffset":1e3,"lastObservedAt":"x","sessionKey":"\u00e9","lastFileSize":0.5},"a":{}}`), uint16(40))
	f.Add([]byte(`{"a":1,"a":{"lastObservedOffset":1,"lastObservedAt":"x","sessionKey":"k","lastFileSize":1}}`), uint16(7))
	f.Add([]byte(`{"a":{},"b":{"x":1},"c":{},"d":{},"b":{"lastObservedAt":"y"},"e":{}}`), uint16(22))
	f.Add([]byte(`[]`), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, at uint16) {
		whole := newCursorEntries(len(data))
		end, ok := jsonscan.Object(data, 0, func(key, value []byte) bool {
			whole.add(key, value)
			return true
		})
		ok = ok && jsonscan.SkipWS(data, end) == len(data)
		guess, _ := jsonscan.FindCut(bytes.NewReader(data), int64(len(data)))
		for _, cut := range []int64{guess, int64(at) % int64(len(data)+1)} {
			halves, parsed := parseCursorsCut(data, cut)
			if parsed != ok {
				t.Fatalf("%q cut %d: in two halves parsed=%v, one walk %v", data, cut, parsed, ok)
			}
			if ok && (!slices.Equal(halves.ids, whole.ids) || !reflect.DeepEqual(halves.raws, whole.raws)) {
				t.Fatalf("%q cut %d: in two halves %q %+v, one walk %q %+v", data, cut, halves.ids, halves.raws, whole.ids, whole.raws)
			}
		}
		store, _, err := ParseCursorStore(data)
		if err != nil {
			if store.Len() != 0 {
				t.Fatal("a file that does not parse must load as empty")
			}
			return
		}
		out := model.MarshalCursorStore(store)
		again, problems, err := ParseCursorStore(out)
		if err != nil || len(problems) != 0 {
			t.Fatalf("our own output does not load: %v %v\n%s", err, problems, out)
		}
		if !bytes.Equal(model.MarshalCursorStore(again), out) {
			t.Fatalf("not stable:\n%s", out)
		}
	})
}

// FuzzIdOf: the sessionId taken from sessionFile's bytes is the one
// unquoting it gives.
func FuzzIdOf(f *testing.F) {
	f.Add([]byte(`"4b2a3c78"`), "/s/4b2a3c78.jsonl")
	f.Add([]byte(`"4b2a"`), "/s/x4b2a.jsonl")
	f.Add([]byte(`"a\/b"`), "/s/a/b.jsonl")
	f.Add([]byte(`"\u0061"`), "/s/a.jsonl")
	f.Add([]byte("\"\xff\""), "/s/\xff.jsonl")
	f.Add([]byte(`"abc"`), "abc.jsonl")
	f.Add([]byte(`""`), "/.jsonl")
	f.Fuzz(func(t *testing.T, raw []byte, sessionFile string) {
		if !jsonscan.Valid(raw) || len(raw) < 2 || raw[0] != '"' {
			return
		}
		if got, want := idOf(raw, sessionFile), jsonscan.Unquote(raw); got != want {
			t.Fatalf("idOf(%q, %q) = %q, Unquote says %q", raw, sessionFile, got, want)
		}
	})
}
