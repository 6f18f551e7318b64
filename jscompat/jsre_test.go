package jscompat

import "testing"

// Each case is what the same JavaScript expression gives in Node.
func TestJSRegexp(t *testing.T) {
	tests := []struct {
		pattern, flags, input string
		match                 bool
	}{
		{`^a\sb$`, "", "a\u00a0b", true},       // \s knows NBSP
		{`^a\sb$`, "", "a\u200bb", false},      // but not a zero-width space
		{`^a.b$`, "", "a\u2028b", false},       // . stops at line terminators
		{`^a.b$`, "", "a\rb", false},           //
		{`^a.b$`, "", "a\tb", true},            //
		{`^s$`, "i", "\u017f", false},          // JavaScript does not fold ſ into s
		{`^k$`, "i", "\u212a", false},          // nor the Kelvin sign into k
		{`^[a-z]+$`, "i", "AbC", true},         //
		{`\bword\b`, "i", "a WORD here", true}, //
		{`\bé`, "", "café", true},              // \b is ASCII in both: é is not a word character
		{`^\/x\/$`, "", "/x/", true},           // JavaScript's escaped slash
		{`^\u00e9$`, "", "é", true},            //
		{`[\s_-]+`, "", "a_b", true},           // \s inside a class
	}
	for _, tt := range tests {
		re, err := CompileJSRegexp(tt.pattern, tt.flags)
		if err != nil {
			t.Fatalf("/%s/%s: %v", tt.pattern, tt.flags, err)
		}
		if got := re.MatchString(tt.input); got != tt.match {
			t.Errorf("/%s/%s.test(%q) = %v, want %v", tt.pattern, tt.flags, tt.input, got, tt.match)
		}
	}
	for _, bad := range []string{`(?=x)`, `(a)\1`, `(?<!x)y`} {
		if _, err := CompileJSRegexp(bad, ""); err == nil {
			t.Errorf("%s should be refused, not mistranslated", bad)
		}
	}
}

func TestJSRegexpReplace(t *testing.T) {
	re := MustJSRegexp(`(\d{2}):(\d{2})`, "g")
	if got := re.ReplaceFirst("09:30 and 10:45", "$2h$1 [$&] $$"); got != "30h09 [09:30] $ and 10:45" {
		t.Errorf("ReplaceFirst = %q", got)
	}
	if got := re.ReplaceAll("09:30 and 10:45", "<$1>"); got != "<09> and <10>" {
		t.Errorf("ReplaceAll = %q", got)
	}
	// Indexes into the masked text are indexes into the original.
	fold := MustJSRegexp(`(x+)`, "i")
	if m := fold.FindStringSubmatch("\u017fXX"); m == nil || m[1] != "XX" {
		t.Errorf("FindStringSubmatch = %q", m)
	}
}

// A custom route's pattern comes from the user's .clawvault.json: the
// translation refuses or compiles, and never panics.
func FuzzCompileJSRegexp(f *testing.F) {
	for _, p := range []string{`\bElena\b`, `[\s_-]+`, `^\u00e9[^\]]*$`, `(?=x)`, `[\S]`, `\`, `[`, `a{2,}`} {
		f.Add(p, "i")
	}
	f.Fuzz(func(t *testing.T, pattern, flags string) {
		re, err := CompileJSRegexp(pattern, flags)
		if err == nil {
			re.MatchString("Talked to Elena from Northwind")
			re.ReplaceAll("x y", "$1-$&")
		}
	})
}
