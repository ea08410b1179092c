package web

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
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

const langCookie = "examsim_lang"

// withLanguage picks the page language: ?lang= (kept in a cookie), else the
// cookie, else Accept-Language, else English. An unknown ?lang= is refused
// with a page that offers the languages there are.
func (s *Server) withLanguage(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p := pageOf(c)
		p.Catalog = s.Catalog
		p.Bank = s.Bank
		p.Lang = preferredLang(c.Request())
		if q := c.QueryParam("lang"); q != "" {
			l, ok := examsim.ParseLang(q)
			if !ok {
				return examsim.E(examsim.EINVALID, "error.unknown_language", "Lang", q)
			}
			p.Lang = l
			s.setLangCookie(c, l)
		}
		c.Response().Header().Set("Content-Language", string(p.Lang))
		c.Response().Header().Add("Vary", "Accept-Language, Cookie")
		return next(c)
	}
}

// preferredLang is the language the visitor chose before (the cookie), else
// the one their browser asks for, else English.
func preferredLang(r *http.Request) examsim.Lang {
	if ck, err := r.Cookie(langCookie); err == nil {
		if l, ok := examsim.ParseLang(ck.Value); ok {
			return l
		}
	}
	return i18n.Negotiate(r.Header.Get("Accept-Language"))
}

// langURL returns the current URL switched to another language.
func langURL(u *url.URL, l examsim.Lang) string {
	if u.RawQuery == "" { // most pages: no query to keep, so none to parse
		return localPath(u) + "?lang=" + string(l)
	}
	q := u.Query()
	q.Set("lang", string(l))
	return localPath(u) + "?" + q.Encode()
}

// localPath is the request's path made safe to link to: cleaned, with
// backslashes read as slashes (browsers do), so it starts with exactly one
// slash, and escaped. A raw "//evil.example" would be a link to that host.
// Every link built from the request goes through it.
func localPath(u *url.URL) string {
	p := path.Clean("/" + strings.ReplaceAll(u.Path, `\`, "/"))
	return (&url.URL{Path: p}).EscapedPath()
}

// errorText says an application error's message in the page's language,
// filled with the error's arguments.
func (p *Page) errorText(e *examsim.Error) string {
	args := make([]any, 0, 2*len(e.Args))
	for k, v := range e.Args {
		args = append(args, k, v)
	}
	return p.Catalog.T(p.Lang, e.MessageID, args...)
}
