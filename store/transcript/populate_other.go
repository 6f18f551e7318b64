//go:build !linux

package transcript

// populate does nothing: the scan faults the mapped pages in itself.
func populate(chunk) {}
