package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/examsim/examsim"
)

// Who the visitor is comes from a server-side session (see
// examsim.SessionService): the cookie holds a random token, and ending the
// session on the server, at logout or a timeout, makes a copy of the cookie
// worthless. Every change of who is signed in gets a new token.
const (
	sessionCookie = "examsim_session"
	sessionKey    = "examsim.session" // the request's session token, in echo's context
	// legacyCookie is the signed learner id examsim set before it kept
	// sessions server-side; see upgradeLegacy.
	legacyCookie = "examsim_id"
	legacyMaxAge = 180 * 24 * time.Hour
)

// sessionToken returns the token of the request's live session, if any.
func sessionToken(c echo.Context) string {
	tok, _ := c.Get(sessionKey).(string)
	return tok
}

// wellFormedToken reports whether a cookie value could be a token (43
// base64url characters), so garbage never reaches the database.
func wellFormedToken(v string) bool {
	if len(v) != 43 {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(v)
	return err == nil
}

// setCookie sets a cookie with the app's one policy: HttpOnly,
// SameSite=Lax, and Secure whenever over TLS (secureCookies). A maxAge
// below zero clears it.
func (s *Server) setCookie(c echo.Context, name, value, path string, maxAge time.Duration) {
	age := int(maxAge / time.Second)
	if maxAge < 0 {
		age = -1
	}
	c.SetCookie(&http.Cookie{Name: name, Value: value, Path: path, MaxAge: age, // #nosec G124 -- Secure whenever over TLS (secureCookies)
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies(c.Request())})
}

func (s *Server) setSessionCookie(c echo.Context, token string) {
	s.setCookie(c, sessionCookie, token, "/", examsim.SessionLifetime)
}

func (s *Server) clearCookie(c echo.Context, name string) { s.setCookie(c, name, "", "/", -1) }

// startSession signs the browser in as learner id with a brand-new session,
// ending the one it had: a token someone planted or copied before a login
// is worth nothing after it.
func (s *Server) startSession(c echo.Context, id int64) error {
	ctx := c.Request().Context()
	if old := sessionToken(c); old != "" {
		if err := s.Sessions.EndSession(ctx, old); err != nil {
			return err
		}
	}
	token, err := s.Sessions.CreateSession(ctx, id, s.now())
	if err != nil {
		return err
	}
	c.Set(sessionKey, token)
	s.setSessionCookie(c, token)
	return nil
}

// endSession ends the browser's session on the server and drops its cookie.
func (s *Server) endSession(c echo.Context) error {
	if tok := sessionToken(c); tok != "" {
		if err := s.Sessions.EndSession(c.Request().Context(), tok); err != nil {
			return err
		}
	}
	c.Set(sessionKey, "")
	s.clearCookie(c, sessionCookie)
	return nil
}

// withLearner loads the learner of the browser's session. A missing,
// malformed, unknown, ended or timed-out session is simply no session: the
// visitor is a new anonymous learner, never an error. Only a database that
// cannot answer is one.
func (s *Server) withLearner(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if ck, err := c.Cookie(sessionCookie); err == nil && wellFormedToken(ck.Value) {
			l, err := s.Sessions.ResumeSession(c.Request().Context(), ck.Value, s.now())
			switch {
			case err == nil:
				pageOf(c).Learner = l
				c.Set(sessionKey, ck.Value)
			case examsim.ErrorCode(err) != examsim.ENOTFOUND:
				return err
			}
		}
		if pageOf(c).Learner == nil {
			if err := s.upgradeLegacy(c); err != nil {
				return err
			}
		}
		return next(c)
	}
}

// ensureLearner returns the current learner, creating an anonymous one (and
// its session) on first need, so reading pages never fills the database.
func (s *Server) ensureLearner(c echo.Context) (*examsim.Learner, error) {
	p := pageOf(c)
	if p.Learner != nil {
		return p.Learner, nil
	}
	l, err := s.Learners.CreateAnonymous(c.Request().Context())
	if err != nil {
		return nil, err
	}
	if err := s.startSession(c, l.ID); err != nil {
		return nil, err
	}
	p.Learner = l
	return l, nil
}

// upgradeLegacy moves an anonymous learner from the signed cookie of older
// versions to a session, so an update loses nobody's practice history (an
// anonymous learner has no password to get back in with). A signed cookie
// cannot be revoked, so it is never trusted with an account: those log in
// again.
func (s *Server) upgradeLegacy(c echo.Context) error {
	ck, err := c.Cookie(legacyCookie)
	if err != nil {
		return nil
	}
	s.clearCookie(c, legacyCookie)
	id, ok := verifyIdentity(s.CookieKey, ck.Value, s.now())
	if !ok {
		return nil
	}
	l, err := s.Learners.FindLearner(c.Request().Context(), id)
	if err != nil || !l.Anonymous() {
		return nil
	}
	if err := s.startSession(c, l.ID); err != nil {
		return err
	}
	pageOf(c).Learner = l
	return nil
}

// signIdentity returns an older version's cookie value naming learner id,
// issued at now and signed with HMAC-SHA256; tests make legacy cookies
// with it.
func signIdentity(key []byte, id int64, now time.Time) string {
	payload := fmt.Sprintf("%d.%d", id, now.Unix())
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(payload))
	return payload + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// verifyIdentity returns the learner id of an older version's cookie value,
// or false for one that is tampered with, malformed or expired.
func verifyIdentity(key []byte, value string, now time.Time) (int64, bool) {
	parts := strings.Split(value, ".")
	if len(key) == 0 || len(parts) != 3 {
		return 0, false
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		return 0, false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(parts[0] + "." + parts[1]))
	if !hmac.Equal(sig, mac.Sum(nil)) {
		return 0, false
	}
	id, err1 := strconv.ParseInt(parts[0], 10, 64)
	issued, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil || now.Sub(time.Unix(issued, 0)) > legacyMaxAge {
		return 0, false
	}
	return id, true
}
