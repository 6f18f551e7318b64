package vaultfs

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"clawvault-tui/model"
	"clawvault-tui/store/regfile"
)

// Where an observation came from. An observation line names no session;
// the raw ledger does: every message a sweep read is appended to
// ledger/raw/<source>/YYYY/MM/DD.jsonl as {recordedAt, timestamp, source,
// sessionKey, transcriptId, message}, and the observation's text is that
// message (after the time the observer put in front, and the clean-up its
// compressor does). So the source is found by looking for the message in
// the raw ledger, the days around the observation's first.

// Source is the raw ledger record an observation came from.
type Source struct {
	SessionKey   string
	TranscriptID string
	// Message is the raw message ("[main] user: …").
	Message    string
	RecordedAt string
	// RawFile and RawLine are where the record is (1-based line).
	RawFile string
	RawLine int
	// Quote is a run of the message's plain words, to find the message
	// in its transcript (it needs no JSON escaping there).
	Quote string
}

// rawRecord is the part of a raw ledger line read here.
type rawRecord struct {
	RecordedAt   string `json:"recordedAt"`
	SessionKey   string `json:"sessionKey"`
	TranscriptID string `json:"transcriptId"`
	Message      string `json:"message"`
}

// maxSourceScan bounds how much raw ledger one lookup reads: the days
// around the observation come first, so this only cuts a search for an
// observation the ledger does not hold.
const maxSourceScan = 512 << 20

// FindSource looks for the raw ledger record of an observation: content
// is its text (model.Observation.Content), dates the days it is filed
// under (its heading's, its file's), searched first with the days next to
// them. found is false when no record holds the text (an LLM compressor
// rewrote it, or the raw ledger was not kept).
func (s *Space) FindSource(ctx context.Context, content string, dates ...string) (src Source, found bool, err error) {
	var vault *Root
	for _, r := range s.Roots {
		if r.Kind == VaultRoot {
			vault = r
		}
	}
	if vault == nil {
		return Source{}, false, nil
	}
	key := model.MatchKey(content)
	if key == "" {
		return Source{}, false, nil
	}
	probe := []byte(sourceProbe(model.CleanLine(content)))
	files := rawFiles(filepath.Join(vault.Dir, "ledger", "raw"), dates)
	var scanned int64
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return Source{}, false, err
		}
		if scanned > maxSourceScan {
			break
		}
		// Within what is left of the budget, and only a regular file: a
		// FIFO planted in the ledger must not hang the Vault screen.
		data, err := regfile.ReadFileLimit(f, maxSourceScan-scanned)
		if err != nil {
			continue // a file that cannot be read holds nothing to link
		}
		scanned += int64(len(data))
		for n, line := 1, data; len(line) > 0; n++ {
			var rest []byte
			if i := bytes.IndexByte(line, '\n'); i >= 0 {
				line, rest = line[:i], line[i+1:]
			} else {
				rest = nil
			}
			if len(probe) == 0 || containsFold(line, probe) {
				var rec rawRecord
				if json.Unmarshal(line, &rec) == nil && sameMessage(model.MatchKey(rec.Message), key) {
					return Source{SessionKey: rec.SessionKey, TranscriptID: rec.TranscriptID, Message: rec.Message,
						RecordedAt: rec.RecordedAt, RawFile: f, RawLine: n, Quote: sourceProbe(model.CleanLine(rec.Message))}, true, nil
				}
			}
			line = rest
		}
	}
	return Source{}, false, nil
}

// sameMessage compares match keys: equal, or the observation cut short
// (the rules compressor keeps 280 UTF-16 units of a message).
func sameMessage(raw, obs string) bool {
	return raw == obs || len(obs) >= 40 && strings.HasPrefix(raw, strings.TrimSuffix(obs, "…"))
}

// sourceProbe is a run of plain ASCII words of a text, lower case, at most
// 40 bytes: a raw ledger line that does not contain it (ignoring ASCII
// case) is not decoded. Plain characters need no JSON escaping, so the
// probe is found in the record as it is written. "" when there is no run
// of at least 12 bytes.
func sourceProbe(text string) string {
	best := ""
	start := -1
	for i := 0; i <= len(text); i++ {
		plain := i < len(text) && (text[i] == ' ' || text[i] == ',' || text[i] == '.' || text[i] == '-' ||
			text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z' || text[i] >= '0' && text[i] <= '9')
		switch {
		case plain && start < 0:
			start = i
		case !plain && start >= 0:
			if run := strings.TrimSpace(text[start:i]); len(run) > len(best) {
				best = run
			}
			start = -1
		}
	}
	if len(best) < 12 {
		return ""
	}
	return strings.ToLower(best[:min(len(best), 40)])
}

// containsFold reports whether b contains the lower-case ASCII probe,
// ignoring the ASCII case of b.
func containsFold(b, probe []byte) bool {
	first := probe[0]
	for i := 0; i+len(probe) <= len(b); i++ {
		c := b[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != first {
			continue
		}
		j := 1
		for ; j < len(probe); j++ {
			c := b[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != probe[j] {
				break
			}
		}
		if j == len(probe) {
			return true
		}
	}
	return false
}

// rawFiles lists the raw ledger's day files (every source folder), those
// within three days of one of dates first (nearest first), then the rest,
// newest first.
func rawFiles(dir string, dates []string) []string {
	type day struct {
		path string
		date time.Time
	}
	var days []day
	sources, _ := os.ReadDir(dir)
	for _, src := range sources {
		if !src.IsDir() {
			continue
		}
		matches, _ := filepath.Glob(filepath.Join(dir, src.Name(), "[0-9][0-9][0-9][0-9]", "[0-9][0-9]", "[0-9][0-9].jsonl"))
		for _, m := range matches {
			rel, _ := filepath.Rel(filepath.Join(dir, src.Name()), m)
			d, err := time.Parse("2006/01/02.jsonl", filepath.ToSlash(rel))
			if err == nil {
				days = append(days, day{m, d})
			}
		}
	}
	var want []time.Time
	for _, d := range dates {
		if t, err := time.Parse("2006-01-02", d); err == nil {
			want = append(want, t)
		}
	}
	distance := func(t time.Time) time.Duration {
		best := time.Duration(1<<63 - 1)
		for _, w := range want {
			best = min(best, max(t.Sub(w), w.Sub(t)))
		}
		return best
	}
	const near = 3 * 24 * time.Hour
	slices.SortStableFunc(days, func(a, b day) int {
		da, db := distance(a.date), distance(b.date)
		an, bn := da <= near, db <= near
		switch {
		case an && bn && da != db:
			return int((da - db) / time.Hour)
		case an != bn:
			if an {
				return -1
			}
			return 1
		}
		return b.date.Compare(a.date)
	})
	out := make([]string, len(days))
	for i, d := range days {
		out[i] = d.path
	}
	return out
}
