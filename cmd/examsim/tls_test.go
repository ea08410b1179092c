package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/examsim/examsim/web"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// their paths and a pool that trusts the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "examsim test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	keyDER, _ := x509.MarshalECPrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile, pool
}

// TestServeOverTLS starts examsim serve with --tls-cert and --tls-key and
// checks that it speaks HTTPS with HSTS on every response and Secure
// cookies.
func TestServeOverTLS(t *testing.T) {
	certFile, keyFile, pool := selfSigned(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, outW := io.Pipe()
	done := make(chan int, 1)
	var stderr strings.Builder
	go func() {
		done <- runServe(ctx, []string{"--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "db.sqlite"),
			"--tls-cert", certFile, "--tls-key", keyFile}, outW, &stderr)
		outW.Close()
	}()
	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		t.Fatalf("serve printed nothing: %s", stderr.String())
	}
	first := lines.Text()
	go io.Copy(io.Discard, out) // the rest of its output
	i := strings.Index(first, "https://")
	if i < 0 {
		t.Fatalf("serve does not say it serves HTTPS: %q", first)
	}
	base := strings.Fields(first[i:])[0]

	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, path := range []string{"/?lang=vi", "/no/such/page", "/healthz"} {
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Strict-Transport-Security"); got != web.StrictTransportSecurity {
			t.Errorf("%s: Strict-Transport-Security %q", path, got)
		}
		for _, ck := range resp.Cookies() {
			if !ck.Secure {
				t.Errorf("%s: cookie %s is not Secure", path, ck.Name)
			}
		}
		if path == "/?lang=vi" && len(resp.Cookies()) == 0 {
			t.Errorf("%s set no cookies to check", path)
		}
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("serve exited %d: %s", code, stderr.String())
	}
}

func TestServeFlagErrors(t *testing.T) {
	certFile, _, _ := selfSigned(t)
	db := filepath.Join(t.TempDir(), "db.sqlite")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--tls-cert", certFile}, "--tls-key"},
		{[]string{"--tls-cert", certFile, "--tls-key", certFile}, "certificate"},
		{[]string{"--trusted-proxy", "10.0.0.0/33"}, "CIDR"},
		{[]string{"--trusted-proxy", "proxy.example"}, "CIDR"},
	} {
		code, _, errOut := runCmd(t, "", append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, tt.args...)...)
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("serve %v: exit %d, %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}
