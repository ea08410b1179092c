package web_test

import (
	"strings"
	"testing"
)

// checkCacheControl checks that a response of the route keyed "METHOD
// /path" may not be stored by a browser or proxy (ASVS 8.2.1): every
// dynamic response can carry someone's data. Static assets are the
// exception, immutable under content-hashed names; so is the join QR code,
// an image of the room's public join link that the presenter screen
// reloads, and /mcp, whose SDK sends its own "no-cache" on its event
// streams: the sandbox knows no learner.
func checkCacheControl(t *testing.T, where, key string, p *page) {
	t.Helper()
	got := p.header.Get("Cache-Control")
	switch {
	case key == "GET /static/*":
		if !strings.Contains(got, "immutable") {
			t.Errorf("%s: Cache-Control = %q, want a static asset's immutable caching", where, got)
		}
	case key == "GET /class/s/:id/qr.png" && p.status == 200:
		if !strings.HasPrefix(got, "private") {
			t.Errorf("%s: Cache-Control = %q, want private", where, got)
		}
	case strings.HasSuffix(key, " /mcp"): // the SDK's event streams keep no-transform
		if got != "no-store" && got != "no-store, no-transform" {
			t.Errorf("%s: Cache-Control = %q, want no-store", where, got)
		}
	case got != "no-store":
		t.Errorf("%s (status %d): Cache-Control = %q, want no-store", where, p.status, got)
	}
}
