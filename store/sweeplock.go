package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"clawvault-tui/store/lockfile"
	"clawvault-tui/store/regfile"
)

// SweepLockFile is where a sweep claims a vault: one sweep per vault at a
// time. The file names its owner; the claim itself is the system's lock on
// the file (package lockfile: flock on Unix, LockFileEx on Windows), which
// is released when the owner dies, so a crashed sweep never leaves the
// vault locked.
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
// returned function releases the claim and removes the lock file.
func LockVault(vault string, owner LockOwner) (unlock func() error, err error) {
	path := SweepLockFile(vault)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", filepath.Dir(path), err)
	}
	held, err := lockfile.TryLock(path)
	if errors.Is(err, lockfile.ErrBusy) {
		busy := &BusyError{Vault: vault}
		if data, err := regfile.ReadFileLimit(path, 64<<10); err == nil {
			_ = json.Unmarshal(data, &busy.Owner)
		}
		return nil, busy
	}
	if err != nil {
		return nil, fmt.Errorf("cannot take the sweep lock %s: %w", path, err)
	}
	data, _ := json.Marshal(owner)
	_ = held.Write(append(data, '\n')) // the owner's name is a courtesy; the lock is what counts
	return held.Remove, nil
}

// LockVaultWait is LockVault for the other commands that change the vault
// or the sessions its sweeps read (retention --apply and --undo): when a
// sweep holds the vault, it waits up to wait (telling onWait once, so that
// the user knows what it waits for), trying again until the sweep ends;
// then it gives the *BusyError. wait 0 does not wait.
func LockVaultWait(ctx context.Context, vault string, owner LockOwner, wait time.Duration, onWait func(LockOwner)) (func() error, error) {
	deadline := time.Now().Add(wait)
	told := false
	for {
		unlock, err := LockVault(vault, owner)
		var busy *BusyError
		if !errors.As(err, &busy) || !time.Now().Before(deadline) {
			return unlock, err
		}
		if !told && onWait != nil {
			onWait(busy.Owner)
			told = true
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(min(250*time.Millisecond, time.Until(deadline))):
		}
	}
}
