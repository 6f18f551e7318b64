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
