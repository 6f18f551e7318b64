package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"clawvault-tui/model"
	"clawvault-tui/store/regfile"
)

// The verdicts of leftover JSONL checks are kept in the cache folder of the
// agent store's stats (agentdb.StatsCacheFile), one file per store: a
// file's verdict stands while the file has the same identity (inode, size,
// modification time), its session in the store was not written since
// (the window's change token), and the byte cursor carried over is the
// same. Deleting the file costs one comparison of each file.

// importCacheVersion names the format and the rules that made the
// verdicts: a change to either makes every file be compared again.
const importCacheVersion = "clawvault-tui import checks 2"

type importCacheKey struct {
	Path   string `json:"path"`
	File   string `json:"file"`
	Change string `json:"change"`
	Cursor int64  `json:"cursor"`
}

type importCacheEntry struct {
	Key   importCacheKey    `json:"key"`
	Check model.ImportCheck `json:"check"`
}

type importCacheFileDoc struct {
	Version string             `json:"version"`
	Entries []importCacheEntry `json:"entries"`
}

type importCache struct {
	path    string
	entries map[string]importCacheEntry // by path
	dirty   bool
	used    map[string]bool
}

// importCacheFile is the cache file of the store at store under cacheDir
// ("" without a cache).
func importCacheFile(cacheDir, store string) string {
	if cacheDir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(filepath.Clean(store)))
	return filepath.Join(cacheDir, "agent-stores", filepath.Base(filepath.Dir(filepath.Dir(store)))+"-"+hex.EncodeToString(sum[:6])+".imports")
}

// loadImportCache reads the cache; one that is missing, of another
// version or damaged is empty.
func loadImportCache(path string) *importCache {
	c := &importCache{path: path, entries: map[string]importCacheEntry{}, used: map[string]bool{}}
	if path == "" {
		return c
	}
	data, err := regfile.ReadFile(path)
	if err != nil {
		return c
	}
	var doc importCacheFileDoc
	if json.Unmarshal(data, &doc) != nil || doc.Version != importCacheVersion {
		return c
	}
	for _, e := range doc.Entries {
		c.entries[e.Key.Path] = e
	}
	return c
}

func (c *importCache) get(k importCacheKey) (model.ImportCheck, bool) {
	c.used[k.Path] = true
	e, ok := c.entries[k.Path]
	if !ok || e.Key != k {
		return model.ImportCheck{}, false
	}
	return e.Check, true
}

func (c *importCache) put(k importCacheKey, ch model.ImportCheck) {
	c.entries[k.Path] = importCacheEntry{Key: k, Check: ch}
	c.dirty = true
}

// save writes the cache when a verdict changed or a file is gone, through
// a temporary file and a rename; a cache that cannot be written is no
// error (the next status compares again).
func (c *importCache) save() {
	for p := range c.entries {
		if !c.used[p] {
			delete(c.entries, p)
			c.dirty = true
		}
	}
	if c.path == "" || !c.dirty {
		return
	}
	doc := importCacheFileDoc{Version: importCacheVersion}
	for _, e := range c.entries {
		doc.Entries = append(doc.Entries, e)
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(c.path), 0o755) != nil {
		return
	}
	_ = WriteFileAtomic(OSWriter, c.path, data, 0o644)
}
