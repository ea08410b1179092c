package loadgen

import (
	"bufio"
	"bytes"
	"io"
	"strings"
)

// ReadEvents reads a server-sent event stream until it ends and hands each
// named event to on with its data (multi-line data joined by "\n"), as a
// browser's EventSource does. Comments and retry hints are not events.
func ReadEvents(r io.Reader, on func(event, data string)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 8<<20)
	var event string
	var data bytes.Buffer
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if event != "" {
				on(event, data.String())
			}
			event = ""
			data.Reset()
		case strings.HasPrefix(line, "event: "):
			event = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.WriteString(line[len("data: "):])
		}
	}
	return sc.Err()
}

// Event is one server-sent event as a client reads it: its name and its
// data lines joined by newlines.
type Event struct{ Name, Data string }

// Events reads r with ReadEvents on a goroutine of its own and sends each
// event on the channel it returns, which closes when r ends: for a caller
// that waits for events with a timeout.
func Events(r io.Reader) <-chan Event {
	events := make(chan Event, 64)
	go func() {
		defer close(events)
		_ = ReadEvents(r, func(event, data string) { events <- Event{Name: event, Data: data} }) // a read error ends the stream as its end does
	}()
	return events
}
