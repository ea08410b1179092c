package main

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// proxyList is --trusted-proxy: each value a CIDR block or one address,
// repeated or separated by commas.
type proxyList []netip.Prefix

func (p *proxyList) String() string {
	s := make([]string, len(*p))
	for i, pr := range *p {
		s[i] = pr.String()
	}
	return strings.Join(s, ",")
}

func (p *proxyList) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		if pr, err := netip.ParsePrefix(f); err == nil {
			*p = append(*p, pr.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return fmt.Errorf("%q is neither an address nor a CIDR block such as 127.0.0.1/32 or 10.0.0.0/8", f)
		}
		*p = append(*p, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return nil
}

// serverTLS loads the certificate and key for --tls-cert and --tls-key,
// or returns nil when neither is given.
func serverTLS(certFile, keyFile string) (*tls.Config, error) {
	if certFile == "" && keyFile == "" {
		return nil, nil
	}
	if certFile == "" || keyFile == "" {
		return nil, errors.New("--tls-cert and --tls-key go together: give both, or neither for plain HTTP")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("cannot load the TLS certificate: %w", err)
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}, nil
}
