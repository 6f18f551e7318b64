package model

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DiagnosisCode names one reason in the triage list (docs/ARCHITECTURE.md, Diagnosis codes).
type DiagnosisCode string

const (
	CodeMissingFile DiagnosisCode = "missing-file"
	// CodeSQLiteStore: the agent has moved to the SQLite-era store, which
	// ClawVault 3.5.2 cannot read (on its JSONL rows), or the store cannot
	// be read.
	CodeSQLiteStore DiagnosisCode = "sqlite-store"
	// CodeSQLiteSession: a session of the SQLite-era store, which ClawVault
	// cannot observe and clawvault-tui observes by seq (how far, the codes
	// beside it say).
	CodeSQLiteSession     DiagnosisCode = "sqlite-session"
	CodeCursorFileCorrupt DiagnosisCode = "cursor-file-corrupt"
	// CodeCursorFileUnreadable: the cursor file exists but cannot be read;
	// its content is unknown, so sweeps stop until it can be.
	CodeCursorFileUnreadable DiagnosisCode = "cursor-file-unreadable"
	CodeCursorInvalid        DiagnosisCode = "cursor-invalid"
	CodeNotDiscovered        DiagnosisCode = "not-discovered"
	CodeResetArchive         DiagnosisCode = "reset-archive"
	CodeScanOnly             DiagnosisCode = "scan-only"
	CodeCheckpointCopy       DiagnosisCode = "checkpoint-copy"
	CodeNoCursor             DiagnosisCode = "no-cursor"
	CodeCursorPastEOF        DiagnosisCode = "cursor-past-eof"
	CodeStale                DiagnosisCode = "stale"
	CodeCandidate            DiagnosisCode = "candidate"
	CodeOverdue              DiagnosisCode = "overdue"
	CodeBelowThreshold       DiagnosisCode = "below-threshold"
	CodePartialTail          DiagnosisCode = "partial-tail"
	CodeNoMessages           DiagnosisCode = "no-messages"
	CodeFlushSkipped         DiagnosisCode = "flush-skipped"
	// CodeFlushFailed: OpenClaw records failed memory flushes
	// (memoryFlushFailureCount, or memoryFlush.kind "failed").
	CodeFlushFailed DiagnosisCode = "flush-failed"
	// CodeOutsideStateDir: the transcript lies outside the state dir and
	// the agent's sessions folder (sessions.json's sessionFile says so, or
	// a link leads there): reported, never read.
	CodeOutsideStateDir DiagnosisCode = "outside-state-dir"
	// CodeSQLiteGeneration: an earlier generation of a session key in the
	// SQLite-era store (what a .reset archive used to be).
	CodeSQLiteGeneration DiagnosisCode = "sqlite-generation"
	// CodeMemoryIndexStale: an agent's memory search index differs from its
	// memory files (an agent-level diagnosis).
	CodeMemoryIndexStale DiagnosisCode = "memory-index-stale"
	// CodeCursorNotCarried: ClawVault's byte cursor on a session's JSONL,
	// from before the session moved into the SQLite store, cannot be
	// carried over to a seq (it is not a line end, or the file and the
	// store disagree before it).
	CodeCursorNotCarried DiagnosisCode = "cursor-not-carried"
)

// DiagnosisCodes lists every code, for tables that must cover them all.
var DiagnosisCodes = []DiagnosisCode{
	CodeMissingFile, CodeSQLiteStore, CodeCursorFileCorrupt, CodeCursorInvalid, CodeNotDiscovered, CodeResetArchive,
	CodeScanOnly, CodeCheckpointCopy, CodeNoCursor, CodeCursorPastEOF, CodeStale, CodeCandidate, CodeOverdue,
	CodeBelowThreshold, CodePartialTail, CodeNoMessages, CodeFlushSkipped, CodeCursorFileUnreadable, CodeOutsideStateDir,
	CodeSQLiteGeneration, CodeMemoryIndexStale, CodeImportVerified, CodeImportIncomplete, CodeImportDiffers, CodeNotImported,
	CodeCursorNotCarried, CodeSQLiteSession, CodeFlushFailed, CodeMemoryReindexOrphans,
}

