//go:build unix

package serve

import "syscall"

// nonBlock opens without blocking: a FIFO planted where the audit log
// should be is refused at once rather than hanging the server.
const nonBlock = syscall.O_NONBLOCK
