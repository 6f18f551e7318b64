package model

// Hooks for the tests of package model_test.

// BuildTree builds the tree over entries with the rules that fit them
// (RulesAuto), as the transcript index does.
func BuildTree(entries []Entry, facts map[int32]TreeFacts, version int, names *Names) *Tree {
	return BuildTreeWith(entries, facts, version, names, RulesAuto)
}
