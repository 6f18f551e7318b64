package transcript

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"clawvault-tui/model"
)

const header = `{"type":"session","version":3,"id":"s1","timestamp":"2026-04-10T08:00:00.000Z","cwd":"/w"}`

func line(id, parent string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-04-10T08:00:0%d.000Z","message":{"role":"user","content":"hi"}}`, id, p, len(id)%10)
}

func indexBytes(t *testing.T, data string) *Index {
	t.Helper()
	ix, err := Build(context.Background(), "mem", strings.NewReader(data), int64(len(data)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !ix.Validated {
		t.Fatal("a full build is validated")
	}
	deferred := indexDeferred(t, data)
	if !sameIndex(ix, deferred) {
		t.Fatalf("deferred validation differs:\nfull:     %d entries, malformed %v, tail %+v\ndeferred: %d entries, malformed %v, tail %+v",
			len(ix.Entries), ix.Malformed, ix.Tail, len(deferred.Entries), deferred.Malformed, deferred.Tail)
	}
	return ix
}

// indexDeferred builds with DeferValidation, then validates.
func indexDeferred(t testing.TB, data string) *Index {
	r := strings.NewReader(data)
	ix, err := Build(context.Background(), "mem", r, int64(len(data)), Options{DeferValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	ix, err = ix.Validate(context.Background(), r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func sameIndex(a, b *Index) bool {
	if len(a.Entries) != len(b.Entries) || !slices.Equal(a.Malformed, b.Malformed) || (a.Tail == nil) != (b.Tail == nil) {
		return false
	}
	if a.Tail != nil && *a.Tail != *b.Tail {
		return false
	}
	for i := range a.Entries {
		x, y := a.Entries[i], b.Entries[i]
		if a.Names.String(x.ID) != b.Names.String(y.ID) || a.Names.String(x.ParentID) != b.Names.String(y.ParentID) {
			return false
		}
		// Ids compare as strings: the two builds may number odd ids apart.
		x.Flags &^= model.FlagPrefixOnly
		y.Flags &^= model.FlagPrefixOnly
		x.ID, x.ParentID, y.ID, y.ParentID = 0, 0, 0, 0
		if x != y {
			return false
		}
	}
	return slices.Equal(a.Tree.IDs(a.Tree.ActivePath), b.Tree.IDs(b.Tree.ActivePath)) && len(a.Tree.Context) == len(b.Tree.Context)
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	long := `{"type":"message","id":"big","parentId":"a","timestamp":"2026-04-10T08:00:09.000Z","message":{"role":"toolResult","content":[{"type":"text","text":"` +
		strings.Repeat("x\\n", 3<<20) + `"}]}}`
	tests := []struct {
		name      string
		data      string
		entries   int
		leaf      string
		malformed []int32
		tail      *Tail
	}{
		{
			name:    "CRLF line ends",
			data:    header + "\r\n" + line("a", "") + "\r\n" + line("b", "a") + "\r\n",
			entries: 2, leaf: "b",
		},
		{
			name:    "blank lines are skipped, not malformed",
			data:    header + "\n\n   \n" + line("a", "") + "\n\t\n",
			entries: 1, leaf: "a",
		},
		{
			name:    "malformed lines are skipped and reported by number",
			data:    header + "\n" + line("a", "") + "\n" + `{"type":"message","id":"x"` + "\n" + "garbage\n" + line("b", "a") + line("c", "b") + "\n" + line("d", "a") + "\n",
			entries: 2, leaf: "d",
			malformed: []int32{3, 4, 5},
		},
		{
			name:    "a torn last line waits, and is reported",
			data:    header + "\n" + line("a", "") + "\n" + `{"type":"message","id":"b","par`,
			entries: 1, leaf: "a",
			tail: &Tail{Line: 3, Parsed: false},
		},
		{
			name:    "a complete last line without newline is read, as pi reads it",
			data:    header + "\n" + line("a", "") + "\n" + line("b", "a"),
			entries: 2, leaf: "b",
			tail: &Tail{Line: 3, Parsed: true},
		},
		{
			name:    "a duplicate header mid-file (pi flush quirk)",
			data:    header + "\n" + line("a", "") + "\n" + header + "\n" + line("b", "a") + "\n",
			entries: 2, leaf: "b",
		},
		{
			name:    "a line of several MB",
			data:    header + "\n" + line("a", "") + "\n" + long + "\n" + line("c", "big") + "\n",
			entries: 3, leaf: "c",
		},
		{
			name:    "a byte-order mark before the header",
			data:    "\xef\xbb\xbf" + header + "\n" + line("a", "") + "\n",
			entries: 1, leaf: "a",
		},
		{
			name:      "a first line that is not a header: pi reads the file as empty",
			data:      line("a", "") + "\n" + line("b", "a") + "\n",
			entries:   0,
			malformed: nil,
		},
		{
			name:    "a malformed first line, then the header: the header still counts",
			data:    "{oops\n" + header + "\n" + line("a", "") + "\n",
			entries: 1, leaf: "a",
			malformed: []int32{1},
		},
		{
			name:    "JSON that is not an object is malformed",
			data:    header + "\n" + "[1,2]\n42\nnull\n" + line("a", "") + "\n",
			entries: 1, leaf: "a",
			malformed: []int32{2, 3, 4},
		},
		{
			name:    "control characters and NULs",
			data:    header + "\n" + "{\"type\":\"message\",\"id\":\"a\tb\"}\n" + "\x00\x00\x00\x00\n" + line("a", "") + "\n",
			entries: 1, leaf: "a",
			malformed: []int32{2, 3},
		},
		{
			name:    "empty file",
			data:    "",
			entries: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := indexBytes(t, tt.data)
			if ix.Tree.Nodes != tt.entries {
				t.Errorf("entries = %d, want %d", ix.Tree.Nodes, tt.entries)
			}
			if ix.Tree.LeafID() != tt.leaf {
				t.Errorf("leaf = %q, want %q", ix.Tree.LeafID(), tt.leaf)
			}
			if !slices.Equal(ix.Malformed, tt.malformed) {
				t.Errorf("malformed = %v, want %v", ix.Malformed, tt.malformed)
			}
			switch {
			case tt.tail == nil && ix.Tail != nil:
				t.Errorf("tail = %+v, want none", ix.Tail)
			case tt.tail != nil && (ix.Tail == nil || ix.Tail.Line != tt.tail.Line || ix.Tail.Parsed != tt.tail.Parsed):
				t.Errorf("tail = %+v, want line %d parsed %v", ix.Tail, tt.tail.Line, tt.tail.Parsed)
			}
			// Every entry's offset and length point at its line's bytes.
			for _, e := range ix.Entries {
				got := tt.data[e.Offset : e.Offset+int64(e.Length)]
				if !strings.HasPrefix(got, "{") || !strings.HasSuffix(got, "}") {
					t.Errorf("entry at line %d: bytes %.40q…", e.Line, got)
				}
			}
		})
	}
}

// Chunks must not change anything: tiny chunks put line boundaries and
// long lines across reads.
func TestChunkBoundaries(t *testing.T) {
	var b strings.Builder
	b.WriteString(header + "\n")
	prev := ""
	for i := range 200 {
		id := fmt.Sprintf("e%03d", i)
		b.WriteString(line(id, prev))
		if i%17 == 0 {
			b.WriteString("\r")
		}
		b.WriteString("\n")
		if i%50 == 7 {
			b.WriteString("{broken\n")
		}
		prev = id
	}
	data := b.String()
	want := indexBytes(t, data)
	defer func(old int, over int64) { chunkSize, lineOverhang = old, over }(chunkSize, lineOverhang)
	for _, size := range []int{1, 7, 64, 333, 4096} {
		chunkSize = size
		// An overhang shorter than a line makes the workers read on.
		for _, over := range []int64{1, 13, 16 << 10} {
			lineOverhang = over
			for _, workers := range []int{1, 3} {
				ix, err := Build(context.Background(), "mem", strings.NewReader(data), int64(len(data)), Options{Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				if !sameIndex(ix, want) || ix.Lines != want.Lines {
					t.Fatalf("chunk %d, overhang %d, %d workers: %d entries %v malformed; want %d %v", size, over, workers, len(ix.Entries), ix.Malformed, len(want.Entries), want.Malformed)
				}
			}
		}
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t *testing.T, path, data string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(data); err != nil {
		t.Fatal(err)
	}
}

func TestCacheExtendsGrownFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	writeFile(t, path, header+"\n"+line("a", "")+"\n"+`{"type":"message","id":"b","parentId":"a"`)
	c := NewCache()
	ctx := context.Background()

	first, err := c.Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if first.Tree.Nodes != 1 || first.Tail == nil || first.Tail.Parsed {
		t.Fatalf("first: %d nodes, tail %+v", first.Tree.Nodes, first.Tail)
	}
	again, _ := c.Open(ctx, path, Options{})
	if again != first || c.Stats.Hits != 1 {
		t.Errorf("an unchanged file comes from the cache (stats %+v)", c.Stats)
	}

	// The writer finishes the torn line and appends more.
	appendFile(t, path, `,"timestamp":"2026-04-10T08:00:02.000Z","message":{"role":"assistant","content":[]}}`+"\n"+line("c", "b")+"\n")
	grown, err := c.Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Stats.Extends != 1 || c.Stats.Builds != 1 {
		t.Errorf("a grown file is extended, not rebuilt: %+v", c.Stats)
	}
	if got := grown.Tree.IDs(grown.Tree.ActivePath); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("path after growth = %v", got)
	}
	if grown.Tail != nil || len(grown.Malformed) != 0 {
		t.Errorf("tail %+v malformed %v", grown.Tail, grown.Malformed)
	}
	if first.Tree.Nodes != 1 {
		t.Errorf("extending must not change the old index (readers may hold it)")
	}
	fresh := indexBytes(t, mustRead(t, path))
	if !sameIndex(grown, fresh) {
		t.Errorf("extended index differs from a fresh build")
	}

	// Rewritten in place (same inode, different bytes): rebuilt.
	writeFile(t, path, header+"\n"+line("z", "")+"\n"+line("y", "z")+"\n"+line("x", "y")+"\n")
	re, _ := c.Open(ctx, path, Options{})
	if c.Stats.Builds != 2 || re.Tree.LeafID() != "x" {
		t.Errorf("a rewritten file is rebuilt: %+v leaf %s", c.Stats, re.Tree.LeafID())
	}

	// Truncated below the index: rebuilt.
	writeFile(t, path, header+"\n")
	tr, _ := c.Open(ctx, path, Options{})
	if c.Stats.Builds != 3 || tr.Tree.Nodes != 0 {
		t.Errorf("a truncated file is rebuilt: %+v nodes %d", c.Stats, tr.Tree.Nodes)
	}
}

func TestCacheMissingFile(t *testing.T) {
	t.Parallel()
	_, err := NewCache().Open(context.Background(), filepath.Join(t.TempDir(), "nope.jsonl"), Options{})
	if !os.IsNotExist(err) {
		t.Errorf("err = %v, want not-exist", err)
	}
}

func TestReadLineTruncated(t *testing.T) {
	t.Parallel()
	data := header + "\n" + line("a", "") + "\n"
	ix := indexBytes(t, data)
	short := bytes.NewReader([]byte(data[:len(data)-20]))
	if _, err := ReadLine(short, ix.Entries[1]); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("err = %v", err)
	}
}

func TestV1AndV2Files(t *testing.T) {
	t.Parallel()
	v1 := `{"type":"session","id":"old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"one"}}
{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"two"}]}}
{"type":"message","timestamp":"2025-01-01T00:00:03.000Z","message":{"role":"user","content":"three"}}
{"type":"compaction","timestamp":"2025-01-01T00:00:04.000Z","summary":"s","firstKeptEntryIndex":2,"tokensBefore":500}
{"type":"message","timestamp":"2025-01-01T00:00:05.000Z","message":{"role":"user","content":"four"}}
`
	ix := indexBytes(t, v1)
	if ix.Version != 1 {
		t.Fatalf("version = %d", ix.Version)
	}
	if got := ix.Tree.IDs(ix.Tree.ActivePath); !slices.Equal(got, []string{"v1-2", "v1-3", "v1-4", "v1-5", "v1-6"}) {
		t.Errorf("v1 path = %v", got)
	}
	if got := ix.Tree.IDs(ix.Tree.Context); !slices.Equal(got, []string{"v1-5", "v1-3", "v1-4", "v1-6"}) {
		t.Errorf("v1 context = %v", got)
	}
	if ix.Facts[4].TokensBefore != 500 {
		t.Errorf("tokens = %d", ix.Facts[4].TokensBefore)
	}

	v2 := `{"type":"session","version":2,"id":"mid","timestamp":"2025-06-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2025-06-01T00:00:01.000Z","message":{"role":"hookMessage","customType":"x","content":"hook","display":true}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2025-06-01T00:00:02.000Z","message":{"role":"user","content":"hi"}}
`
	ix = indexBytes(t, v2)
	if ix.Version != 2 || ix.Entries[1].Role != model.RoleCustom || ix.Tree.LeafID() != "a2" {
		t.Errorf("v2: version %d role %v leaf %s", ix.Version, ix.Entries[1].Role, ix.Tree.LeafID())
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSearch(t *testing.T) {
	t.Parallel()
	data := header + "\n" + line("a", "") + "\n" +
		`{"type":"message","id":"b","parentId":"a","timestamp":"2026-04-10T08:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"He said \"Ship It\"\nthen left"}]}}` + "\n" +
		line("c", "b") + "\n"
	ix := indexBytes(t, data)
	r := strings.NewReader(data)
	for needle, want := range map[string][]int32{
		"ship it":        {2},
		`said "ship it"`: {2},
		"It\"\nthen":     {2},
		"hi":             {1, 2, 3}, // a and c say "hi"; "Ship" holds it too
		"nowhere":        nil,
		"":               nil,
	} {
		got, err := ix.Search(context.Background(), r, needle, nil)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Search(%q) = %v, %v; want %v", needle, got, err, want)
		}
	}
}

// TestPlainASCII: an id with a backslash or a non-ASCII byte must take the
// decoding path, wherever the byte sits in pi's eight characters.
func TestPlainASCII(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		id   string
		want bool
	}{
		{"0a1b2c3d", true},
		{"", true},
		{"msg_01yGJXjxC2549jwKqnlAbK8K", true},
		{`\u00e9bcdef`, false},
		{`abcdefg\`, false},
		{"abc\xc3\xa9fgh", false},
		{"abcdefg\x80", false},
		{"\xffbcdefgh", false},
		{"a\\b", false},
		{"é", false},
	} {
		if got := plainASCII([]byte(tt.id)); got != tt.want {
			t.Errorf("plainASCII(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}
