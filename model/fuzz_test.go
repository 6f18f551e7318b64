package model

import (
	"regexp"
	"strings"
	"testing"
)

// FuzzSourceLabel: any key gets a label, as ClawVault's first-segment rule
// always gives one.
func FuzzSourceLabel(f *testing.F) {
	for _, s := range []string{"agent:main:main", "agent:a:telegram:group:-1:topic:42", "agent:a:subagent:x:subagent:y",
		"agent:a:whatsapp:acct:direct:+1", "agent:a:cron:j:run:r", "global", "agent::", "agent:a:b:thread:", ":::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if SourceLabel(raw) == "" {
			t.Fatalf("empty label for %q", raw)
		}
	})
}

// FuzzValidIDs: the hand-written checks agree with ClawVault's regular
// expressions.
func FuzzValidIDs(f *testing.F) {
	sessionRE := regexp.MustCompile(`^[a-zA-Z0-9._-]{1,200}$`)
	agentRE := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,100}$`)
	for _, s := range []string{"", "a", "a.b-c_D9", "notes (copy)", "é", strings.Repeat("a", 200), strings.Repeat("a", 201), "x\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidSessionID(s) != sessionRE.MatchString(s) {
			t.Fatalf("ValidSessionID(%q) = %v", s, ValidSessionID(s))
		}
		if ValidAgentID(s) != agentRE.MatchString(s) {
			t.Fatalf("ValidAgentID(%q) = %v", s, ValidAgentID(s))
		}
	})
}
