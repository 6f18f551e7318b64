package store

import (
	"encoding/json"
	"slices"
	"testing"

	"clawvault-tui/model"
)

// The §7 sample of ClawVault 3.5.2's cursor file, byte for byte.
const sampleCursors = `{
  "00000000-0000-0000-0000-000000000001": {
    "lastObservedOffset": 79992,
    "lastObservedAt": "2026-03-14T22:43:45.027Z",
    "sessionKey": "agent:main:main",
    "lastFileSize": 79992
  },
  "00000000-0000-0000-0000-000000000003": {
    "lastObservedOffset": 67176,
    "lastObservedAt": "2026-03-14T22:43:45.044Z",
    "sessionKey": "agent:main:discord:channel:998877",
    "lastFileSize": 67254
  },
  "00000000-0000-0000-0000-000000000002": {
    "lastObservedOffset": 758,
    "lastObservedAt": "2026-03-15T09:12:04.236Z",
    "sessionKey": "agent:main:telegram:dm:123456789",
    "lastFileSize": 758
  }
}
`

func TestCursorStoreRoundTrip(t *testing.T) {
	t.Parallel()
	store, problems, err := ParseCursorStore([]byte(sampleCursors))
	if err != nil || len(problems) != 0 {
		t.Fatalf("parse: %v %v", err, problems)
	}
	if store.Len() != 3 {
		t.Fatalf("len = %d", store.Len())
	}
	if got := string(model.MarshalCursorStore(store)); got != sampleCursors {
		t.Errorf("round trip differs:\n%s", got)
	}
	c, _ := store.Get("00000000-0000-0000-0000-000000000003")
	if c.Offset() != 67176 || c.FileSize() != 67254 || c.SessionKey != "agent:main:discord:channel:998877" {
		t.Errorf("cursor = %+v", c)
	}
}

func TestCursorStoreValidation(t *testing.T) {
	t.Parallel()
	data := `{
  "ok": {"lastObservedOffset": 1, "lastObservedAt": "2026-03-14T22:43:45.027Z", "sessionKey": "k", "lastFileSize": 1},
  "bad id!": {"lastObservedOffset": 1, "lastObservedAt": "t", "sessionKey": "k", "lastFileSize": 1},
  "neg": {"lastObservedOffset": -1, "lastObservedAt": "t", "sessionKey": "k", "lastFileSize": 1},
  "str": {"lastObservedOffset": "5", "lastObservedAt": "t", "sessionKey": "k", "lastFileSize": 1},
  "empty": {"lastObservedOffset": 1, "lastObservedAt": "t", "sessionKey": "  ", "lastFileSize": 1},
  "missing": {"lastObservedOffset": 1, "lastObservedAt": "t", "sessionKey": "k"},
  "array": [1, 2],
  "null": null
}`
	store, problems, err := ParseCursorStore([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if store.Len() != 1 {
		t.Errorf("valid cursors = %d, want 1", store.Len())
	}
	var ids []string
	for _, p := range problems {
		ids = append(ids, p.SessionID)
		if p.Reason == "" {
			t.Errorf("%s: no reason", p.SessionID)
		}
	}
	want := []string{"bad id!", "neg", "str", "empty", "missing", "array", "null"}
	if !slices.Equal(ids, want) {
		t.Errorf("problems = %v, want %v", ids, want)
	}
}

func TestCursorStoreCorrupt(t *testing.T) {
	t.Parallel()
	for _, data := range []string{"", "{", "[]", "null", `{"a":1} x`, "\xef\xbb\xbf{}"} {
		store, _, err := ParseCursorStore([]byte(data))
		if err == nil {
			t.Errorf("%q: want an error", data)
		}
		if store == nil || store.Len() != 0 {
			t.Errorf("%q: a corrupt file loads as empty", data)
		}
	}
}

func TestDecodeSessionEntry(t *testing.T) {
	t.Parallel()
	raw := `{"sessionId": 42, "updatedAt": "1775892604120", "provider": "telegram", "room": "ops", "compactionCount": "x", "custom": {"a": 1}}`
	var e model.SessionEntry
	problem := decodeSessionEntry([]byte(raw), &e, nil)
	if problem == "" {
		t.Error("a field of the wrong type is reported")
	}
	if e.SessionID != "" {
		t.Errorf("a non-string sessionId reads as \"\", got %q", e.SessionID)
	}
	if e.UpdatedAt.Ms() != 1775892604120 {
		t.Errorf("updatedAt = %v", e.UpdatedAt.Value())
	}
	if e.Channel != "telegram" || e.GroupChannel != "ops" {
		t.Errorf("legacy renames: channel %q groupChannel %q", e.Channel, e.GroupChannel)
	}
	var custom map[string]int
	if err := json.Unmarshal(e.Extra()["custom"], &custom); err != nil || custom["a"] != 1 {
		t.Errorf("the catch-all keeps unknown fields: %v %v", custom, err)
	}
}
