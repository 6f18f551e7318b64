package observer

import (
	"context"
	"testing"
	"time"

	"clawvault-tui/jscompat"
	"clawvault-tui/model"
)

var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func compressRules(t *testing.T, fixes Fixes, messages ...string) string {
	t.Helper()
	s := NewRulesCompressor(fixes).Begin(testNow)
	for _, m := range messages {
		if c := SanitizeMessage(m); c != "" {
			s.Add(c)
		}
	}
	out, err := s.Finish(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return model.RenderObservations(out.Observations)
}

// The expected day files are what ClawVault 3.5.2's Compressor writes for
// the same messages (CLAWVAULT_NO_LLM=1, clock at 2026-11-21T12:00:00Z).
func TestRulesCompressorAsClawVault(t *testing.T) {
	t.Parallel()
	tests := []struct {
		messages []string
		want     string
	}{
		{[]string{"[main] user: We decided to use PostgreSQL instead of MongoDB for the Northwind billing service."},
			"## 2026-11-21\n\n- [decision|c=0.95|i=0.90] 12:00 [main] user: We decided to use PostgreSQL instead of MongoDB for the Northwind billing service."},
		{[]string{"[main] user: ok", "[main] user: TODO: send the SOC2 questionnaire to Elena by Friday."},
			"## 2026-11-21\n\n- [fact|c=0.72|i=0.20] 12:00 [main] user: ok\n- [todo|c=0.78|i=0.65] 12:00 [main] user: TODO: send the SOC2 questionnaire to Elena by Friday."},
		{[]string{"[main] toolresult: On branch main nothing to commit", "[main] system: you are helpful"}, ""},
		{[]string{"[main] assistant: ok, and we decided to ship on 2026-11-28 at 14:30"},
			"## 2026-11-28\n\n- [decision|c=0.95|i=0.90] 14:30 [main] assistant: ok, and we decided to ship on 2026-11-28 at 14:30"},
		{[]string{"[telegram-dm] user: Met with Marco from Acme about the pricing proposal; deadline is March 28."},
			"## 2026-11-21\n\n- [task|c=0.95|i=0.90] 12:00 [telegram-dm] user: Met with Marco from Acme about the pricing proposal; deadline is March 28."},
		{[]string{"[main] user: Starting routine maintenance window.", "[main] assistant: Rotated weekly logs, confirmed backups.",
			"[main] assistant: Health checks stayed green, no incidents reported.", "[main] user: Thanks, that round is done."},
			"## 2026-11-21\n\n- [fact|c=0.82|i=0.28] 12:00 Routine maintenance window completed without incidents or follow-up actions; health checks stayed green, rotated weekly logs and confirmed backups Starting maintenance window. No incidents were reported. Thanks, maintenance round. Closed with no alerts."},
		{[]string{"[main] user: we should keep search terms like SOC2 untouched.", "[main] user: post it in #northwind-deal please"},
			"## 2026-11-21\n\n- [fact|c=0.78|i=0.65] 12:00 [main] user: we should keep search terms like SOC2. Great observer benchmark harness. finalize persistence untouched.\n- [fact|c=0.72|i=0.20] 12:00 [main] user: post it in #northwind-deal please coordinate Client Health now."},
		{[]string{"[main] assistant: I will publish v2.1.0 after CI passes", "[main] user: pricing is TBD", "[main] user: see [the doc](https://x.y/z) for details"},
			"## 2026-11-21\n\n- [commitment|c=0.96|i=0.90] 12:00 [main] assistant: I will publish v2.1.0 after CI passes\n- [commitment-unresolved|c=0.78|i=0.72] 12:00 [main] user: pricing is TBD\n- [fact|c=0.72|i=0.20] 12:00 [main] user: see the doc for details"},
		{[]string{`[main] user: {"toolCallId":"abc","stdout":"lots of output here that is structured"}`,
			"[main] user: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg== look"},
			"## 2026-11-21\n\n- [fact|c=0.72|i=0.20] 12:00 [main] user: == look"},
		{[]string{"[main] user: HEARTBEAT_OK", "[main] user: HEARTBEAT_OK", "[main] assistant: ok"},
			"## 2026-11-21\n\n- [fact|c=0.72|i=0.20] 12:00 [main] user: HEARTBEAT_OK\n- [fact|c=0.72|i=0.20] 12:00 [main] assistant: ok"},
	}
	for _, tt := range tests {
		if got := compressRules(t, Fixes{}, tt.messages...); got != tt.want {
			t.Errorf("%q:\ngot  %q\nwant %q", tt.messages, got, tt.want)
		}
	}
}

// What each fix changes, and only that.
func TestRulesCompressorFixes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fix      Fixes
		messages []string
		want     string
	}{
		{Fixes{AcksBehindTag: true}, []string{"[main] user: ok", "[main] user: TODO: send the SOC2 questionnaire to Elena by Friday."},
			"## 2026-11-21\n\n- [todo|c=0.78|i=0.65] 12:00 [main] user: TODO: send the SOC2 questionnaire to Elena by Friday."},
		{Fixes{AcksBehindTag: true}, []string{"[main] assistant: ok, and we decided to ship on 2026-11-28 at 14:30"},
			"## 2026-11-28\n\n- [decision|c=0.95|i=0.90] 14:30 [main] assistant: we decided to ship on 2026-11-28 at 14:30"},
		{Fixes{AcksBehindTag: true}, []string{"[main] user: ok"},
			"## 2026-11-21\n\n- [fact|c=0.70|i=0.20] 12:00 Processed session updates."},
		{Fixes{NoInventedWords: true}, []string{"[main] user: we should keep search terms like SOC2 untouched.", "[main] user: post it in #northwind-deal please"},
			"## 2026-11-21\n\n- [fact|c=0.78|i=0.65] 12:00 [main] user: we should keep search terms like SOC2\n- [fact|c=0.72|i=0.20] 12:00 [main] user: post it in #northwind-deal please"},
	}
	for _, tt := range tests {
		if got := compressRules(t, tt.fix, tt.messages...); got != tt.want {
			t.Errorf("%+v %q:\ngot  %q\nwant %q", tt.fix, tt.messages, got, tt.want)
		}
	}
}

