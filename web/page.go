package web

import (
	"bytes"
	"context"
	"io"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/i18n"
	"github.com/examsim/examsim/questions"
)

// Page is what every component knows about the request it renders for.
type Page struct {
	Lang    examsim.Lang
	Catalog *i18n.Catalog
	Bank    *questions.Bank
	Learner *examsim.Learner // nil until the visitor does something worth keeping
	CSRF    string
	URL     *url.URL
	Zone    *time.Location // the viewer's time zone; see timezone.go
}

type pageKey struct{}

// pageOf returns the request's Page, making it on first use.
func pageOf(c echo.Context) *Page {
	if p, ok := c.Get("page").(*Page); ok {
		return p
	}
	p := &Page{Lang: examsim.English, URL: c.Request().URL, Zone: zoneOf(c.Request())}
	c.Set("page", p)
	return p
}

// page returns the Page a component renders for.
func page(ctx context.Context) *Page {
	if p, ok := ctx.Value(pageKey{}).(*Page); ok {
		return p
	}
	return &Page{Lang: examsim.English, URL: &url.URL{Path: "/"}}
}

// t translates a message id for the page being rendered.
func t(ctx context.Context, id string, kv ...any) string {
	p := page(ctx)
	if p.Catalog == nil {
		return id
	}
	return p.Catalog.T(p.Lang, id, kv...)
}

// tn translates a message with plural forms.
func tn(ctx context.Context, id string, n int, kv ...any) string {
	p := page(ctx)
	if p.Catalog == nil {
		return id
	}
	return p.Catalog.N(p.Lang, id, n, kv...)
}

// renderTo renders a component with p as its page: the one place a
// component meets its Page, for Render and for fragments.
func renderTo(ctx context.Context, p *Page, cmp templ.Component, w io.Writer) error {
	return cmp.Render(context.WithValue(ctx, pageKey{}, p), w)
}

// renderFor renders a component for a page, the request's (pageOf) or
// another's, e.g. a student's fragment in their own language.
func renderFor(ctx context.Context, p *Page, cmp templ.Component) ([]byte, error) {
	var b bytes.Buffer
	err := renderTo(ctx, p, cmp, &b)
	return b.Bytes(), err
}

// Render writes a component as the response, with the request's Page.
func Render(c echo.Context, status int, cmp templ.Component) error {
	p := pageOf(c)
	if tok, ok := c.Get(middleware.DefaultCSRFConfig.ContextKey).(string); ok {
		p.CSRF = tok
	}
	// Render to memory, then send the page in one write with its length:
	// templ flushes an http.Flusher when it finishes, which made every page
	// a chunked response in two writes. A page that fails to render is not
	// sent half-done either: its error reaches the error handler.
	buf := pageBuffers.Get().(*bytes.Buffer)
	defer releasePageBuffer(buf)
	buf.Reset()
	if err := renderTo(c.Request().Context(), p, cmp, buf); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Set(echo.HeaderContentLength, strconv.Itoa(buf.Len()))
	c.Response().WriteHeader(status)
	_, err := c.Response().Write(buf.Bytes())
	return err
}

var pageBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// releasePageBuffer keeps buffers of ordinary pages for reuse; one grown by
// a rare huge page goes to the garbage collector instead.
func releasePageBuffer(b *bytes.Buffer) {
	if b.Cap() <= 1<<20 {
		pageBuffers.Put(b)
	}
}

// message says a bank check's message in the page's language.
func (p *Page) message(m questions.Message) string {
	return p.Catalog.T(p.Lang, m.Key, m.KV()...)
}

// problem says a bank check's problem as path:line: message, in the page's
// language.
func (p *Page) problem(pr questions.Problem) string { return pr.Where() + ": " + p.message(pr.Message) }

// problemText is Page.problem for templates.
func problemText(ctx context.Context, pr questions.Problem) string { return page(ctx).problem(pr) }

// errorText says an application error's message in the page's language,
// filled with the error's arguments.
func (p *Page) errorText(e *examsim.Error) string {
	args := make([]any, 0, 2*len(e.Args))
	for k, v := range e.Args {
		args = append(args, k, v)
	}
	return p.Catalog.T(p.Lang, e.MessageID, args...)
}
