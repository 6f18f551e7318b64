package jscompat

// Hooks for the tests of package jscompat_test, which link the observer to
// reach the rules it declares.

// DeclaredJSRegexps lists the expressions of MustJSRegexp declared by the
// packages linked so far.
func DeclaredJSRegexps() []*JSRegexp { return declared }

// Compile translates and compiles the expression now: what its first use
// would panic with.
func (r *JSRegexp) Compile() error {
	_, err := compileJS(r.src, r.flags)
	return err
}

// Source is the expression as written in JavaScript, with its flags.
func (r *JSRegexp) Source() string { return "/" + r.src + "/" + r.flags }

// HasNeeds says whether the expression declares words (Needs).
func (r *JSRegexp) HasNeeds() bool { return r.need != nil }

// MatchStringBare runs the expression without its declared words.
func (r *JSRegexp) MatchStringBare(s string) bool { return r.compiled().MatchString(r.mask(s)) }
