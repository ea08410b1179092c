package web

import (
	"net/http"
	"net/netip"
	"testing"
)

func TestClientAddress(t *testing.T) {
	s := &Server{Config: Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}}}
	tests := []struct {
		name, remote, xff, proto string
		want                     string
		key                      string
		tls                      bool
	}{
		{"direct", "203.0.113.5:4000", "", "", "203.0.113.5", "203.0.113.5", false},
		{"forged headers from a client", "203.0.113.5:4000", "1.2.3.4", "https", "203.0.113.5", "203.0.113.5", false},
		{"through the proxy", "10.0.0.2:5000", "198.51.100.7", "https", "198.51.100.7", "198.51.100.7", true},
		{"a client's own forged hop is skipped", "10.0.0.2:5000", "1.2.3.4, 198.51.100.7", "http", "198.51.100.7", "198.51.100.7", false},
		{"two trusted proxies", "10.0.0.2:5000", "198.51.100.7, 10.9.9.9", "https", "198.51.100.7", "198.51.100.7", true},
		{"garbage stops at the proxy", "10.0.0.2:5000", "198.51.100.7, not-an-ip", "", "10.0.0.2", "10.0.0.2", false},
		{"the proxy without a header", "10.0.0.2:5000", "", "", "10.0.0.2", "10.0.0.2", false},
		{"IPv6 counts by /64", "[2001:db8:1:2:3:4:5:6]:443", "", "", "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64", false},
		{"IPv6 proxy, IPv4 client", "[::1]:80", "192.0.2.9", "HTTPS", "192.0.2.9", "192.0.2.9", true},
	}
	for _, tt := range tests {
		r, _ := http.NewRequest("GET", "/", nil)
		r.RemoteAddr = tt.remote
		if tt.xff != "" {
			r.Header.Set("X-Forwarded-For", tt.xff)
		}
		if tt.proto != "" {
			r.Header.Set("X-Forwarded-Proto", tt.proto)
		}
		if got := s.clientIP(r); got != tt.want {
			t.Errorf("%s: client %s, want %s", tt.name, got, tt.want)
		}
		if got := s.clientKey(r); got != tt.key {
			t.Errorf("%s: key %s, want %s", tt.name, got, tt.key)
		}
		if got := s.overTLS(r); got != tt.tls {
			t.Errorf("%s: over TLS %v, want %v", tt.name, got, tt.tls)
		}
	}
}
