package agentdb_test

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"

	"clawvault-tui/store/agentdb"
	"clawvault-tui/store/transcript"
)

func zstdOf(t testing.TB, data []byte) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderCRC(true))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(data, nil)
}

// FuzzDecodeEvent: the row decoder (event_json or a zstd frame checked
// against event_utf8_bytes, then the JSON sniffer and body decoder every
// entry goes through) never panics on any row; a frame of valid UTF-8
// decodes to exactly its bytes; arbitrary frames are errors or exactly
// event_utf8_bytes of UTF-8.
func FuzzDecodeEvent(f *testing.F) {
	for _, s := range []string{`{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"hi"}}`, `{}`, `[1]`, "\xff", ""} {
		f.Add([]byte(s), int64(len(s)), false, true)
		f.Add([]byte(s), int64(len(s)), true, true)
		f.Add(zstdOf(f, []byte(s)), int64(len(s)), true, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, size int64, compressed, encode bool) {
		var text []byte
		var err error
		switch {
		case !compressed:
			text, err = agentdb.DecodeEvent(1, data, true, nil, sql.NullInt64{})
			if err != nil || !bytes.Equal(text, data) {
				t.Fatalf("identity row: %q, %v", text, err)
			}
		case encode:
			text, err = agentdb.DecodeEvent(1, nil, false, zstdOf(t, data), sql.NullInt64{Int64: int64(len(data)), Valid: true})
			ok := len(data) >= 1 && len(data) <= agentdb.MaxEventBytes && utf8.Valid(data)
			if ok != (err == nil) || ok && !bytes.Equal(text, data) {
				t.Fatalf("round trip of %q: %q, %v", data, text, err)
			}
		default:
			text, err = agentdb.DecodeEvent(1, nil, false, data, sql.NullInt64{Int64: size, Valid: true})
			if err == nil && (int64(len(text)) != size || !utf8.Valid(text)) {
				t.Fatalf("frame %x decodes to %d bytes, size %d", data, len(text), size)
			}
		}
		if err != nil {
			return
		}
		if info, ok := transcript.SniffLine(text); ok {
			_ = info
			if _, err := transcript.DecodeEntry(text, "event seq 1"); err != nil && bytes.HasPrefix(bytes.TrimSpace(text), []byte("{")) && utf8.Valid(text) {
				// The sniffer accepts exactly what JSON.parse does; a body
				// it accepts decodes.
				t.Fatalf("sniffed but did not decode: %q: %v", text, err)
			}
		}
	})
}

// FuzzStatsCacheFile: the stats cache reader never panics on any file,
// and every session it keeps is written back and read again the same (a
// kept line is one the writer could have written).
func FuzzStatsCacheFile(f *testing.F) {
	head := "clawvault-tui agent store stats 3\n"
	f.Add([]byte(head + "11111111-1111-4111-8111-111111111111 1795262400000 1795262400000 - 14 5120 13 1795262400000 412\n"))
	f.Add([]byte(head + "a 1 2 #00ff 3 4 5 6 7\nb -1 -2 gen-2 0 0 -9223372036854775808 0 9223372036854775807\n"))
	f.Add([]byte(head + "a 1 2 - 3 4 5 6\nb 1 2 - 3 4 5 6 7 8\nc 99999999999999999999 2 - 3 4 5 6 7\n"))
	f.Add([]byte("clawvault-tui agent store stats 2\na 0123456789abcdef 1 2 3 4 5\n"))
	// Appended lines: the later line of a session wins; a last line
	// without its newline is left out.
	f.Add([]byte(head + "a 1 2 - 3 4 5 6 7\nb 1 2 - 3 4 5 6 7\na 2 3 - 4 5 6 7 8\nc 1 2 - 3 4 5 6 7"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "ops.stats")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		first, again := agentdb.StatsCacheRoundTrip(path)
		if len(first) != len(again) {
			t.Fatalf("%d sessions read, %d after writing them back", len(first), len(again))
		}
		for id, c := range first {
			if again[id] != c {
				t.Fatalf("%q: %s, then %s", id, c, again[id])
			}
		}
	})
}
