package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/examsim/examsim"
)

// TestMetricsConcurrent scrapes /metrics from many clients at once, the
// first of them building the registry, while students join a room and so
// change what the classroom gauges read. Under -race (make test) any
// unguarded access fails it; every scrape must be whole.
func TestMetricsConcurrent(t *testing.T) {
	a := newClassApp(t)
	host := a.account("metrics_host", examsim.RoleInstructor)
	_, code := a.startRun(host, "optional")
	scrape := func() (int, string, error) {
		resp, err := http.Get(a.URL + "/metrics")
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body), err
	}
	const students = 8
	var wg sync.WaitGroup
	for i := 0; i < students; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			c := newClient(t, a.Server)
			token := c.get("/join?code="+code).doc.Find(`input[name=_csrf]`).AttrOr("value", "")
			p := c.postRaw("/join", url.Values{"code": {code}, "nickname": {fmt.Sprintf("Scraped %d", i)}, "lang": {"en"}, "_csrf": {token}})
			if p.status != http.StatusSeeOther {
				t.Errorf("join %d: %d", i, p.status)
			}
		}()
		go func() {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				status, body, err := scrape()
				if err != nil || status != http.StatusOK || !strings.Contains(body, "examsim_classroom_players") {
					t.Errorf("scrape: %d %v, classroom gauges missing", status, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	_, body, err := scrape()
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("examsim_classroom_players %d\n", students); !strings.Contains(body, want) {
		t.Errorf("after %d joins the players gauge does not say so:\n%s", students, classroomLines(body))
	}
}

func classroomLines(metrics string) string {
	var out []string
	for _, l := range strings.Split(metrics, "\n") {
		if strings.HasPrefix(l, "examsim_classroom") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
