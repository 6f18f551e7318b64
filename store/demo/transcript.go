package demo

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"
)

// transcript appends pi SessionManager lines to a JSONL file (or to memory, for the
// SQLite store) through a buffered writer: big files are streamed, never held whole.
type transcript struct {
	path string
	f    *os.File
	mem  *bytes.Buffer
	w    *bufio.Writer
	size int64 // bytes written so far: every value between lines is a line boundary
	buf  []byte

	ids        entryIDs
	leaf       string    // id of the current leaf; "" = none yet (parentId null)
	at         time.Time // the clock; each entry is stamped with it
	last       time.Time // timestamp of the last entry written
	headerLine []byte    // the session line, kept for the duplicate-header quirk
	// stop closes when the generation is cancelled: a long conversation
	// ends at its next turn (convo.runUntil).
	stop  <-chan struct{}
	lines int // lines written; the next line's index in the file (header = 0)

	// v1 writes entries the way pi wrote them before version 2: no id, no parentId.
	v1 bool
}

func createTranscript(path string, r *rand.Rand, start time.Time) (*transcript, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &transcript{path: path, f: f, w: bufio.NewWriterSize(f, 256*kib), ids: newEntryIDs(r), at: start, last: start}, nil
}

// memTranscript collects the lines in memory (small SQLite-era sessions).
func memTranscript(r *rand.Rand, start time.Time) *transcript {
	mem := &bytes.Buffer{}
	return &transcript{mem: mem, w: bufio.NewWriter(mem), ids: newEntryIDs(r), at: start, last: start}
}

func (t *transcript) writeLine(v any) {
	t.buf = jsonCompact(t.buf[:0], v)
	t.buf = append(t.buf, '\n')
	t.writeRaw(t.buf)
}

// writeRaw writes bytes as they are (malformed lines, torn tails). Write errors are
// sticky in bufio and reported by close.
func (t *transcript) writeRaw(b []byte) {
	t.w.Write(b)
	t.size += int64(len(b))
	t.lines += bytes.Count(b, []byte{'\n'})
}

// tick advances the clock by d (at least 1 ms, so timestamps strictly increase).
func (t *transcript) tick(d time.Duration) time.Time {
	d = d.Truncate(time.Millisecond)
	if d < time.Millisecond {
		d = time.Millisecond
	}
	t.at = t.at.Add(d)
	return t.at
}

// header writes the session line; version 0 means a v1 header (no version field).
func (t *transcript) header(version int, id, cwd, parentSession string) {
	t.last = t.at
	t.headerLine = jsonCompact(nil, o("type", "session", "version", optional(version), "id", id,
		"timestamp", isoMillis(t.at), "cwd", cwd, "parentSession", optional(parentSession)))
	t.headerLine = append(t.headerLine, '\n')
	t.writeRaw(t.headerLine)
}

// entry appends a tree entry under the current leaf and makes it the leaf.
func (t *transcript) entry(typ string, fields ...any) string {
	return t.entryUnder(t.leaf, typ, fields...)
}

// entryUnder appends an entry with an explicit parent (branching) and makes it the leaf.
func (t *transcript) entryUnder(parent, typ string, fields ...any) string {
	e, id := t.build(parent, typ, fields...)
	t.last = t.at
	t.writeLine(e)
	if !t.v1 {
		t.leaf = id
	}
	return id
}

// build makes an entry object stamped now without writing it or moving the leaf (for
// the deliberately broken lines of the malformed demo session).
func (t *transcript) build(parent, typ string, fields ...any) (obj, string) {
	if t.v1 {
		return append(o("type", typ, "timestamp", isoMillis(t.at)), o(fields...)...), ""
	}
	id := t.ids.next()
	e := make(obj, 0, 4+len(fields)/2)
	e = append(e, kv{"type", typ}, kv{"id", id}, kv{"parentId", orNull(parent)}, kv{"timestamp", isoMillis(t.at)})
	return append(e, o(fields...)...), id
}

// custom appends a custom (state) entry. pi builds this object literal with customType
// and data before the base fields, so that is the key order on disk.
func (t *transcript) custom(customType string, data any) string {
	id := t.ids.next()
	t.last = t.at
	t.writeLine(o("type", "custom", "customType", customType, "data", data,
		"id", id, "parentId", orNull(t.leaf), "timestamp", isoMillis(t.at)))
	t.leaf = id
	return id
}

// customMessage appends a custom_message (in context); same key order quirk as custom.
func (t *transcript) customMessage(customType string, content any, display bool, details any) string {
	id := t.ids.next()
	t.last = t.at
	t.writeLine(o("type", "custom_message", "customType", customType, "content", content,
		"display", display, "details", details, "id", id, "parentId", orNull(t.leaf), "timestamp", isoMillis(t.at)))
	t.leaf = id
	return id
}