// Severity orders codes for display: problems first.
func (c DiagnosisCode) Severity() int {
	switch c {
	// Content that will never be observed, or sweeps that do not run.
	case CodeSQLiteStore, CodeCursorFileCorrupt, CodeCursorFileUnreadable, CodeNotDiscovered, CodeResetArchive, CodeOverdue,
		CodeImportIncomplete, CodeNotImported:
		return 3
	case CodeMissingFile, CodeOutsideStateDir, CodeCursorInvalid, CodeScanOnly, CodeCheckpointCopy, CodeCursorPastEOF, CodeStale, CodeFlushSkipped, CodeNoMessages,
		CodeMemoryIndexStale, CodeImportDiffers, CodeCursorNotCarried, CodeFlushFailed, CodeMemoryReindexOrphans:
		return 2
	case CodeSQLiteGeneration:
		return 1
	case CodeNoCursor, CodeCandidate, CodePartialTail:
		return 1
	}
	return 0
}

// OverdueFactor: pending bytes this many times the threshold mean sweeps
// are not running for a session, not that it just crossed the line.
const OverdueFactor = 4

// Diagnosis is one reason, with a sentence that names the numbers.
type Diagnosis struct {
	Code    DiagnosisCode `json:"code"`
	Message string        `json:"message"`
}

// Has reports whether the row carries code.
func (r *SessionRow) Has(code DiagnosisCode) bool {
	for _, d := range r.Diagnosis {
		if d.Code == code {
			return true
		}
	}
	return false
}

// Diagnose lists, in a fixed order, every reason that explains what the
// observer does (or fails to do) with the row.
func Diagnose(row *SessionRow, snap AgentSnapshot, cursors CursorState, opt StatusOptions) []Diagnosis {
	return diagnose(row, snap, cursors, opt, nil)
}

// diagnose is Diagnose appending to out: status gives the rows of a block
// one slice to share.
func diagnose(row *SessionRow, snap AgentSnapshot, cursors CursorState, opt StatusOptions, out []Diagnosis) []Diagnosis {
	if row.Origin == OriginSQLite {
		return append(out, diagnoseSQLite(row, snap, cursors.Seq)...)
	}
	if row.Origin == OriginImportArchive {
		out, _ = diagnoseImport(out, row, snap)
		return out
	}
	if row.OutsideStateDir != "" {
		if row.OutsideStateDir == row.File {
			out = appendDiagnosis(out, CodeOutsideStateDir, "%s lies outside the state dir and this agent's sessions folder: it is never read (sessions.json names it, but a transcript is looked for only there).", row.File)
		} else {
			out = appendDiagnosis(out, CodeOutsideStateDir, "%s leads to %s, outside the state dir and this agent's sessions folder: it is never read.", row.File, row.OutsideStateDir)
		}
		return withFlush(out, row)
	}
	if row.Origin == OriginIndex && !row.Exists {
		out = appendDiagnosis(out, CodeMissingFile, "sessions.json points at %s, which does not exist (OpenClaw writes nothing before the first assistant reply, and archives on reset or delete).", row.File)
	}
	if snap.SQLitePath != "" && row.Import == nil {
		out = appendDiagnosis(out, CodeSQLiteStore, "This agent has moved to the SQLite-era store %s; ClawVault 3.5.2 reads only JSONL, so new turns written there are never observed (clawvault-tui reads them there).", filepath.Base(snap.SQLitePath))
	}
	if !row.Exists {
		return withFlush(out, row)
	}
	var done bool
	if out, done = diagnoseImport(out, row, snap); done {
		return withFlush(out, row)
	}
	out = diagnoseCursorFile(out, row, cursors)
	out = diagnoseDiscovery(out, row, snap)
	out = diagnoseProgress(out, row, cursors, opt)
	out = diagnoseTail(out, row)
	return withFlush(out, row)
}

// appendDiagnosis appends one diagnosis, its sentence formatted.
func appendDiagnosis(out []Diagnosis, code DiagnosisCode, format string, args ...any) []Diagnosis {
	return append(out, Diagnosis{code, fmt.Sprintf(format, args...)})
}

