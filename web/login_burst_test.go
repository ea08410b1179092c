package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/store"
	"github.com/examsim/examsim/web"
)

// loginAtOnce logs each client in at the same moment from forwardedFor,
// every one with its CSRF token fetched beforehand, and returns the
// statuses and Retry-After headers in client order.
func loginAtOnce(t *testing.T, clients []*client, forwardedFor string, user func(i int) (name, password string)) ([]int, []string) {
	t.Helper()
	forms := make([]url.Values, len(clients))
	for i, c := range clients {
		name, password := user(i)
		forms[i] = url.Values{"username": {name}, "password": {password}, "_csrf": {c.get("/login").token(t)}}
	}
	statuses, waits := make([]int, len(clients)), make([]string, len(clients))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			req, _ := http.NewRequest("POST", c.base+"/login", strings.NewReader(forms[i].Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("X-Forwarded-For", forwardedFor)
			resp, err := c.http.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			statuses[i], waits[i] = resp.StatusCode, resp.Header.Get("Retry-After")
		}()
	}
	close(start)
	wg.Wait()
	return statuses, waits
}

// TestClassLogsInAtOnce: README promises that right passwords never hold a
// class back. Forty students behind one school address log in at the same
// moment with the default limits (30 failures at once per client) and none
// is refused; wrong passwords sent at once are all charged, so they still
// hit the limit.
func TestClassLogsInAtOnce(t *testing.T) {
	app := limitedApp(t, web.DefaultRateLimits, true)
	ls := store.NewLearnerService(app.DB)
	const class = 40
	clients := make([]*client, class)
	for i := range clients {
		if _, err := ls.CreateAccount(context.Background(), fmt.Sprintf("student%02d", i), fmt.Sprintf("pass phrase %02d", i), examsim.RoleLearner); err != nil {
			t.Fatal(err)
		}
		clients[i] = newClient(t, app.Server)
	}
	statuses, _ := loginAtOnce(t, clients, "198.51.100.7", func(i int) (string, string) {
		return fmt.Sprintf("student%02d", i), fmt.Sprintf("pass phrase %02d", i)
	})
	for i, st := range statuses {
		if st != http.StatusSeeOther {
			t.Errorf("student%02d's right password: %d, want 303", i, st)
		}
	}

	// The same forty with wrong passwords, from another address: every
	// failure counts, also those checked at the same moment, so the
	// client owes ten tries beyond its burst of thirty and waits for them.
	statuses, _ = loginAtOnce(t, clients, "198.51.100.8", func(i int) (string, string) {
		return fmt.Sprintf("student%02d", i), "wrong"
	})
	refused := 0
	for _, st := range statuses {
		if st == http.StatusTooManyRequests {
			refused++
		} else if st != http.StatusUnauthorized {
			t.Errorf("a wrong password: %d, want 401 or 429", st)
		}
	}
	p := login(clients[0], "198.51.100.8", "student00", "pass phrase 00")
	checkLimited(t, "the right password after forty wrong ones", p, "username", "student00", "minute")
	every := web.DefaultRateLimits.LoginPerClient.Every.Seconds()
	if secs, _ := strconv.Atoi(p.header.Get("Retry-After")); float64(secs) < float64(class-web.DefaultRateLimits.LoginPerClient.Burst-refused)*every {
		t.Errorf("Retry-After %ss after %d failures checked at once (%d refused): the failures beyond the burst were not charged", p.header.Get("Retry-After"), class, refused)
	}
}
