package serve

import (
	"strings"
	"testing"
)

func TestParseKeys(t *testing.T) {
	t.Parallel()
	s := newSigner(t)
	key := strings.TrimSpace(authorizedLine(s, "", ""))
	for _, tc := range []struct {
		name, line string
		role       Role
		comment    string
		problem    string // part of the reason the line lets no key in
	}{
		{"no options: read", key + " ann@laptop", RoleRead, "ann@laptop", ""},
		{"curate", `role="curate" ` + key + " bo", RoleCurate, "bo", ""},
		{"operate among accepted options", `no-port-forwarding,role="operate",restrict ` + key + " cy", RoleOperate, "cy", ""},
		{"a role unquoted", `role=read ` + key, RoleRead, "", ""},
		{"an unknown role", `role="admin" ` + key, 0, "", `role="admin" is not a role`},
		{"from= is not enforced here", `from="10.0.0.1" ` + key, 0, "", "the option from is not one this server enforces"},
		{"command= is not enforced here", `command="ls" ` + key, 0, "", "the option command is not one"},
		{"garbage", "ssh-ed25519 AAAA", 0, "", "not a public key in OpenSSH's format"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kf := ParseKeys([]byte("# a comment\n\n" + tc.line + "\n"))
			got, ok := kf.Lookup(s.PublicKey())
			if tc.problem != "" {
				if ok || len(kf.Problems) != 1 || kf.Problems[0].Line != 3 || !strings.Contains(kf.Problems[0].Reason, tc.problem) {
					t.Errorf("let in %v (%v), problems %+v; want refused for %q on line 3", ok, got, kf.Problems, tc.problem)
				}
				return
			}
			if !ok || got.Role != tc.role || got.Comment != tc.comment || len(kf.Problems) > 0 {
				t.Errorf("got %+v, %v, problems %+v; want role %v, comment %q", got, ok, kf.Problems, tc.role, tc.comment)
			}
		})
	}
}

func TestOneBadLineLocksNoOneOut(t *testing.T) {
	t.Parallel()
	a, b := newSigner(t), newSigner(t)
	kf := ParseKeys([]byte(authorizedLine(a, `role="nope"`, "a") + authorizedLine(b, `role="curate"`, "b")))
	if _, ok := kf.Lookup(a.PublicKey()); ok {
		t.Error("the key with a bad role was let in")
	}
	if k, ok := kf.Lookup(b.PublicKey()); !ok || k.Role != RoleCurate {
		t.Errorf("the good line after a bad one: %+v %v", k, ok)
	}
}

func FuzzParseKeys(f *testing.F) {
	s := newSigner(f)
	f.Add([]byte(authorizedLine(s, `role="operate",restrict`, "cy@ops")))
	f.Add([]byte("# comment\n" + authorizedLine(s, `role="x"`, "") + "garbage\n"))
	f.Add([]byte(`command="a\"b",role="read" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA== x`))
	f.Fuzz(func(t *testing.T, data []byte) {
		kf := ParseKeys(data)
		for fp, k := range kf.keys {
			if fp != k.Fingerprint || k.Role < RoleRead || k.Role > RoleOperate {
				t.Fatalf("a key let in with %+v under %s", k, fp)
			}
		}
	})
}
