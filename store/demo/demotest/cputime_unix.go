//go:build unix

package demotest

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time this process has used (user and system): beside
// a benchmark's wall time, the measure that a busy machine disturbs least.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
