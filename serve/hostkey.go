package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"

	"clawvault-tui/store"
	"clawvault-tui/store/regfile"
)

// HostKeyName is the host key's file in the host key folder.
const HostKeyName = "ssh_host_ed25519_key"

// LoadHostKey reads the server's host key from dir, generating it the
// first time (ed25519, written atomically with mode 0600 in a folder of
// mode 0700). A key others may read is refused, as sshd refuses it: it is
// the server's identity. created says the key was made now.
func LoadHostKey(dir string) (signer gossh.Signer, path string, created bool, err error) {
	path = filepath.Join(dir, HostKeyName)
	data, err := regfile.ReadFileLimit(path, 64<<10)
	if errors.Is(err, fs.ErrNotExist) {
		signer, err = createHostKey(dir, path)
		return signer, path, err == nil, err
	}
	if err != nil {
		return nil, path, false, fmt.Errorf("cannot read the host key %s: %w", path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, path, false, err
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, path, false, fmt.Errorf("the host key %s may be read by others (mode %04o): `chmod 600 %s`, or remove it to have a new one made", path, perm, path)
	}
	signer, err = gossh.ParsePrivateKey(data)
	if err != nil {
		return nil, path, false, fmt.Errorf("the host key %s is not a private key this server reads (%v): remove it to have a new one made", path, err)
	}
	return signer, path, false, nil
}

func createHostKey(dir, path string) (gossh.Signer, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot make the host key folder %s: %w", dir, err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	block, err := gossh.MarshalPrivateKey(priv, "clawvault-tui serve host key")
	if err != nil {
		return nil, err
	}
	if err := store.WriteFileAtomic(store.OSWriter, path, pem.EncodeToMemory(block), 0o600); err != nil {
		return nil, fmt.Errorf("cannot write the host key %s: %w", path, err)
	}
	return gossh.NewSignerFromKey(priv)
}
