// Package servetest makes the keys the serve and cli tests log in with.
package servetest

import (
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// NewSigner is a fresh ed25519 key.
func NewSigner(t testing.TB) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// AuthorizedLine is a keys file line for signer, with options before it.
func AuthorizedLine(signer gossh.Signer, options, comment string) string {
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signer.PublicKey())))
	if options != "" {
		line = options + " " + line
	}
	return line + " " + comment + "\n"
}
