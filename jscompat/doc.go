// Package jscompat is JavaScript's behaviour, written in Go, where
// clawvault-tui must agree byte for byte with ClawVault and OpenClaw, which
// are JavaScript: regular expressions as V8 runs them (JSRegexp),
// JSON.stringify's strings, numbers and key order, Date's ISO strings,
// UTF-16 lengths and slices, String.prototype.trim and toLowerCase, the
// js-yaml subset ClawVault's front matter uses, and JSON numbers turned
// into integers with range checks.
//
// It knows nothing of either tool's files; model builds their rules on it.
// It imports nothing of this module.
package jscompat
