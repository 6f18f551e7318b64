//go:build !unix

package serve

// nonBlock: no FIFO can be planted here the way it can on Unix.
const nonBlock = 0
