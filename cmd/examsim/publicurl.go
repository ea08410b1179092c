package main

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// checkPublicURL checks --public-url: an http or https address with a
// host and nothing after the path, which the join URL is built on. Empty
// is allowed: the join URL then follows the presenter's address.
func checkPublicURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an address such as http://192.168.1.20:8080 or https://quiz.example.org: give the scheme and the host students' phones open", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("%q has a query, a fragment or a user name: give only the scheme, the host, the port and any path prefix, such as https://quiz.example.org", raw)
	}
	return strings.TrimSuffix(u.String(), "/"), nil
}

// lanAddrs lists this machine's addresses on its local networks, the ones
// students on the same Wi-Fi can reach: private IPv4 first, loopback and
// link-local left out. None is no error: the presenter screen says so.
func lanAddrs() []string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []string
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if !ok || n.IP.IsLoopback() || n.IP.IsLinkLocalUnicast() || n.IP.To4() == nil || !n.IP.IsPrivate() {
			continue
		}
		out = append(out, n.IP.String())
	}
	return out
}
