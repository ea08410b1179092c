package webtest

import (
	"bufio"
	"io"
	"strings"
)

// Event is one server-sent event as a client reads it: its name and its
// data lines joined by newlines.
type Event struct{ Name, Data string }

// ReadEvents reads the named server-sent events of r (comments, retry
// hints and unnamed events are skipped) and sends each on the channel it
// returns, which closes when r ends.
func ReadEvents(r io.Reader) <-chan Event {
	events := make(chan Event, 64)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var cur Event
		var data []string
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if cur.Name != "" {
					cur.Data = strings.Join(data, "\n")
					events <- cur
				}
				cur, data = Event{}, nil
			case strings.HasPrefix(line, "event: "):
				cur.Name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				data = append(data, strings.TrimPrefix(line, "data: "))
			}
		}
	}()
	return events
}
