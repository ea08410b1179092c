package sse

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEvent frames data as one event, a data line per line of it, alike
// whether it takes the one-line path or the general one.
func TestEvent(t *testing.T) {
	for _, tc := range []struct {
		name, event, data, want string
	}{
		{"no data", "replaced", "", "event: replaced\ndata: \n\n"},
		{"one line", "clock", "1765000000000", "event: clock\ndata: 1765000000000\n\n"},
		{"markup on one line", "you", `<p class="you-line">Ana &amp; Bo</p>`, "event: you\ndata: <p class=\"you-line\">Ana &amp; Bo</p>\n\n"},
		{"several lines", "stage", "<div>\n<p>x</p>\n</div>", "event: stage\ndata: <div>\ndata: <p>x</p>\ndata: </div>\n\n"},
		{"carriage returns dropped", "stage", "a\r\nb\r", "event: stage\ndata: a\ndata: b\n\n"},
		{"a lone carriage return", "stage", "a\rb", "event: stage\ndata: ab\n\n"},
	} {
		if diff := cmp.Diff(tc.want, string(Event(tc.event, []byte(tc.data)))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}
