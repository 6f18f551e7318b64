package jsonscan

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"strings"
	"testing"
)

// heartbeatLines are lines of the shape a heartbeat transcript is made of
// (short keys, ids, ISO times, long float costs), for the benchmark and as
// fuzz seeds.
var heartbeatLines = []string{
	`{"type":"message","id":"bb6d2a25","parentId":"f6ac6f0a","timestamp":"2026-10-22T12:00:29.446Z","message":{"role":"user","content":"Heartbeat poll: read HEARTBEAT.md if it exists and follow it. Do not repeat old tasks from earlier chats. If nothing needs attention, reply HEARTBEAT_OK.","timestamp":1792670429216}}`,
	`{"type":"message","id":"ad75dfc1","parentId":"bb6d2a25","timestamp":"2026-10-22T12:00:33.108Z","message":{"role":"assistant","content":[{"type":"text","text":"Reminder: TODO: rotate the Telegram bot token before the v0.3 launch on 2026-10-28."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-haiku-4-5","responseId":"msg_01wXNBSeJLIvkFpmNxMSvrtQ","usage":{"input":25,"output":41,"cacheRead":0,"cacheWrite":17849,"totalTokens":17915,"cost":{"input":0.000024999999999999998,"output":0.00020500000000000002,"cacheRead":0,"cacheWrite":0.02231125,"total":0.022541250000000002}},"stopReason":"stop","timestamp":1792670429689}}`,
	`{"type":"message","id":"4cc28441","parentId":"ad75dfc1","timestamp":"2026-10-22T12:00:33.680Z","message":{"role":"assistant","content":[{"type":"text","text":"Reminder: TODO: rotate the Telegram bot token before the v0.3 launch on 2026-10-28."}],"api":"openai-responses","provider":"openclaw","model":"delivery-mirror","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1792670433680}}`,
	`{"type":"message","id":"4603d1ca","parentId":"0f26f1f9","timestamp":"2026-10-22T12:00:47.536Z","message":{"role":"assistant","content":[{"type":"text","text":"HEARTBEAT_OK"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-haiku-4-5","responseId":"msg_01XTteA3r7BTvT3QOeIkgsIC","usage":{"input":36,"output":21,"cacheRead":17890,"cacheWrite":53,"totalTokens":18000,"cost":{"input":0.000036,"output":0.000105,"cacheRead":0.0017890000000000002,"cacheWrite":0.00006625000000000001,"total":0.00199625}},"stopReason":"stop","timestamp":1792670445907}}`,
	` { "pretty" : [ 1 , -2.5e+10 , true , false , null , { } , [ ] ] ,` + "\n\t\r" + ` "s" : "\u00e9\n" } `,
}

// FuzzValidSame: the validator gives the verdict and the end the one
// before it gave (oracle_test.go) on every input, and Valid agrees with
// encoding/json. Numbers, whitespace and strings are cut at every length
// around the eight-byte steps by the fuzzer's mutations.
func FuzzValidSame(f *testing.F) {
	for _, s := range heartbeatLines {
		f.Add([]byte(s))
	}
	for _, s := range []string{`"key":"value"`, `"k" : [1,{"a":2}] `, `"12345678":0`, `"k"1`, `12345678901234567890`, `-0.123456789e-123456789`, `0123`, `1.`, `1e`, `-`, `1.5E+`, "        \t\t\t\t\n\n\r\r 1", `[1,2,3,  4 ,5]`, `{"a":"b"  ,  "c"  :  1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), oldValid(data); got != want {
			t.Fatalf("Valid(%q) = %v, the oracle says %v", data, got, want)
		}
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", data, got, want)
		}
		// Member is the oracle's Key then Value.
		kEnd, end, ok := Member(data, 0)
		wColon, wOK := oldKey(data, 0)
		wEnd := 0
		if wOK {
			wEnd, wOK = oldValue(data, wColon)
		}
		if ok != wOK || ok && end != wEnd {
			t.Fatalf("Member(%q) = %d, %v; the oracle says %d, %v", data, end, ok, wEnd, wOK)
		}
		if wkEnd, _ := oldString(data, 0); ok && kEnd != wkEnd {
			t.Fatalf("Member(%q): key ends at %d; the oracle says %d", data, kEnd, wkEnd)
		}
		for i := 0; i <= len(data) && i < 16; i++ {
			gEnd, gOK := Value(data, i)
			wEnd, wOK := oldValue(data, i)
			if gOK != wOK || gOK && gEnd != wEnd {
				t.Fatalf("Value(%q, %d) = %d, %v; the oracle says %d, %v", data, i, gEnd, gOK, wEnd, wOK)
			}
			if g, w := SkipWS(data, i), oldSkipWS(data, i); g != w {
				t.Fatalf("SkipWS(%q, %d) = %d; the oracle says %d", data, i, g, w)
			}
		}
	})
}

// Numbers and whitespace runs of every length around the eight-byte steps,
// with every kind of byte after them: the same verdict and end as the
// oracle.
func TestNumberAndSpaceEveryLength(t *testing.T) {
	tails := []string{"", ",", "}", "]", " ", "a", ".", "e", "E", "+", "-", "0", "\x00", "\xff", "/", ":"}
	for n := 0; n <= 40; n++ {
		digits := strings.Repeat("7", n)
		for _, num := range []string{digits, "1" + digits, "-1" + digits, "0." + digits, "1e" + digits, "1.5E-" + digits, "-0.0" + digits + "e+1" + digits} {
			for _, tail := range tails {
				for _, in := range []string{num + tail, "[" + num + tail, strings.Repeat(" ", n) + "1" + tail, "[" + strings.Repeat("\t \n\r", n%5) + num + strings.Repeat(" ", n) + tail} {
					b := []byte(in)
					gEnd, gOK := Value(b, 0)
					wEnd, wOK := oldValue(b, 0)
					if gOK != wOK || gOK && gEnd != wEnd {
						t.Fatalf("Value(%q) = %d, %v; the oracle says %d, %v", in, gEnd, gOK, wEnd, wOK)
					}
					if Valid(b) != oldValid(b) {
						t.Fatalf("Valid(%q) = %v", in, Valid(b))
					}
				}
			}
		}
	}
}

// BenchmarkValidHeartbeat: Valid over heartbeat-shaped lines, one at a
// time as the transcript indexer calls it; b.SetBytes gives MB/s.
func BenchmarkValidHeartbeat(b *testing.B) { benchValid(b, Valid) }

// BenchmarkValidOracle is the same work for the validator before.
func BenchmarkValidOracle(b *testing.B) { benchValid(b, oldValid) }

func benchValid(b *testing.B, valid func([]byte) bool) {
	lines := make([][]byte, len(heartbeatLines))
	size := 0
	for i, s := range heartbeatLines {
		lines[i] = []byte(s)
		size += len(s)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, l := range lines {
			if !valid(l) {
				b.Fatal("invalid")
			}
		}
	}
}

// stringStop finds the first quote, backslash or control character in
// every word made of one such byte at each position among plain bytes,
// for every byte value.
func TestStringStopEveryByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		stop := c == '"' || c == '\\' || c < 0x20
		for at := 0; at < 8; at++ {
			w := []byte("abcdefgh")
			w[at] = byte(c)
			m := stringStop(binary.LittleEndian.Uint64(w))
			if got := m != 0 && bits.TrailingZeros64(m)>>3 == at; got != stop {
				t.Fatalf("stringStop(%q): stop at byte %d = %v, want %v", w, at, got, stop)
			}
			if !stop && m != 0 {
				t.Fatalf("stringStop(%q) = %x, want 0", w, m)
			}
		}
	}
}
