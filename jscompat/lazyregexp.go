package jscompat

import (
	"regexp"
	"sync"
)

// LazyRegexp returns a function that compiles expr on its first call and
// gives the same expression from then on. Package-level expressions are
// declared with it so that a command that never matches them does not
// compile them at start-up (every command paid for every package's
// expressions before); a bad expr panics at first use, which the package's
// tests reach.
func LazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
