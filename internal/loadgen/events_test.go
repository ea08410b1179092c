package loadgen

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadEvents(t *testing.T) {
	stream := ": hello\nretry: 2000\n\n" +
		"event: state\ndata: {\"a\":1}\n\n" +
		"event: log\ndata: one\ndata: two\n\n" +
		"data: no name, not an event\n\n" +
		"event: end\n" // never finished by a blank line: not dispatched
	var got []string
	if err := ReadEvents(strings.NewReader(stream), func(event, data string) {
		got = append(got, event+"="+data)
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{`state={"a":1}`, "log=one\ntwo"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
