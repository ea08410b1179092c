package web

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Who is asking, and over what. Forwarding headers (X-Forwarded-For,
// X-Forwarded-Proto) are anyone's to write, so they count only on a
// connection from a configured trusted proxy; otherwise the connection's
// own address and TLS state are the truth. Rate limits, HSTS and Secure
// cookies all go by these functions.

// remoteAddr is the address the connection comes from.
func remoteAddr(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, _ := netip.ParseAddr(host)
	return a.Unmap()
}

// trustedProxy reports whether a is one of the configured proxies.
func (s *Server) trustedProxy(a netip.Addr) bool {
	for _, p := range s.TrustedProxies {
		if a.IsValid() && p.Contains(a.Unmap()) {
			return true
		}
	}
	return false
}

// clientAddr is the client's address: the connection's, or, when that is
// a trusted proxy, the nearest address in X-Forwarded-For that is not one.
// A malformed entry stops the walk at the proxy, so a client cannot pick
// its own address by writing garbage before it.
func (s *Server) clientAddr(r *http.Request) netip.Addr {
	if client, _, ok := s.forwardedFor(r); ok { // from a peer instance (forward.go)
		return client
	}
	remote := remoteAddr(r)
	if !s.trustedProxy(remote) {
		return remote
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	client := remote
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return client
		}
		client = a.Unmap()
		if !s.trustedProxy(client) {
			return client
		}
	}
	return client
}

// clientIP is the client's address as text, for rate limits and logs.
func (s *Server) clientIP(r *http.Request) string {
	if a := s.clientAddr(r); a.IsValid() {
		return a.String()
	}
	return r.RemoteAddr
}

// clientKey is what rate limits count a client by: its IPv4 address, or
// its IPv6 /64, the block one household or device is usually given.
func (s *Server) clientKey(r *http.Request) string {
	a := s.clientAddr(r)
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return s.clientIP(r)
}

// overTLS reports whether the browser reached us over HTTPS: directly, or
// through a trusted proxy that says so.
func (s *Server) overTLS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if _, scheme, ok := s.forwardedFor(r); ok { // from a peer instance (forward.go)
		return scheme == "https"
	}
	if !s.trustedProxy(remoteAddr(r)) {
		return false
	}
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(proto), "https")
}

// schemeOf is the scheme links back to examsim should use.
func (s *Server) schemeOf(r *http.Request) string {
	if s.overTLS(r) {
		return "https"
	}
	return "http"
}

// secureCookies reports whether cookies set on this response must be
// Secure: always under TLS, and whenever the deployment says so.
func (s *Server) secureCookies(r *http.Request) bool { return s.SecureCookies || s.overTLS(r) }
