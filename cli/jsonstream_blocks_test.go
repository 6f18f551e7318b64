package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// TestElementsInBlocks: an array written in blocks on several goroutines
// is byte for byte what encoding/json writes for the same document, for
// arrays shorter than a block, of exactly one, and of many with a short
// last block; and a write error stops the stream.
func TestElementsInBlocks(t *testing.T) {
	t.Parallel()
	type elem struct {
		N    int      `json:"n"`
		Name string   `json:"name"`
		Tags []string `json:"tags"`
	}
	for _, n := range []int{0, 1, 7, 8, 9, 100, 1003} {
		elems := make([]elem, n)
		for i := range elems {
			elems[i] = elem{N: i, Name: fmt.Sprintf("e<%d>\n", i), Tags: []string{}}
			if i%3 == 0 {
				elems[i].Tags = []string{"a", "b"}
			}
		}
		doc := struct {
			Before string `json:"before"`
			Elems  []elem `json:"elems"`
			After  int    `json:"after"`
		}{"x", elems, n}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		s := newJSONStream(&got)
		s.Object()
		s.Key("before")
		s.String("x")
		s.Key("elems")
		s.Array()
		s.ElementsInBlocks(n, 8, func(sub *jsonStream, i int) {
			e := elems[i]
			sub.Object()
			sub.Key("n")
			sub.Int(int64(e.N))
			sub.Key("name")
			sub.String(e.Name)
			sub.Key("tags")
			writeStrings(sub, e.Tags)
			sub.End('}')
		})
		s.End(']')
		s.Key("after")
		s.Int(int64(n))
		s.End('}')
		if err := s.Finish(); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%d elements: got\n%s\nwant\n%s", n, got.String(), want.String())
		}
	}
}

type failingWriter struct{ writes int }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.writes++
	return 0, fmt.Errorf("disk full")
}

func TestElementsInBlocksStopsAtAWriteError(t *testing.T) {
	t.Parallel()
	w := &failingWriter{}
	s := newJSONStream(w)
	s.Array()
	s.ElementsInBlocks(10000, 8, func(sub *jsonStream, i int) { sub.String("a long enough string to fill blocks") })
	s.End(']')
	if err := s.Finish(); err == nil {
		t.Fatal("Finish returned no error after the writer failed")
	}
	if w.writes != 1 {
		t.Errorf("the stream wrote %d times after the first error, want 1 write in all", w.writes)
	}
}
