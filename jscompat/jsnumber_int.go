package jscompat

import "math"

// JSON numbers are float64s; Go's conversion of one outside int64's range
// (1e19, 1e300) is undefined, and on amd64 gives -2⁶³. Every conversion of
// a number read from a file goes through one of these.

// Int64Of is the whole part of f, and ok=false when f is NaN, infinite or
// outside int64's range.
func Int64Of(f float64) (int64, bool) {
	// -2⁶³ is a float64 exactly; 2⁶³ is the first value past MaxInt64.
	if !(f >= -(1<<63) && f < 1<<63) {
		return 0, false
	}
	return int64(f), true
}

// SaturatingInt64 is the whole part of f clamped to int64's range (NaN is
// 0): a byte offset too large for any file stays too large for any file.
func SaturatingInt64(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= 1<<63:
		return math.MaxInt64
	case f < -(1 << 63):
		return math.MinInt64
	}
	return int64(f)
}
