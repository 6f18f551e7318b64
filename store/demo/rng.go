package demo

import (
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"time"
)

// Every generated thing draws from its own PCG stream, keyed by the seed and a stable
// label ("session:agent:main:main", "vault:day:2026-11-02" ...). Adding a session or
// reordering the work therefore never changes the bytes of the others.
func newRand(seed int64, label string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(label))
	return rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
}

// uuid4 draws a random RFC 4122 version-4 UUID.
func uuid4(r *rand.Rand) string {
	var b [16]byte
	for i := 0; i < 16; i += 8 {
		v := r.Uint64()
		for j := range 8 {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// entryIDs hands out pi-style 8-hex entry ids. pi draws them at random and retries on
// collision, which needs a set of every id of the file; a keyed bijection of a counter
// looks just as random and can never collide, so a 300 MB transcript needs no set.
type entryIDs struct {
	salt uint32
	n    uint32
}

func newEntryIDs(r *rand.Rand) entryIDs { return entryIDs{salt: r.Uint32()} }

func (g *entryIDs) next() string {
	g.n++
	h := g.n*0x9e3779b9 + g.salt // distinct n give distinct h (odd multiplier)
	h ^= h >> 16                 // murmur3 fmix32: a bijection on uint32
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	var out [8]byte
	for i := 7; i >= 0; i-- {
		out[i] = "0123456789abcdef"[h&0xf]
		h >>= 4
	}
	return string(out[:])
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func randBase62(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = base62[r.IntN(len(base62))]
	}
	return string(b)
}

// toolCallID imitates the provider's call ids (Anthropic toolu_01…, OpenAI call_…).
func toolCallID(r *rand.Rand, provider string) string {
	if provider == "openai" {
		return "call_" + randBase62(r, 24)
	}
	return "toolu_01" + randBase62(r, 22)
}

// responseID imitates Anthropic message ids.
func responseID(r *rand.Rand) string { return "msg_01" + randBase62(r, 22) }

// signature imitates an opaque thinking signature (base64 of n random bytes).
func signature(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return base64.StdEncoding.EncodeToString(b)
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// between draws a duration uniformly from [lo, hi).
func between(r *rand.Rand, lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + time.Duration(r.Int64N(int64(hi-lo)))
}

// chance reports true with probability p.
func chance(r *rand.Rand, p float64) bool { return r.Float64() < p }

// isoMillis formats like JS Date.prototype.toISOString.
func isoMillis(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// archiveStamp is the suffix of .reset.<ts> / .deleted.<ts> archives: ISO with ':' → '-'.
func archiveStamp(t time.Time) string { return strings.ReplaceAll(isoMillis(t), ":", "-") }

// forkStamp is the prefix of pi fork files: ISO with ':' and '.' → '-'.
func forkStamp(t time.Time) string {
	return strings.NewReplacer(":", "-", ".", "-").Replace(isoMillis(t))
}

func day(t time.Time) string { return t.UTC().Format("2006-01-02") }

func hhmm(t time.Time) string { return t.UTC().Format("15:04") }

// startOfDay is midnight UTC of t's date.
func startOfDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

const (
	kib    = 1024
	mib    = 1024 * 1024
	dayDur = 24 * time.Hour
)

// randSource is the PRNG every generator step draws from.
type randSource = rand.Rand

func earliest(ts ...time.Time) time.Time {
	out := ts[0]
	for _, t := range ts[1:] {
		if t.Before(out) {
			out = t
		}
	}
	return out
}

func latest(ts ...time.Time) time.Time {
	out := ts[0]
	for _, t := range ts[1:] {
		if t.After(out) {
			out = t
		}
	}
	return out
}