// diagnoseCursorFile says what is wrong with the cursor file, or with the
// row's entry in it.
func diagnoseCursorFile(out []Diagnosis, row *SessionRow, cursors CursorState) []Diagnosis {
	if cursors.Corrupt != "" {
		out = appendDiagnosis(out, CodeCursorFileCorrupt, "%s does not parse (%s); ClawVault loads it as empty, so every session counts as never observed and is re-read from byte 0.", cursorFileName(cursors), cursors.Corrupt)
	}
	if cursors.ReadError != nil {
		out = appendDiagnosis(out, CodeCursorFileUnreadable, "%s cannot be read (%s): clawvault-tui's sweeps stop until it can, and ClawVault would load it as empty and re-read every session from byte 0.", cursorFileName(cursors), OSReason(cursors.ReadError))
	}
	if row.CursorProblem != "" {
		out = appendDiagnosis(out, CodeCursorInvalid, "The cursor entry for %s fails ClawVault's validation (%s) and is ignored: the session counts as never observed.", row.CursorID, row.CursorProblem)
	}
	return out
}

// diagnoseDiscovery says whether ClawVault's discovery finds the file, and
// under which key.
func diagnoseDiscovery(out []Diagnosis, row *SessionRow, snap AgentSnapshot) []Diagnosis {
	switch {
	case row.Name.Kind == FileResetArchive:
		unread := row.Size
		if row.Cursor != nil && row.Cursor.Offset() <= row.Size {
			unread = row.Size - row.Cursor.Offset()
		}
		if unread == 0 {
			break // observed to the end before the reset: nothing was lost
		}
		out = appendDiagnosis(out, CodeResetArchive, "A /new or /reset archive (%s): ClawVault 3.5.2 never reads .reset files, so the %s written after the last observation (of %s) are never observed.", row.Name.Stamp, BytesExact(unread), Bytes(row.Size))
	case !row.Discovered:
		out = appendDiagnosis(out, CodeNotDiscovered, "ClawVault 3.5.2's discovery does not find this file: %s.", notDiscoveredReason(row, snap))
	}
	if !row.Discovered {
		return out
	}
	if row.ScanOnly && row.Key != "" {
		out = appendDiagnosis(out, CodeScanOnly, "ClawVault finds this file only by its folder scan, as %s, so its observations are tagged [%s] instead of [%s]: it looks for %s.jsonl, not %s.", row.ObserverKey, row.Label, SourceLabel(row.Key), row.SessionID, filepath.Base(row.File))
	}
	if row.Name.Kind == FileCheckpoint {
		out = appendDiagnosis(out, CodeCheckpointCopy, "A pre-compaction copy of %s: ClawVault observes it as a separate session (%s), observing the same turns twice.", row.Name.SessionID, row.ObserverKey)
	}
	return out
}

// diagnoseProgress says how far the observer has read the file and what
// the next sweep does with it. The sentences nearly every row gets
// (below-threshold, no-cursor, stale) are written into msg and made a
// string once, without fmt.
func diagnoseProgress(out []Diagnosis, row *SessionRow, cursors CursorState, opt StatusOptions) []Diagnosis {
	var msg [320]byte
	sel := row.Selection
	if row.Cursor == nil && row.CursorProblem == "" && cursors.Corrupt == "" && cursors.ReadError == nil && (row.Discovered || row.Name.Kind == FileResetArchive) && row.Size > 0 {
		out = append(out, Diagnosis{CodeNoCursor, "Never observed: " + cursorFileName(cursors) + " has no cursor for " + row.CursorID + "."})
	}
	if sel.PastEOF {
		out = appendDiagnosis(out, CodeCursorPastEOF, "The cursor at byte %s lies past the end of the %s file (it shrank or was rotated); the next sweep re-reads it from byte 0.", row.Cursor.OffsetText(), BytesExact(row.Size))
	}
	if row.Stale {
		at, _ := row.Cursor.ObservedAt()
		b := append(msg[:0], "Last observed "...)
		b = append(appendAgo(b, opt.Now.Sub(at)), " ago ("...)
		b = append(at.AppendFormat(b, "2006-01-02 15:04 UTC"), ") and the file grew by "...)
		b = append(appendBytesExact(b, row.Size-row.Cursor.FileSize()), " since; ClawVault counts a cursor stale after 12 h."...)
		out = append(out, Diagnosis{CodeStale, string(b)})
	}
	if !row.Discovered {
		return out
	}
	if row.Candidate {
		thresholdNote := "the " + BytesExact(sel.ThresholdBytes) + " threshold for " + sizeBand(row.Size)
		if opt.MinNewBytes > 0 {
			thresholdNote = "the --min-new threshold of " + BytesExact(sel.ThresholdBytes)
		}
		out = appendDiagnosis(out, CodeCandidate, "The next sweep observes it: %s pending reach %s.", BytesExact(sel.NewBytes), thresholdNote)
		if sel.NewBytes >= OverdueFactor*sel.ThresholdBytes && opt.MinNewBytes == 0 {
			out = appendDiagnosis(out, CodeOverdue, "%d× the threshold is pending: a sweep would have taken this session once it crossed %s, so no sweep has reached it in a long while (ClawVault's heartbeat and agent_end observation hooks are off by default).", sel.NewBytes/sel.ThresholdBytes, Bytes(sel.ThresholdBytes))
		}
		return out
	}
	b := append(msg[:0], "Needs "...)
	b = append(appendBytesExact(b, sel.ThresholdBytes-sel.NewBytes), " more before a sweep takes it: "...)
	b = append(appendBytesExact(b, sel.NewBytes), " pending of "...)
	if opt.MinNewBytes > 0 {
		b = append(b, "the --min-new threshold of "...)
		b = appendBytesExact(b, sel.ThresholdBytes)
	} else {
		b = append(appendBytesExact(append(b, "the "...), sel.ThresholdBytes), " threshold for "...)
		b = append(b, sizeBand(row.Size)...)
	}
	return append(out, Diagnosis{CodeBelowThreshold, string(append(b, '.'))})
}

