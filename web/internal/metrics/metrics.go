// Package metrics is the server's Prometheus registry: process, Go and
// classroom metrics, and the instruments handlers record to.
package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/examsim/examsim/classroom"
)

// Instruments is the server's one Prometheus registry, built in web.New,
// and the instruments the handlers record to.
type Instruments struct {
	Handler http.Handler // serves /metrics
	// AnswerSeconds times an answer from its request reaching the handler
	// to its acknowledgement (after commit), so a load test can set the
	// server's share beside what its clients observed.
	AnswerSeconds prometheus.Histogram
	// Forwarded counts requests sent on to the instance owning their room.
	Forwarded prometheus.Counter
	// FanoutSeconds times a new question from the host's control reaching
	// its room to each connected phone's write of it; CeilingSeconds times
	// the benchmark ceiling's fan-out (--bench-ceiling) from its request to
	// each stream's write. Server-side both, so a load test can tell the
	// server's fan-out from what its own readers add.
	FanoutSeconds, CeilingSeconds prometheus.Histogram
}

// New registers the process, Go and classroom metrics; hub may be nil.
func New(hub *classroom.Hub) *Instruments {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector())
	m := &Instruments{AnswerSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "examsim", Subsystem: "classroom",
		Name: "answer_seconds", Help: "Time from an answer reaching the server to its acknowledgement, after commit.",
		Buckets: prometheus.ExponentialBuckets(0.001, 1.25, 40)})} // 1 ms to about 6 s
	m.Forwarded = prometheus.NewCounter(prometheus.CounterOpts{Namespace: "examsim", Subsystem: "classroom",
		Name: "forwarded_total", Help: "Requests forwarded to the instance owning their room (many instances on one database)."})
	// Steps of 10%, 1 ms to about 2 s: a ratio of two p99s is read to 10%.
	fanoutBuckets := prometheus.ExponentialBuckets(0.001, 1.1, 80)
	m.FanoutSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "examsim", Subsystem: "classroom",
		Name: "fanout_seconds", Help: "Time from a host's control reaching its room to each connected phone's write of the new question.",
		Buckets: fanoutBuckets})
	m.CeilingSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "examsim", Subsystem: "ceiling",
		Name: "fanout_seconds", Help: "Time from a benchmark ceiling fan-out's request to each stream's write of it (--bench-ceiling only).",
		Buckets: fanoutBuckets})
	reg.MustRegister(m.AnswerSeconds, m.Forwarded, m.FanoutSeconds, m.CeilingSeconds)
	if hub != nil {
		gauge := func(name, help string, f func(classroom.Stats) float64) {
			reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "examsim", Subsystem: "classroom",
				Name: name, Help: help}, func() float64 { return f(hub.Stats()) }))
		}
		counter := func(name, help string, f func(classroom.Stats) float64) {
			reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "examsim", Subsystem: "classroom",
				Name: name, Help: help}, func() float64 { return f(hub.Stats()) }))
		}
		gauge("rooms", "Rooms loaded in memory.", func(st classroom.Stats) float64 { return float64(st.Rooms) })
		gauge("players", "Players in the loaded rooms.", func(st classroom.Stats) float64 { return float64(st.Players) })
		gauge("streams", "Open event streams.", func(st classroom.Stats) float64 { return float64(st.Streams) })
		gauge("answers_queued", "Answers waiting for the next group commit.", func(st classroom.Stats) float64 { return float64(st.Queued) })
		counter("answers_committed_total", "Answers committed.", func(st classroom.Stats) float64 { return float64(st.Committed) })
		counter("answers_failed_total", "Answers whose commit failed.", func(st classroom.Stats) float64 { return float64(st.Fail) })
		counter("commits_total", "Group commits of answers.", func(st classroom.Stats) float64 { return float64(st.Batches) })
	}
	m.Handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	return m
}
