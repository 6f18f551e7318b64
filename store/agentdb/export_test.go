package agentdb

// ReadOverTwoConnections makes every transcript read over two connections
// and runs between before the second transaction's first read; the
// returned function restores both.
func ReadOverTwoConnections(between func()) (restore func()) {
	minEvents, hook := parallelMinEvents, testHookBetweenSnapshots
	parallelMinEvents, testHookBetweenSnapshots = 0, between
	return func() { parallelMinEvents, testHookBetweenSnapshots = minEvents, hook }
}
