package agentdb

import (
	"context"
	"fmt"
)

// ReadFactsAsRows makes transcripts read their fact rows row by row, never
// as text; the returned function restores it.
func ReadFactsAsRows() (restore func()) {
	old := factsAsText
	factsAsText = false
	return func() { factsAsText = old }
}

// ReadIdentitiesInTableOrderUpTo sets how many table rows per event the
// rowids of a session's identities may span for them to be read in the
// table's order; the returned function restores it.
func ReadIdentitiesInTableOrderUpTo(perEvent int64) (restore func()) {
	old := rowidSpanPerEvent
	rowidSpanPerEvent = perEvent
	return func() { rowidSpanPerEvent = old }
}

// ReadRaw sets whether a transcript's bulk rows are read from the file
// itself, from minEvents events on; the returned function restores both.
func ReadRaw(on bool, minEvents int64) (restore func()) {
	oldOn, oldMin := readRaw, rawMinEvents
	readRaw, rawMinEvents = on, minEvents
	return func() { readRaw, rawMinEvents = oldOn, oldMin }
}

// BulkStats is bulkStats' figures for every session, as text: what a
// status without its cache counts, and the cache keeps.
func (db *DB) BulkStats(ctx context.Context) (map[string]string, error) {
	stats, err := db.bulkStats(ctx)
	out := make(map[string]string, len(stats))
	for id, c := range stats {
		out[id] = fmt.Sprintf("%d events, %d bytes, last %d (created %d, %d bytes)", c.events, c.bytes, c.last, c.lastCreatedAt, c.lastEventBytes)
	}
	return out, err
}

// WriteBeforeRawOpen runs write after a read transaction's first read,
// before the file is opened for raw reads; the returned function restores
// the hook.
func WriteBeforeRawOpen(write func()) (restore func()) {
	old := testHookBeforeRawOpen
	testHookBeforeRawOpen = write
	return func() { testHookBeforeRawOpen = old }
}

// CountRawReads counts the reads from the file itself that were used; the
// returned function restores the hook.
func CountRawReads(n *int) (restore func()) {
	old := testHookRawRead
	testHookRawRead = func() { *n++ }
	return func() { testHookRawRead = old }
}

// CountLeafWalks counts Space's walks of the trees' leaves (other than the
// events') into n, until the returned func runs.
func CountLeafWalks(n *int) func() {
	old := testHookLeavesWalked
	testHookLeavesWalked = func() { *n++ }
	return func() { testHookLeavesWalked = old }
}
