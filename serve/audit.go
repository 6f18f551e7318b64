package serve

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"clawvault-tui/store/regfile"
)

// AuditLog is the append-only record of every write made through the
// server: one JSON line per action (a save, a promote, a sweep, a
// retention apply or undo), whoever made it and whatever it changed.
// Each line is one write(2) on a file opened with O_APPEND, then fsync, so
// lines from concurrent sessions (or from two servers sharing the file)
// never interleave and a line reported written survives a crash.
type AuditLog struct {
	path string
	mu   sync.Mutex
	f    *os.File
	now  func() time.Time
}

// OpenAuditLog opens (creating, mode 0600, in a folder made 0700) the
// audit log. Anything but a regular file at path is refused, before it is
// opened for writing.
func OpenAuditLog(path string) (*AuditLog, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("cannot make the audit log's folder: %w", err)
	}
	if fi, err := os.Stat(path); err == nil {
		if err := regfile.Check(path, fi); err != nil {
			return nil, fmt.Errorf("the audit log %s: %w", path, err)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|nonBlock, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open the audit log: %w", err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = regfile.Check(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("the audit log %s: %w", path, err)
	}
	return &AuditLog{path: path, f: f, now: time.Now}, nil
}

// Path is where the log is.
func (l *AuditLog) Path() string { return l.path }

// Close closes the log.
func (l *AuditLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}

// AuditRecord is one line of the audit log.
type AuditRecord struct {
	Time        string `json:"time"` // when the action ended, UTC, RFC 3339 with nanoseconds
	Fingerprint string `json:"fingerprint"`
	Comment     string `json:"comment"`
	Role        string `json:"role"`
	Remote      string `json:"remote"`
	// Action is save, promote, sweep, retention-apply or retention-undo.
	Action string `json:"action"`
	// Command is the client's command line, for a command run over SSH;
	// empty for an action taken in the TUI.
	Command []string    `json:"command,omitempty"`
	Files   []AuditFile `json:"files"`
	// Error is how the action failed, if it did (what it wrote before
	// failing is in Files all the same).
	Error string `json:"error,omitempty"`
}

// AuditFile is one file an action changed: its SHA-256 before and after,
// null where there was no file (created, or removed or moved away).
type AuditFile struct {
	Path   string  `json:"path"`
	Before *string `json:"before"`
	After  *string `json:"after"`
}

// Who is who acts: the key, and where it connected from.
type Who struct {
	Key    Key
	Remote string
}

// append writes one record as one line.
func (l *AuditLog) append(r AuditRecord) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.f.Write(line); err != nil {
		return fmt.Errorf("cannot write the audit log %s: %w", l.path, err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("cannot sync the audit log %s: %w", l.path, err)
	}
	return nil
}

// hashFile is the SHA-256 of a regular file, nil when there is none at
// path. A file that cannot be read is named so in place of a hash.
func hashFile(path string) *string {
	f, err := regfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var s string
	if err != nil {
		s = "unreadable: " + err.Error()
		return &s
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		s = "unreadable: " + err.Error()
		return &s
	}
	s = hex.EncodeToString(h.Sum(nil))
	return &s
}
