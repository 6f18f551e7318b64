package model

// Hooks for the tests of package model_test, which link the observer to
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

// BuildTree builds the tree over entries with the rules that fit them
// (RulesAuto), as the transcript index does.
func BuildTree(entries []Entry, facts map[int32]TreeFacts, version int, names *Names) *Tree {
	return BuildTreeWith(entries, facts, version, names, RulesAuto)
}
