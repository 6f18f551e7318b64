package transcript

import "testing"

// Names match as JSON.parse matches them: exactly. encoding/json took
// "TYPE" for "type", and refused a line whose "tYpe" held an object.
func TestDecodeEntryMatchesNamesExactly(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ line, wantType, wantID string }{
		{`{"type":"message","TYPE":"compaction","id":"a"}`, "message", "a"},
		{`{"Type":"compaction","ID":"b"}`, "", ""},
		{`{"tYpe":{}}`, "", ""},
		{`{"type":"message","id":"a","id":"b"}`, "message", "b"},
	} {
		b, err := DecodeEntry([]byte(tc.line), "line 1")
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		if b.Type != tc.wantType || b.ID != tc.wantID {
			t.Errorf("%s: type %q id %q, want %q %q", tc.line, b.Type, b.ID, tc.wantType, tc.wantID)
		}
	}
}

// A value of the wrong kind for its field reads as nothing, as a script
// reading JSON.parse's result finds no string there; the rest of the entry
// decodes. Before, `{"type":{}}` (found by FuzzDecodeEvent) did not decode
// at all. What is not JSON, or not an object, still fails.
func TestDecodeEntryReadsAValueOfTheWrongKindAsNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ line, wantType, wantID, wantRole string }{
		{`{"type":{}}`, "", "", ""},
		{`{"type":"message","id":5,"parentId":7,"message":{"role":"user","content":"hi","isError":"yes","usage":[1]}}`, "message", "", "user"},
		{`{"type":"compaction","id":"c","tokensBefore":"many","details":{"readFiles":"a.go"}}`, "compaction", "c", ""},
		{`{"type":"message","id":"m","message":"hello"}`, "message", "m", ""},
	} {
		b, err := DecodeEntry([]byte(tc.line), "line 1")
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		if b.Type != tc.wantType || b.ID != tc.wantID || b.Role != tc.wantRole {
			t.Errorf("%s: type %q id %q role %q, want %q %q %q", tc.line, b.Type, b.ID, b.Role, tc.wantType, tc.wantID, tc.wantRole)
		}
	}
	for _, line := range []string{`[1]`, `"message"`, `{"type":`, `{"type":"message"} x`} {
		if _, err := DecodeEntry([]byte(line), "line 1"); err == nil {
			t.Errorf("%s decoded", line)
		}
	}
}
