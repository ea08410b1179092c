package main

import (
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