// diagnoseTail says what the file's last line and pending range hold, when
// a deep check read them.
func diagnoseTail(out []Diagnosis, row *SessionRow) []Diagnosis {
	t := row.Tail
	if t == nil || t.Err != "" {
		return out
	}
	if t.PartialTail {
		out = appendDiagnosis(out, CodePartialTail, "The last line (%s) has no newline yet: the observer leaves it for the next sweep unless it already parses.", BytesExact(t.TailBytes))
	}
	if t.Messages == 0 && row.Selection.NewBytes > 0 {
		out = appendDiagnosis(out, CodeNoMessages, "Nothing observable in the %s pending: no line there yields a user, assistant or tool message.", BytesExact(row.Selection.NewBytes))
	}
	return out
}

func withFlush(out []Diagnosis, row *SessionRow) []Diagnosis {
	if row.Entry == nil {
		return out
	}
	where := "sessions.json"
	if row.Origin == OriginSQLite {
		where = "Its session entry (entry_json)"
	}
	if c, f, skipped := row.Entry.FlushSkipped(); skipped {
		out = append(out, Diagnosis{CodeFlushSkipped, fmt.Sprintf(
			"%s says compactionCount %d > memoryFlushCompactionCount %d: %s ran without a memory flush first.", where, c, f, Plural(c-f, "compaction", "compactions"))})
	}
	if n, failed := row.Entry.FlushFailed(); failed {
		out = append(out, Diagnosis{CodeFlushFailed, flushFailedSentence(where, n, row.Entry.FlushFailure)})
	}
	return out
}

// flushFailedSentence names OpenClaw's count of failed memory flushes, and
// when the last one failed and why, where it kept them.
func flushFailedSentence(where string, n int, f FlushFailure) string {
	s := fmt.Sprintf("%s records %s: what the session said before its compaction was not written to memory", where, plural(n, "failed memory flush", "failed memory flushes in a row"))
	if f.LastFailedAt > 0 {
		s += fmt.Sprintf(", the last on %s", time.UnixMilli(f.LastFailedAt).UTC().Format("2006-01-02 15:04 UTC"))
	}
	if f.LastError != "" {
		s += fmt.Sprintf(", with OpenClaw's error %q", f.LastError)
	} else {
		s += " (OpenClaw 2026.9 keeps no error text: its gateway log has it)"
	}
	return s + ". OpenClaw retries at the next compaction and gives up for the cycle after 3."
}

