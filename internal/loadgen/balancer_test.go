package loadgen_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/examsim/examsim/internal/loadgen"
)

// The balancer sends each request to the next backend in turn, passes the
// body on, and skips a backend that refuses connections.
func TestAlternatingBalancer(t *testing.T) {
	backend := func(name string) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			_, _ = io.WriteString(w, name+":"+string(body))
		}))
	}
	a, b, dead := backend("a"), backend("b"), backend("dead")
	defer a.Close()
	defer b.Close()
	dead.Close() // refuses connections from now on
	lb, err := loadgen.NewAlternating(&http.Transport{}, a.URL, b.URL, dead.URL)
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(lb)
	defer front.Close()
	var got []string
	for range 6 {
		resp, err := http.Post(front.URL, "text/plain", strings.NewReader("x"))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got = append(got, string(body))
	}
	// The turn order is b, dead (skipped to a), a, b, ...
	want := []string{"b:x", "a:x", "a:x", "b:x", "a:x", "a:x"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("backends reached (-want +got):\n%s", diff)
	}
	if _, err := loadgen.NewAlternating(&http.Transport{}, "127.0.0.1:8080"); err == nil {
		t.Error("a URL without a scheme was taken as a backend")
	}
}
