package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// wrk 4.1's --latency output, as bench-web reads it.
const wrkOutput = `Running 10s test @ http://127.0.0.1:41235/
  2 threads and 200 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     9.81ms    3.02ms  61.10ms   80.11%
    Req/Sec    10.26k     1.12k   13.01k    70.50%
  Latency Distribution
     50%    9.40ms
     75%   11.02ms
     90%   13.30ms
     99%    1.02s
  204193 requests in 10.01s, 611.94MB read
  Socket errors: connect 0, read 3, write 0, timeout 2
  Non-2xx or 3xx responses: 7
Requests/sec:  20399.71
Transfer/sec:     61.13MB
`

func TestParseWrk(t *testing.T) {
	got, err := parseWrk([]byte(wrkOutput))
	if err != nil {
		t.Fatal(err)
	}
	want := wrkResult{rps: 20399.71, p50: 9.40, p99: 1020, errors: 12}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(wrkResult{})); diff != "" {
		t.Errorf("parseWrk (-want +got):\n%s", diff)
	}
	if _, err := parseWrk([]byte("unable to connect to 127.0.0.1:1 Connection refused\n")); err == nil {
		t.Error("wrk's failure was read as a result")
	}
}
