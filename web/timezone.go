package web

import (
	"context"
	"net/http"
	"sync"
	"time"
	_ "time/tzdata" // zone names load on a machine without a zoneinfo database
)

// tzCookie holds the viewer's IANA time zone, set by static/tz.js from the
// browser's own setting. Without script, or with a zone this server does
// not know, times are shown in UTC.
const tzCookie = "examsim_tz"

var zones sync.Map // zone name -> *time.Location, so each is loaded once

// zoneOf returns the request's viewer time zone, UTC by default.
func zoneOf(r *http.Request) *time.Location {
	ck, err := r.Cookie(tzCookie)
	if err != nil || ck.Value == "" || len(ck.Value) > 64 {
		return time.UTC
	}
	if z, ok := zones.Load(ck.Value); ok {
		return z.(*time.Location)
	}
	z, err := time.LoadLocation(ck.Value)
	if err != nil {
		return time.UTC
	}
	zones.Store(ck.Value, z)
	return z
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
