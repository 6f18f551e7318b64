//go:build !linux

package store

import "errors"

// errNoLease says leases cannot be had on this system.
var errNoLease = errors.New("no file leases here")
