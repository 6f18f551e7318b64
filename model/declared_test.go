package model_test

import (
	"testing"

	"clawvault-tui/model"
	_ "clawvault-tui/observer" // declares the rules of sweeps
)

// Declared expressions compile on first use (so that start-up does not pay
// for them): every one, model's and the observer's, must compile, or a sweep
// would panic where it first needs it.
func TestDeclaredJSRegexpsCompile(t *testing.T) {
	all := model.DeclaredJSRegexps()
	if len(all) < 100 {
		t.Fatalf("only %d declared expressions: the observer's rules are missing", len(all))
	}
	for _, re := range all {
		if err := re.Compile(); err != nil {
			t.Errorf("%s: %v", re.Source(), err)
		}
	}
}
