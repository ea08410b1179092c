package web

import (
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/i18n"
)

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

// setLangCookie remembers the learner's language for a year.
func (s *Server) setLangCookie(c echo.Context, l examsim.Lang) {
	s.setCookie(c, langCookie, string(l), "/", 365*24*time.Hour)
}
