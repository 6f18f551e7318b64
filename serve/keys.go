package serve

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"strings"

	gossh "golang.org/x/crypto/ssh"

	"clawvault-tui/store/regfile"
)

// Role is what a key may do. Each role has the rights of the ones before it.
type Role uint8

const (
	// RoleRead looks: the TUI, status, tree, search, dry runs.
	RoleRead Role = iota + 1
	// RoleCurate adds the editor's save and promote.
	RoleCurate
	// RoleOperate adds sweeps and retention apply and undo.
	RoleOperate
)

var roleNames = map[Role]string{RoleRead: "read", RoleCurate: "curate", RoleOperate: "operate"}

func (r Role) String() string {
	if n, ok := roleNames[r]; ok {
		return n
	}
	return fmt.Sprintf("role(%d)", uint8(r))
}

// Allows reports whether a key of role r may do what needs role need.
func (r Role) Allows(need Role) bool { return r >= need }

// ParseRole reads a role's name.
func ParseRole(name string) (Role, bool) {
	for r, n := range roleNames {
		if n == name {
			return r, true
		}
	}
	return 0, false
}

// Key is a key the authorized keys file lets in, with its role.
type Key struct {
	Fingerprint string // SHA256:…, as ssh-keygen -l prints it
	Comment     string
	Role        Role
}

// maxKeysFile bounds the authorized keys file read at each login.
const maxKeysFile = 1 << 20

// acceptedOptions are the authorized_keys options that only take away
// what this server never gives (forwarding of any kind, a user rc file),
// so a key that carries them is served as it is. Any other option (from=,
// command=, expiry-time=, permitopen=, …) would narrow the key in a way
// this server does not enforce: such a key is refused rather than served
// more widely than its line says.
var acceptedOptions = map[string]bool{
	"restrict": true, "no-port-forwarding": true, "no-agent-forwarding": true,
	"no-x11-forwarding": true, "no-user-rc": true,
}

// KeyProblem is a line of the keys file that lets no key in.
type KeyProblem struct {
	Line   int
	Reason string
}

// KeysFile is the authorized keys file as read at one login.
type KeysFile struct {
	keys     map[string]Key // by fingerprint
	Problems []KeyProblem
}

// Lookup returns the entry of a key, if the file lists it.
func (f *KeysFile) Lookup(k gossh.PublicKey) (Key, bool) {
	key, ok := f.keys[gossh.FingerprintSHA256(k)]
	return key, ok
}

// Len is how many keys the file lets in.
func (f *KeysFile) Len() int { return len(f.keys) }

// ReadKeysFile reads an authorized_keys file in OpenSSH's format. The
// file must be a regular file that only its owner may write (a
// world-writable or group-writable file would let others add keys), of at
// most a megabyte. Lines that let no key in are reported, never fatal: one
// bad line does not lock everyone out.
func ReadKeysFile(path string) (*KeysFile, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the authorized keys file %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkKeysMode(path, fi); err != nil {
		return nil, err
	}
	if fi.Size() > maxKeysFile {
		return nil, fmt.Errorf("the authorized keys file %s is %d bytes, more than the %d it may hold", path, fi.Size(), maxKeysFile)
	}
	data := make([]byte, fi.Size())
	n, _ := f.ReadAt(data, 0)
	return ParseKeys(data[:n]), nil
}

// checkKeysMode refuses a keys file others may write.
func checkKeysMode(path string, fi fs.FileInfo) error {
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("the authorized keys file %s may be written by others (mode %04o): no key is let in until `chmod go-w %s`", path, perm, path)
	}
	return nil
}

// ParseKeys reads the lines of an authorized_keys file.
func ParseKeys(data []byte) *KeysFile {
	kf := &KeysFile{keys: map[string]Key{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxKeysFile+1)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, err := parseKeyLine(line)
		if err != nil {
			kf.Problems = append(kf.Problems, KeyProblem{Line: n, Reason: err.Error()})
			continue
		}
		kf.keys[key.Fingerprint] = key
	}
	return kf
}

func parseKeyLine(line []byte) (Key, error) {
	pub, comment, options, rest, err := gossh.ParseAuthorizedKey(line)
	if err != nil {
		return Key{}, fmt.Errorf("not a public key in OpenSSH's format (%v)", err)
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return Key{}, fmt.Errorf("more than one key on the line")
	}
	if _, ok := pub.(*gossh.Certificate); ok {
		return Key{}, fmt.Errorf("a certificate: list the key itself")
	}
	key := Key{Fingerprint: gossh.FingerprintSHA256(pub), Comment: comment, Role: RoleRead}
	for _, opt := range options {
		name, value, hasValue := strings.Cut(opt, "=")
		name = strings.ToLower(name)
		switch {
		case name == "role" && hasValue:
			r, ok := ParseRole(strings.Trim(value, `"`))
			if !ok {
				return Key{}, fmt.Errorf("role=%s is not a role: use read, curate or operate", value)
			}
			key.Role = r
		case acceptedOptions[name] && !hasValue:
		default:
			return Key{}, fmt.Errorf("the option %s is not one this server enforces, so the key is refused rather than let in without it", name)
		}
	}
	return key, nil
}
