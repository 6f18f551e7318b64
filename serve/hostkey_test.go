package serve

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHostKeyIsMadeOnceAndKept(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "ssh")
	first, path, created, err := LoadHostKey(dir)
	if err != nil || !created {
		t.Fatalf("first load: %v, created %v", err, created)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v, mode %v; want %v", p, err, fi.Mode().Perm(), want)
		}
	}
	again, _, created, err := LoadHostKey(dir)
	if err != nil || created {
		t.Fatalf("second load: %v, created %v", err, created)
	}
	if !bytes.Equal(first.PublicKey().Marshal(), again.PublicKey().Marshal()) {
		t.Error("the host key changed between two starts")
	}
}

func TestHostKeyRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, path, _, err := LoadHostKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o644)
	if _, _, _, err := LoadHostKey(dir); err == nil || !strings.Contains(err.Error(), "may be read by others (mode 0644)") {
		t.Errorf("a readable host key: %v", err)
	}
	os.Chmod(path, 0o600)
	os.WriteFile(path, []byte("not a key"), 0o600)
	if _, _, _, err := LoadHostKey(dir); err == nil || !strings.Contains(err.Error(), "is not a private key") {
		t.Errorf("a damaged host key: %v", err)
	}
}
