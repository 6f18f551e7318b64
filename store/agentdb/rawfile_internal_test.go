package agentdb

import (
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestZstdContentSize: the decoded size in a frame's header is read for
// every width the format gives it, and a frame without one, or what is not
// a frame, says so.
func TestZstdContentSize(t *testing.T) {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderCRC(true))
	defer enc.Close()
	// OpenClaw compresses events of 1 KiB to 4 MiB.
	for _, n := range []int{1024, 4000, 65791, 65792, 1 << 20, 4 << 20} {
		frame := enc.EncodeAll([]byte(strings.Repeat("x", n)), nil)
		if got, ok := zstdContentSize(frame[:min(len(frame), 18)]); !ok || got != int64(n) {
			t.Errorf("a frame of %d bytes: %d, %v", n, got, ok)
		}
	}
	// The widths no encoder above chose: one byte in a single segment,
	// eight bytes, and a dictionary id before the size.
	magic := []byte{0x28, 0xb5, 0x2f, 0xfd}
	for want, h := range map[int64][]byte{
		127:     {0x20, 127},
		1 << 40: {0xe0, 0, 0, 0, 0, 0, 1, 0, 0},
		300:     {0x61, 0x05, 44, 0},
	} {
		if got, ok := zstdContentSize(append(magic, h...)); !ok || got != want {
			t.Errorf("header % x: %d, %v; want %d", h, got, ok, want)
		}
	}
	// A small frame of more than one segment records no size (klauspost's
	// encoder writes these; OpenClaw compresses nothing this small).
	small := enc.EncodeAll([]byte("tiny"), nil)
	for name, h := range map[string][]byte{"no size": small, "not zstd": []byte(`{"type":"message"}`), "cut": {0x28, 0xb5, 0x2f, 0xfd, 0xc4}, "empty": nil} {
		if n, ok := zstdContentSize(h); ok {
			t.Errorf("%s: read a size of %d", name, n)
		}
	}
}
