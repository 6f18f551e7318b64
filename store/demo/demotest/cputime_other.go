//go:build !unix

package demotest

import "time"

// CPUTime is unknown here: 0, and the CPU figures read 0.
func CPUTime() time.Duration { return 0 }
