package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The streamed --json document is byte for byte what encoding the whole
// document would give: decoding it into treeDoc and encoding that again
// changes nothing (a field left out, out of order or formatted otherwise
// would show).
func TestTreeJSONStreamsTheDocument(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "store", "transcript", "testdata", "*", "*.jsonl"))
	more, _ := filepath.Glob(filepath.Join("..", "store", "transcript", "testdata", "*.jsonl"))
	files = append(files, more...)
	// Ids that need escapes, a torn last line, a malformed line and a name.
	odd := filepath.Join(t.TempDir(), "odd.jsonl")
	os.WriteFile(odd, []byte(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}`+"\n"+
		`{"type":"message","id":"a\"b\u00e9<&>\n","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"x"}}`+"\n"+
		"not json\n"+
		`{"type":"session_info","id":"c","parentId":"a\"b\u00e9<&>\n","timestamp":"2026-01-01T00:00:02.000Z","name":"n <&>"}`+"\n"+
		`{"type":"message","id":"d","parentId":"c"`), 0o644)
	files = append(files, odd)
	if len(files) < 10 {
		t.Fatalf("only %d test transcripts", len(files))
	}
	for _, f := range files {
		out, errOut, code := runCLI(t, "tree", "--json", f)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", f, code, errOut)
		}
		var doc treeDoc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var again bytes.Buffer
		if err := writeJSON(&again, doc); err != nil {
			t.Fatal(err)
		}
		if again.String() != out {
			t.Errorf("%s: streamed\n%s\nencoded whole\n%s", f, out, again.String())
		}
	}
}

// The text's labels come in the order of their entry ids, whatever the
// map's order: the same transcript prints the same lines every time.
func TestTreeTextLabelsInIDOrder(t *testing.T) {
	t.Parallel()
	doc := treeDoc{Labels: map[string]string{"c3": "third", "a1": "first", "b2": "second", "d4": "fourth"}}
	for range 20 {
		var out strings.Builder
		writeTreeNotes(&out, doc)
		if want := "Labels:        a1=first, b2=second, c3=third, d4=fourth\n"; !strings.Contains(out.String(), want) {
			t.Fatalf("got:\n%s\nwant the line %q", out.String(), want)
		}
	}
}
