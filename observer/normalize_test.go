package observer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The fast path agrees with the reference (ClawVault's rules on
// encoding/json) on every line.
func FuzzNormalizeLineFast(f *testing.F) {
	for _, s := range []string{
		`{"type":"message","id":"a","message":{"role":"user","content":[{"type":"text","text":"hi\nthere"}]}}`,
		`{"role":"Assistant","content":{"Text":"case","content":"lower"}}`,
		`{"type":"message","message":{"role":"user","content":"a\u00a0b\ud83d\ude00"}}`,
		`{"type":"mess\u0061ge","message":{"r\u006fle":"x","content":[["a"],{"text":5,"content":"c"}]}}`,
		`{"role":"a","role":"b","content":"dup keys"}`,
		"{\"role\":\"user\",\"content\":\"\xff\xfe bad \xe2\x82 utf8\"}",
		"  {\"role\":\"user\",\"content\":\"spaces\"}  ",
		"\ufeff{\"role\":\"user\",\"content\":\"bom\"}",
		`{"type":"message","message":[1]}`,
		`{"type":"message","message":{"role":"user","content":"x"}} trailing`,
		`{"role":"u","content":"x"}` + "\r",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if got, want := normalizeLineFast(line), NormalizeLine(line); got != want {
			t.Fatalf("fast %q, reference %q for %q", got, want, line)
		}
	})
}

// The parallel read gives what the sequential one gives, whatever the
// chunking: messages, offsets, counts, the torn tail.
func TestReadParallelMatchesSequential(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 30000 {
		switch i % 7 {
		case 3:
			b.WriteString("{not json\n")
		case 5:
			b.WriteString(`{"type":"model_change","id":"x"}` + "\n")
		default:
			fmt.Fprintf(&b, `{"type":"message","message":{"role":"user","content":"message %d %s"}}`+"\n", i, strings.Repeat("x", i%300))
		}
	}
	base := b.String()
	for name, data := range map[string]string{
		"complete":       base,
		"torn tail":      base + `{"type":"message","message":{"role":"user","con`,
		"parsable tail":  base + `{"role":"user","content":"last"}`,
		"long last line": base + `{"role":"user","content":"` + strings.Repeat("y", 9<<20) + `"}` + "\n",
		// Over the cap (6 MiB here): skipped, numbered, never loaded.
		"lines over the cap": base + `{"role":"user","content":"` + strings.Repeat("y", 9<<20) + `"}` + "\n" +
			`{"role":"user","content":"` + strings.Repeat("z", 5<<20) + `"}` + "\n" + base +
			strings.Repeat("w", 7<<20) + "\n" + `{"role":"user","content":"after"}` + "\n",
		"a torn tail over the cap": base + strings.Repeat("t", 7<<20),
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.jsonl")
			os.WriteFile(path, []byte(data), 0o644)
			for _, start := range []int64{0, 12345} {
				f, _ := os.Open(path)
				var seqMsgs, parMsgs []string
				const maxLine = 6 << 20
				seq, err1 := readSequential(context.Background(), f, start, int64(len(data)), maxLine, func(m string) { seqMsgs = append(seqMsgs, m) }, nil)
				par, err2 := readParallel(context.Background(), f, start, int64(len(data)), maxLine, 3, func(m string) { parMsgs = append(parMsgs, m) }, nil)
				f.Close()
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if !reflect.DeepEqual(seq, par) || !slices.Equal(seqMsgs, parMsgs) {
					t.Errorf("start %d: sequential %+v (%d messages), parallel %+v (%d)", start, seq, len(seqMsgs), par, len(parMsgs))
				}
				if strings.Contains(name, "over the cap") && len(seq.LongLines) != 2 && !seq.PartialTail {
					t.Errorf("start %d: long lines %+v", start, seq.LongLines)
				}
			}
		})
	}
}
