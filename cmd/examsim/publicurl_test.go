package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestPublicURLFlag: --public-url and EXAMSIM_PUBLIC_URL set the address
// students open; a value a phone could not open is refused with what to
// give instead.
func TestPublicURLFlag(t *testing.T) {
	for _, c := range []struct {
		name, env string
		args      []string
		want      string // the public URL; "" with code 0 is none
		code      int
		say       string // words the error must have
	}{
		{"none", "", nil, "", 0, ""},
		{"flag", "", []string{"--public-url", "http://192.168.1.20:8080/"}, "http://192.168.1.20:8080", 0, ""},
		{"env", "https://quiz.example.org", nil, "https://quiz.example.org", 0, ""},
		{"flag beats env", "https://quiz.example.org", []string{"--public-url", "http://10.0.0.5:8080"}, "http://10.0.0.5:8080", 0, ""},
		{"path prefix kept", "", []string{"--public-url", "https://school.example/quiz"}, "https://school.example/quiz", 0, ""},
		{"no scheme", "", []string{"--public-url", "192.168.1.20:8080"}, "", 2, "http://192.168.1.20:8080"},
		{"not http", "", []string{"--public-url", "ftp://host"}, "", 2, "scheme"},
		{"query", "", []string{"--public-url", "http://host/?a=1"}, "", 2, "query"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("EXAMSIM_PUBLIC_URL", c.env)
			var stderr bytes.Buffer
			o, code := parseServeFlags(c.args, &stderr)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, c.code, stderr.String())
			}
			if code != 0 {
				if !strings.Contains(stderr.String(), "--public-url") || !strings.Contains(stderr.String(), c.say) {
					t.Errorf("the error %q does not name the flag and say %q", stderr.String(), c.say)
				}
				return
			}
			if o.publicURL != c.want {
				t.Errorf("public URL %q, want %q", o.publicURL, c.want)
			}
		})
	}
}

func TestLANAddrsArePrivateIPv4(t *testing.T) {
	for _, a := range lanAddrs() {
		if strings.Contains(a, ":") || strings.HasPrefix(a, "127.") || strings.HasPrefix(a, "169.254.") {
			t.Errorf("lanAddrs lists %s, which a phone on the Wi-Fi cannot open", a)
		}
	}
}
