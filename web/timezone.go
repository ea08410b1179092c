package web

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"sync"
	"time"
	_ "time/tzdata" // zone names load on a machine without a zoneinfo database
)

// tzCookie holds the viewer's IANA time zone, set by static/tz.js from the
// browser's own setting (URL-encoded, as document.cookie needs). Without
// script, or with a zone this server does not know, times are shown in UTC.
const tzCookie = "examsim_tz"

// canonicalZone is how the zone database spells a name: one to three parts
// such as "America/Argentina/Buenos_Aires", with no empty or dot parts.
// Other spellings LoadLocation accepts ("America//./New_York") are refused,
// so the cache holds at most one entry per zone in the database.
var canonicalZone = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9][A-Za-z0-9_+-]*){0,2}$`)

// maxCachedZones bounds the cache well above the ~600 names of the database.
const maxCachedZones = 1024

// zoneCache loads each zone once, up to max zones; past the bound a zone
// is loaded on each request rather than kept.
type zoneCache struct {
	mu    sync.RWMutex
	max   int
	names map[string]*time.Location
}

var zones = &zoneCache{max: maxCachedZones}

// get returns the zone of a canonical name, UTC for a name the database
// does not hold.
func (c *zoneCache) get(name string) *time.Location {
	c.mu.RLock()
	z, ok := c.names[name]
	c.mu.RUnlock()
	if ok {
		return z
	}
	z, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.names == nil {
		c.names = map[string]*time.Location{}
	}
	if len(c.names) < c.max {
		c.names[name] = z
	}
	return z
}

func (c *zoneCache) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.names)
}

// zoneOf returns the request's viewer time zone, UTC by default.
func zoneOf(r *http.Request) *time.Location {
	ck, err := r.Cookie(tzCookie)
	if err != nil || ck.Value == "" || len(ck.Value) > 64 {
		return time.UTC
	}
	name, err := url.PathUnescape(ck.Value) // "Asia%2FSaigon", as tz.js writes it
	if err != nil || name == "Local" || !canonicalZone.MatchString(name) {
		return time.UTC
	}
	return zones.get(name)
}

// zone is the time zone the page's times are shown in.
func (p *Page) zone() *time.Location {
	if p.Zone == nil {
		return time.UTC
	}
	return p.Zone
}

// when is a date and time as the viewer reads it: in their zone, with the
// zone's name or offset so it is never mistaken for another. Every page
// formats times here; exports keep ISO 8601 with the offset instead.
func when(ctx context.Context, t time.Time) string {
	return t.In(page(ctx).zone()).Format("2006-01-02 15:04 MST")
}

// whenDay is the viewer's calendar day of a time.
func whenDay(ctx context.Context, t time.Time) string {
	return t.In(page(ctx).zone()).Format("2006-01-02")
}

// whenClock is the viewer's time of day of a time, with the zone.
func whenClock(ctx context.Context, t time.Time) string {
	return t.In(page(ctx).zone()).Format("15:04 MST")
}

// isoTime is a time for a datetime attribute or an export: ISO 8601 in the
// viewer's zone, with its offset.
func isoTime(ctx context.Context, t time.Time) string {
	return t.In(page(ctx).zone()).Format(time.RFC3339)
}
