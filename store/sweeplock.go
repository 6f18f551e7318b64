package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// SweepLockFile is where a sweep claims a vault: one sweep per vault at a
// time (DESIGN.md §8). The file names its owner; the claim itself is an
// flock, which the kernel releases when the owner dies, so a crashed sweep
// never leaves the vault locked.
func SweepLockFile(vault string) string {
	return filepath.Join(vault, ".clawvault", "clawvault-tui-sweep.lock")
}

// LockOwner says who holds the sweep lock.
type LockOwner struct {
	PID       int    `json:"pid"`
	Host      string `json:"host"`
	StartedAt string `json:"startedAt"`
	Command   string `json:"command"`
}

// CurrentOwner describes this process.
func CurrentOwner(command string, now time.Time) LockOwner {
	host, _ := os.Hostname()
	return LockOwner{PID: os.Getpid(), Host: host, StartedAt: now.UTC().Format(time.RFC3339), Command: command}
}

// BusyError is the answer to a second sweep of the same vault.
type BusyError struct {
	Vault string
	Owner LockOwner // zero when the owner could not be read
}

func (e *BusyError) Error() string {
	who := "another sweep"
	if e.Owner.PID != 0 {
		who = fmt.Sprintf("another sweep (pid %d on %s, started %s: %s)", e.Owner.PID, e.Owner.Host, e.Owner.StartedAt, e.Owner.Command)
	}
	return fmt.Sprintf("the vault %s is busy: %s is observing it; try again when it finishes", e.Vault, who)
}

// LockVault claims the vault for one sweep, or returns a *BusyError. The
// returned function releases the claim.
func LockVault(vault string, owner LockOwner) (unlock func() error, err error) {
	path := SweepLockFile(vault)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", filepath.Dir(path), err)
	}
	for attempt := 0; ; attempt++ {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("cannot open the sweep lock %s: %w", path, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				busy := &BusyError{Vault: vault}
				if data, err := os.ReadFile(path); err == nil {
					_ = json.Unmarshal(data, &busy.Owner)
				}
				return nil, busy
			}
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		// The holder before us may have removed the file between our open
		// and our flock: then we locked a file nobody else will see.
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 != nil || err2 != nil || !os.SameFile(held, now) {
			f.Close()
			if attempt > 10 {
				return nil, fmt.Errorf("cannot hold the sweep lock %s: it keeps being replaced", path)
			}
			continue
		}
		data, _ := json.Marshal(owner)
		if err := f.Truncate(0); err == nil {
			_, _ = f.WriteAt(append(data, '\n'), 0)
			_ = f.Sync()
		}
		return func() error {
			err := os.Remove(path)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			return err
		}, nil
	}
}
