//go:build !linux

package transcript

import "clawvault-tui/model"

// ProcessEntries maps nothing apart here: the index's entries go to the Go
// heap as usual.
func ProcessEntries(n int) []model.Entry { return nil }

// processBytes maps nothing apart here: read buffers go to the Go heap.
func processBytes(n int) []byte { return nil }

// newProcessArena is no arena here: the tree's arrays go to the Go heap.
func newProcessArena(entries int) model.Arena { return nil }
