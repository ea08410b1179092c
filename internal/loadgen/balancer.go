package loadgen

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/url"
	"sync/atomic"
	"syscall"
)

// Alternating is the worst load balancer for room ownership: every request
// goes to the next backend in turn. Like nginx's proxy_next_upstream, a
// request whose backend refuses the connection (it died) goes to the next.
// Responses are flushed as they come, so event streams pass through.
type Alternating struct {
	Backends  []*url.URL
	Transport http.RoundTripper
	next      atomic.Uint64
}

// NewAlternating balances over the servers at bases (base URLs).
func NewAlternating(tr http.RoundTripper, bases ...string) (*Alternating, error) {
	p := &Alternating{Transport: tr}
	for _, b := range bases {
		u, err := url.Parse(b)
		if err != nil || u.Host == "" {
			return nil, errors.New("loadgen: " + b + " is not a base URL such as http://127.0.0.1:8080")
		}
		p.Backends = append(p.Backends, u)
	}
	if len(p.Backends) == 0 {
		return nil, errors.New("loadgen: no backend to balance over")
	}
	return p, nil
}

func (p *Alternating) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	start := p.next.Add(1)
	for i := range p.Backends {
		b := p.Backends[(start+uint64(i))%uint64(len(p.Backends))]
		out := r.Clone(r.Context())
		out.RequestURI = ""
		out.URL.Scheme, out.URL.Host = b.Scheme, b.Host
		out.Body = io.NopCloser(bytes.NewReader(body))
		resp, err := p.Transport.RoundTrip(out)
		if errors.Is(err, syscall.ECONNREFUSED) {
			continue // a dead backend: the next one
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		buf := make([]byte, 32<<10)
		for {
			n, err := resp.Body.Read(buf)
			if n > 0 {
				if _, werr := w.Write(buf[:n]); werr != nil {
					break
				}
				w.(http.Flusher).Flush() // event streams pass through as they come
			}
			if err != nil {
				break
			}
		}
		_ = resp.Body.Close() // read to its end or the client left: nothing to report
		return
	}
	http.Error(w, "no backend answers", http.StatusBadGateway)
}