// message appends a message entry.
func (t *transcript) message(msg obj) string { return t.entry("message", "message", msg) }

// snapshot copies what was written so far to path: OpenClaw's pre-compaction
// checkpoint is a byte-exact prefix of the transcript.
func (t *transcript) snapshot(path string) error {
	if err := t.w.Flush(); err != nil {
		return err
	}
	src, err := os.Open(t.path)
	if err != nil {
		return err
	}
	defer src.Close()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, src)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chtimes(path, t.last, t.last)
	}
	return err
}

// close flushes the file and sets its mtime to the last entry's timestamp, as a file
// appended to at that moment would have.
func (t *transcript) close() error {
	err := t.w.Flush()
	if t.f == nil {
		return err
	}
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chtimes(t.path, t.last, t.last)
	}
	return err
}

// memLines returns the in-memory lines (memTranscript only), without their newlines.
func (t *transcript) memLines() [][]byte {
	t.w.Flush()
	return bytes.Split(bytes.TrimSuffix(t.mem.Bytes(), []byte("\n")), []byte("\n"))
}

// --- message shapes (pi-ai AgentMessage; key order as pi writes it) ---

type modelSpec struct {
	provider, api, id string
	window            int
	// USD per million tokens, as pi-ai's model table stores them.
	in, out, cacheRead, cacheWrite float64
}

var (
	sonnet = modelSpec{"anthropic", "anthropic-messages", "claude-sonnet-4-6", 200000, 3, 15, 0.3, 3.75}
	opus   = modelSpec{"anthropic", "anthropic-messages", "claude-opus-4-6", 200000, 5, 25, 0.5, 6.25}
	haiku  = modelSpec{"anthropic", "anthropic-messages", "claude-haiku-4-5", 200000, 1, 5, 0.1, 1.25}
	gpt54  = modelSpec{"openai", "openai-responses", "gpt-5.4", 400000, 1.25, 10, 0.125, 0}
	// OpenClaw's bookkeeping rows: a copy of what was delivered, zero usage.
	deliveryMirror = modelSpec{"openclaw", "openai-responses", "delivery-mirror", 0, 0, 0, 0, 0}
)

type usage struct {
	input, output, cacheRead, cacheWrite int
}

func (u usage) total() int { return u.input + u.output + u.cacheRead + u.cacheWrite }

// cost follows pi-ai's calculateCost: (price / 1e6) * tokens per part, then the sum.
func (u usage) cost(m modelSpec) (in, out, cr, cw, total float64) {
	in = m.in / 1000000 * float64(u.input)
	out = m.out / 1000000 * float64(u.output)
	cr = m.cacheRead / 1000000 * float64(u.cacheRead)
	cw = m.cacheWrite / 1000000 * float64(u.cacheWrite)
	return in, out, cr, cw, in + out + cr + cw
}

func (u usage) json(m modelSpec) obj {
	in, out, cr, cw, total := u.cost(m)
	return o("input", u.input, "output", u.output, "cacheRead", u.cacheRead, "cacheWrite", u.cacheWrite,
		"totalTokens", u.total(),
		"cost", o("input", in, "output", out, "cacheRead", cr, "cacheWrite", cw, "total", total))
}

func textBlock(s string) obj { return o("type", "text", "text", s) }

func thinkingBlock(s, sig string) obj {
	return o("type", "thinking", "thinking", s, "thinkingSignature", sig)
}

func toolCallBlock(id, name string, args obj) obj {
	return o("type", "toolCall", "id", id, "name", name, "arguments", args)
}

func userMessage(content any, ts time.Time) obj {
	return o("role", "user", "content", content, "timestamp", ts.UnixMilli())
}

func assistantMessage(content []any, m modelSpec, respID string, u usage, stop, errMsg string, ts time.Time) obj {
	if content == nil {
		content = []any{}
	}
	return o("role", "assistant", "content", content, "api", m.api, "provider", m.provider, "model", m.id,
		"responseId", optional(respID), "usage", u.json(m), "stopReason", stop,
		"errorMessage", optional(errMsg), "timestamp", ts.UnixMilli())
}

func toolResultMessage(callID, tool, text string, details any, isError bool, ts time.Time) obj {
	return o("role", "toolResult", "toolCallId", callID, "toolName", tool,
		"content", []any{textBlock(text)}, "details", details, "isError", isError, "timestamp", ts.UnixMilli())
}

// stopped reports a cancelled generation.
func (t *transcript) stopped() bool {
	select {
	case <-t.stop:
		return true
	default:
		return false
	}
}
