package web

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// statusOf maps error codes to HTTP statuses: the one place this happens.
var statusOf = map[examsim.Code]int{
	examsim.EINVALID:      http.StatusBadRequest,
	examsim.ENOTFOUND:     http.StatusNotFound,
	examsim.ECONFLICT:     http.StatusConflict,
	examsim.EUNAUTHORIZED: http.StatusUnauthorized,
	examsim.EFORBIDDEN:    http.StatusForbidden,
	examsim.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	examsim.ERATELIMIT:    http.StatusTooManyRequests,
	examsim.ETIMEOUT:      http.StatusRequestTimeout,
	examsim.EUNAVAILABLE:  http.StatusServiceUnavailable,
	examsim.EINTERNAL:     http.StatusInternalServerError,
}

// codeOfStatus maps echo's own errors (unknown route, wrong method, body too
// large) back to our codes.
func codeOfStatus(status int) examsim.Code {
	for code, s := range statusOf {
		if s == status && code != examsim.EINVALID {
			return code
		}
	}
	if status == http.StatusMethodNotAllowed || status < 500 {
		return examsim.EINVALID
	}
	return examsim.EINTERNAL
}

// errorView is what a learner or client is told about a failure: what
// failed, whether retrying helps, and what to do instead.
type errorView struct {
	Status    int
	Code      examsim.Code
	Category  examsim.Category
	Retryable bool
	Message   string
	Hint      string
	// OfferLanguages lists the languages there are, for an unknown ?lang=.
	OfferLanguages bool
}

// handleError is echo's HTTPErrorHandler: it turns any error a handler
// returns into a page (or JSON for API clients) in the learner's language.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var appErr *examsim.Error
	var httpErr *echo.HTTPError
	switch {
	case errors.As(err, &appErr):
	case errors.As(err, &httpErr):
		code := codeOfStatus(httpErr.Code)
		msg := "error.internal"
		switch httpErr.Code {
		case http.StatusNotFound:
			msg = "error.page_not_found"
		case http.StatusMethodNotAllowed:
			msg = "error.method_not_allowed"
		case http.StatusRequestEntityTooLarge:
			msg = "error.request_too_large"
		case http.StatusBadRequest:
			msg = "error.bad_request"
		}
		appErr = &examsim.Error{Code: code, MessageID: msg, Detail: err.Error()}
	default:
		appErr = &examsim.Error{Code: examsim.EINTERNAL, MessageID: "error.internal", Detail: err.Error()}
	}
	status := statusOf[appErr.Code]
	if status >= 500 {
		s.Logger.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	}

	p := pageOf(c)
	if p.Catalog == nil {
		p.Catalog = s.Catalog // the error came before the language was chosen
	}
	v := errorView{
		Status: status, Code: appErr.Code, Category: appErr.Code.Category(), Retryable: appErr.Code.Retryable(),
		Message:        p.errorText(appErr),
		Hint:           hintFor(p, appErr),
		OfferLanguages: appErr.MessageID == "error.unknown_language",
	}
	if wantsJSON(c) {
		if err := c.JSON(status, map[string]any{"error": map[string]any{
			"code": v.Code, "errorCategory": v.Category, "isRetryable": v.Retryable,
			"description": v.Message, "hint": v.Hint,
		}}); err != nil {
			s.Logger.Error("writing the error as JSON", "err", err)
		}
		return
	}
	if err := Render(c, status, ErrorPage(v)); err != nil {
		s.Logger.Error("rendering the error page", "err", err)
	}
}

// formError re-shows a form with the localized reason when err is an
// examsim.Error the user can fix: one of codes, or any code under 500 when
// none are named. show gets the code's status and the reason; anything else
// bubbles to the error handler.
func formError(c echo.Context, err error, show func(status int, reason string) error, codes ...examsim.Code) error {
	var e *examsim.Error
	if !errors.As(err, &e) || statusOf[e.Code] >= 500 || (len(codes) > 0 && !slices.Contains(codes, e.Code)) {
		return err
	}
	return show(statusOf[e.Code], pageOf(c).errorText(e))
}

// wantsJSON reports whether an error should be written as JSON: for the
// health check, and for a client that asks for JSON rather than HTML.
func wantsJSON(c echo.Context) bool {
	return strings.HasPrefix(c.Path(), "/healthz") || acceptsJSON(c)
}

// acceptsJSON reports whether the request asks for JSON rather than HTML,
// as a script sending a form for a short answer does.
func acceptsJSON(c echo.Context) bool {
	accept := c.Request().Header.Get("Accept")
	return strings.Contains(accept, "application/json") && !strings.Contains(accept, "text/html")
}

// hintFor says what to do about an error: the message's own hint when the
// catalog has one (hint.storage_full for error.storage_full: a full disk
// needs more than a few seconds' wait; hint.class.error_already_answered),
// else its code's.
func hintFor(p *Page, e *examsim.Error) string {
	// A message from another area may have its own hint too:
	// hint.class.error_already_answered, not the code's generic one.
	if !strings.HasPrefix(e.MessageID, "error.") {
		if h := p.Catalog.T(p.Lang, "hint."+e.MessageID); h != "hint."+e.MessageID {
			return h
		}
	}
	if rest, ok := strings.CutPrefix(e.MessageID, "error."); ok {
		id := "hint." + rest
		if h := p.Catalog.T(p.Lang, id); h != id {
			return h
		}
	}
	return p.Catalog.T(p.Lang, "hint."+string(e.Code))
}
