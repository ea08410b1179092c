package main

import "testing"

func TestTrustedProxyFlag(t *testing.T) {
	var p proxyList
	for _, v := range []string{"127.0.0.1", "10.0.0.0/8, ::1", "192.168.1.7/24"} {
		if err := p.Set(v); err != nil {
			t.Fatal(err)
		}
	}
	if got := p.String(); got != "127.0.0.1/32,10.0.0.0/8,::1/128,192.168.1.0/24" {
		t.Errorf("proxies = %s", got)
	}
}
