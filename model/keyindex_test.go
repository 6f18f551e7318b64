package model

import (
	"fmt"
	"testing"
)

func TestKeyIndex(t *testing.T) {
	tests := []struct {
		name string
		hint int
		keys int
	}{
		{"zero value, grows", -1, 1000},
		{"sized", 1000, 1000},
		{"too small a hint, grows", 3, 500},
		{"empty", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := &KeyIndex{}
			if tt.hint >= 0 {
				x = NewKeyIndex(tt.hint)
			}
			var keys []string
			for i := range tt.keys {
				keys = append(keys, fmt.Sprintf("k%d", i))
				if x.Find(keys[i], keys) != -1 {
					t.Fatalf("%s found before it was added", keys[i])
				}
				x.Add(i, keys)
			}
			if x.n != tt.keys {
				t.Errorf("%d keys counted, want %d", x.n, tt.keys)
			}
			for i, k := range keys {
				if got := x.Find(k, keys); got != i {
					t.Errorf("Find(%q) = %d, want %d", k, got, i)
				}
				if got := x.FindBytes([]byte(k), keys); got != i {
					t.Errorf("FindBytes(%q) = %d, want %d", k, got, i)
				}
			}
			if got := x.Find("absent", keys); got != -1 {
				t.Errorf("Find(absent) = %d", got)
			}
			// Reordered keys, indexed again.
			for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
				keys[i], keys[j] = keys[j], keys[i]
			}
			x.Rebuild(keys)
			for i, k := range keys {
				if got := x.Find(k, keys); got != i {
					t.Errorf("after Rebuild, Find(%q) = %d, want %d", k, got, i)
				}
			}
		})
	}
}

func TestCursorStoreKeepsOrderAndLastValue(t *testing.T) {
	t.Parallel()
	s := NewCursorStoreSized(2)
	s.SetParsed("b", Cursor{LastObservedOffset: 1})
	s.SetParsed("7", Cursor{LastObservedOffset: 2})
	s.Set("b", Cursor{LastObservedOffset: 3}) // a new value keeps the first position
	s.FinishParsed()                          // integer-like keys first, as JavaScript enumerates them
	if got := fmt.Sprint(s.Keys()); got != "[7 b]" {
		t.Errorf("Keys = %s, want [7 b]", got)
	}
	for id, want := range map[string]float64{"b": 3, "7": 2} {
		if c, ok := s.Get(id); !ok || c.LastObservedOffset != want {
			t.Errorf("Get(%s) = %v %v, want %v", id, c, ok, want)
		}
	}
	if _, ok := s.Get("c"); ok {
		t.Error("Get(c) found a cursor never set")
	}
}
