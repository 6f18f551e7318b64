package observer

// Fixes are the places where a sweep deliberately writes something other
// than ClawVault 3.5.2 would, each a bug of ClawVault's (docs/SWEEPS.md lists
// them with their reasons). DefaultFixes turns them all on; the zero value
// is ClawVault's behaviour byte for byte, which the conformance tests
// compare against and --clawvault-compat selects.
type Fixes struct {
	// KeepUnparsedLines keeps lines of a day file that are not observations
	// (notes written by hand, a line with a typo in its scores). ClawVault
	// rewrites the file from its observations alone and loses them.
	KeepUnparsedLines bool
	// AcksBehindTag applies the acknowledgement rules ("ok", "got it",
	// "thanks, and …") to tagged messages too. ClawVault anchors them at
	// "HH:MM user:", which the "[main] " source tag of every active-session
	// message defeats, so "[main] user: ok" becomes an observation.
	AcksBehindTag bool
	// NoInventedWords drops two benchmark-specific rewrites that append
	// sentences nobody said ("Great observer benchmark harness. finalize
	// persistence untouched." after "keep search terms", and "coordinate
	// Client Health now." after "#northwind-deal").
	NoInventedWords bool
	// TaskTitlesWithoutRole removes the "user: " / "assistant: " prefix from
	// backlog titles and file names ("user-todo-send-…" becomes "send-…").
	TaskTitlesWithoutRole bool
}

// DefaultFixes is what a sweep does unless asked to behave as ClawVault.
func DefaultFixes() Fixes {
	return Fixes{KeepUnparsedLines: true, AcksBehindTag: true, NoInventedWords: true, TaskTitlesWithoutRole: true}
}