func TestSanitizeMessage(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"[main] user:   hello\n world":         "[main] user: hello world",
		"[main] toolResult: {\"ok\":true}":     "",
		"[main] tool_use: read":                "",
		"[main] developer: be nice":            "",
		"[main] metadata: x":                   "",
		"[cron] assistant: done":               "[cron] assistant: done",
		"plain text without role":              "plain text without role",
		"[main] toolresult: On branch main":    "",
		"[main] user: Metadata: secret fields": "",
		"Note: a label that is not a role":     "Note: a label that is not a role",
	} {
		if got := SanitizeMessage(in); got != want {
			t.Errorf("SanitizeMessage(%q) = %q, want %q", in, got, want)
		}
	}
}

// Sanitizing and compressing never panic, and what they produce is valid
// observation syntax.
func FuzzRulesCompressor(f *testing.F) {
	f.Add("[main] user: We decided to ship on 2026-11-28 at 14:30", "[main] assistant: ok")
	f.Add("[x] tool: {\"stdout\":1}", "data:a;base64,AAAAAAAAAAAAAAAAAAAAAAAAAAAA")
	f.Fuzz(func(t *testing.T, a, b string) {
		s := NewRulesCompressor(DefaultFixes()).Begin(testNow)
		for _, m := range []string{a, b, a} {
			if c := SanitizeMessage(m); c != "" {
				s.Add(c)
			}
		}
		out, err := s.Finish(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		md := model.RenderObservations(out.Observations)
		if back := model.ParseObservationMarkdown(md); len(back) != len(out.Observations) {
			t.Fatalf("%d observations render to %d lines:\n%s", len(out.Observations), len(back), md)
		}
	})
}

// isCritical, which runs criticalRE part by part, is criticalRE (or a
// deadline with a date). The declared words of every rule are checked by
// model's FuzzRuleNeeds.
func FuzzIsCritical(f *testing.F) {
	// One seed per alternative of criticalRE, a deadline with a date either
	// side, and near misses.
	for _, s := range []string{
		"Decision: Postgres", "we decided it", "an error", "it failed", "blocked by DNS", "breaking changes",
		"critical path", "Rust chosen over Go", "published @1.2", "merged PR 7", "shipped", "released v2.1",
		"signed the deal", "pricing at $40", "demo done", "meeting finished", "strategy pivot",
		"deadline 2026-11-28", "11/28 is the due date", "cutoff Nov 3", "decide later? no: decidedly", "ſhipped, Kritical",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isCritical(jscompat.NewText(s)), criticalRE.MatchString(s) || deadlineWithDateRE.MatchString(s); got != want {
			t.Fatalf("isCritical(%q) = %v, criticalRE says %v", s, got, want)
		}
	})
}

// The written-out prefix parsers agree with ClawVault's expressions.
func FuzzPrefixParsers(f *testing.F) {
	for _, s := range []string{"on 2026-11-28 at 14:30", "a-b 2026-11-28", "x2026-11-28 12026-11-28 2026-11-28_ 09:7 24:00 23:59x 1:30 a:12:30", "[main] user: hi", "[a]\u00a0x", "[] x", "[x]y", "assistant :  text", "user:   ", "toolResult:{", "a:b",
		"abcdefghijklmnopqrstuvwxyzabcdefg: too long", "x-y_z9: ok\u2028", "ſ: no", "U: x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := 0
		if m := sourceTagRE.FindStringSubmatch(s); m != nil {
			want = len(m[0]) // the expression is anchored at the start
		}
		if got := sourceTagLen(s); got != want {
			t.Fatalf("sourceTagLen(%q) = %d, the expression says %d", s, got, want)
		}
		if got, want := normalizeTaskTitle(s), jscompat.SliceUTF16(jscompat.JSTrim(spacesRE.ReplaceAll(titleNonWordRE.ReplaceAll(jscompat.JSToLower(s), " "), " ")), 50); got != want {
			t.Fatalf("normalizeTaskTitle(%q) = %q, the expressions say %q", s, got, want)
		}
		wantDate := ""
		if m := isoDateRE.FindStringSubmatch(s); m != nil {
			wantDate = m[1]
		}
		if got := findISODate(s); got != wantDate {
			t.Fatalf("findISODate(%q) = %q, the expression says %q", s, got, wantDate)
		}
		wantTime := ""
		if m := clockTimeRE.FindStringSubmatch(s); m != nil {
			wantTime = m[1] + ":" + m[2]
		}
		if got := findClockTime(s); got != wantTime {
			t.Fatalf("findClockTime(%q) = %q, the expression says %q", s, got, wantTime)
		}
		m := rolePrefixRE.FindStringSubmatch(s)
		role, rest, ok := splitRolePrefix(s)
		if ok != (m != nil) || ok && (role != m[1] || rest != m[2]) {
			t.Fatalf("splitRolePrefix(%q) = %q, %q, %v; the expression says %q", s, role, rest, ok, m)
		}
	})
}
