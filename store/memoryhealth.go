package store

import (
	"clawvault-tui/model"
	"clawvault-tui/store/agentdb"
)

// MemoryIndexHealth compares an agent's memory search index with the
// memory files of its workspace, as memory-index-stale does (for memory
// status, which reads the index itself).
func MemoryIndexHealth(fsys FS, workspace string, mi agentdb.MemoryIndex) model.MemoryIndexHealth {
	return memoryIndexHealth(fsys, workspace, mi)
}
