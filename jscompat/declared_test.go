package jscompat_test

import (
	"testing"

	"clawvault-tui/jscompat"
	_ "clawvault-tui/observer" // declares the rules of sweeps
)

// Declared expressions compile on first use (so that start-up does not pay
// for them): every one, model's and the observer's, must compile, or a sweep
// would panic where it first needs it.
func TestDeclaredJSRegexpsCompile(t *testing.T) {
	all := jscompat.DeclaredJSRegexps()
	if len(all) < 100 {
		t.Fatalf("only %d declared expressions: the observer's rules are missing", len(all))
	}
	for _, re := range all {
		if err := re.Compile(); err != nil {
			t.Errorf("%s: %v", re.Source(), err)
		}
	}
}

// Every word list declared with Needs is a necessary condition: with or
// without it, each rule (model's and the observer's) gives the same answer.
func FuzzRuleNeeds(f *testing.F) {
	for _, s := range []string{
		"12:00 [main] user: We decided to ship; deadline is Friday, TODO: post it to #releases before the demo (v2.1).",
		"Routine maintenance window: rotated logs, health checks stayed green, no incidents, workers restarted, no alerts. Thanks, round done.",
		"I'll publish v2.1.0 after CI; we agreed on pricing at $48K; talked with Elena and she approved shipping; keep search terms",
		"Lesson learned: Elena prefers email; Marco asked the client about the API roadmap; pricing is TBD; let me check [doc](x)",
		"meeting recap starts now; the migration failed with an ERROR; blocked by DNS; merged PR 12; signed the contract",
		"ſhipped and \u212aeep; SHIPPED; DeAdLiNe Is; 2026-11-21 09:30",
	} {
		f.Add(s)
	}
	var needs []*jscompat.JSRegexp
	for _, re := range jscompat.DeclaredJSRegexps() {
		if re.HasNeeds() {
			needs = append(needs, re)
		}
	}
	if len(needs) < 50 {
		f.Fatalf("only %d expressions declare words: the observer's rules are missing", len(needs))
	}
	f.Fuzz(func(t *testing.T, s string) {
		text := jscompat.NewText(s)
		for _, re := range needs {
			bare := re.MatchStringBare(s)
			if re.MatchString(s) != bare || re.MatchText(text) != bare {
				t.Fatalf("%s on %q: the declared words exclude a match", re.Source(), s)
			}
		}
	})
}