func notDiscoveredReason(row *SessionRow, snap AgentSnapshot) string {
	base := filepath.Base(row.File)
	dir := filepath.Dir(row.File)
	switch {
	case dir != snap.SessionsDir:
		return fmt.Sprintf("it lives in %s, but ClawVault looks only in %s", dir, snap.SessionsDir)
	case row.Name.Kind == FileDeletedArchive:
		return "it is a .deleted archive (session deleted or evicted), and the scan skips names containing .deleted"
	case row.Name.Compressed:
		return "it is a compressed .zst archive"
	case !strings.HasSuffix(base, ".jsonl"):
		return fmt.Sprintf("its name %q does not end in .jsonl", base)
	case strings.Contains(base, ".backup"), strings.Contains(base, ".deleted"):
		return fmt.Sprintf("the scan skips names containing .backup or .deleted (%q)", base)
	case !ValidSessionID(strings.TrimSuffix(base, ".jsonl")):
		return fmt.Sprintf("%q is not a valid session id (^[a-zA-Z0-9._-]{1,200}$)", strings.TrimSuffix(base, ".jsonl"))
	}
	return "no sessions.json row names it and the scan skipped it"
}

func cursorFileName(c CursorState) string {
	if c.Path != "" {
		if base := filepath.Base(c.Path); base != defaultCursorFileName {
			return filepath.Join(".clawvault", base)
		}
		return cursorFileRel // the usual one, not joined again for each row
	}
	return defaultCursorFileName
}

const defaultCursorFileName = "observe-cursors.json"

var cursorFileRel = filepath.Join(".clawvault", defaultCursorFileName)

func sizeBand(size int64) string {
	switch {
	case size < MiB:
		return "files under 1 MiB"
	case size <= 5*MiB:
		return "files of 1–5 MiB"
	}
	return "files over 5 MiB"
}

// Bytes formats a size for people: 512 B, 50.0 KiB, 14.2 MiB.
func Bytes(n int64) string { return string(appendBytes(nil, n)) }

// appendBytes is Bytes without fmt: status formats several sizes for
// each of 10,000 rows, and fmt's reflection was a fifth of a scan.
func appendBytes(b []byte, n int64) []byte {
	switch {
	case n < KiB:
		return append(strconv.AppendInt(b, n, 10), " B"...)
	case n < MiB:
		return append(appendOneDecimal(b, float64(n)/KiB), " KiB"...)
	case n < 1<<30:
		return append(appendOneDecimal(b, float64(n)/MiB), " MiB"...)
	}
	return append(strconv.AppendFloat(b, float64(n)/(1<<30), 'f', 2, 64), " GiB"...)
}

// appendOneDecimal writes 14.2, or 300 rather than 300.0.
func appendOneDecimal(b []byte, f float64) []byte {
	b = strconv.AppendFloat(b, f, 'f', 1, 64)
	if n := len(b); n >= 2 && b[n-2] == '.' && b[n-1] == '0' {
		b = b[:n-2]
	}
	return b
}

// BytesExact names the exact count too: "20,188 bytes (19.7 KiB)".
func BytesExact(n int64) string {
	return string(appendBytesExact(make([]byte, 0, 40), n))
}

func appendBytesExact(b []byte, n int64) []byte {
	b = append(appendCount(b, n), " bytes"...)
	if n >= KiB {
		b = append(appendBytes(append(b, " ("...), n), ')')
	}
	return b
}

// Count writes an integer with thousands separators.
func Count(n int64) string { return string(appendCount(make([]byte, 0, 26), n)) }

// Plural writes a count and the noun that agrees with it: "1 session",
// "0 sessions", "1,204 entries".
func Plural[N ~int | ~int32 | ~int64 | ~uint | ~uint32 | ~uint64](n N, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Count(int64(n)) + " " + many
}

func appendCount(b []byte, n int64) []byte {
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], n, 10)
	if d[0] == '-' {
		b = append(b, '-')
		d = d[1:]
	}
	for i, c := range d {
		if i > 0 && (len(d)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, c)
	}
	return b
}

// Ago writes a duration coarsely: 45s, 12m, 3h 5m, 4d 2h.
func Ago(d time.Duration) string { return string(appendAgo(nil, d)) }

func appendAgo(b []byte, d time.Duration) []byte {
	if d < 0 {
		d = 0
	}
	num := func(n int, unit string) { b = append(strconv.AppendInt(b, int64(n), 10), unit...) }
	switch {
	case d < time.Minute:
		num(int(d.Seconds()), "s")
	case d < time.Hour:
		num(int(d.Minutes()), "m")
	case d < 24*time.Hour:
		num(int(d.Hours()), "h ")
		num(int(d.Minutes())%60, "m")
	default:
		num(int(d.Hours())/24, "d ")
		num(int(d.Hours())%24, "h")
	}
	return b
}
