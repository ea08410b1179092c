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

const (
	identityCookie = "examsim_id"
	identityMaxAge = 180 * 24 * time.Hour
)

// signIdentity returns a cookie value naming learner id, issued at now and
// signed with HMAC-SHA256 so it cannot be forged or edited.
func signIdentity(key []byte, id int64, now time.Time) string {
	payload := fmt.Sprintf("%d.%d", id, now.Unix())
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(payload))
	return payload + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// verifyIdentity returns the learner id of a cookie value, or false for one
// that is tampered with, malformed or expired.
func verifyIdentity(key []byte, value string, now time.Time) (int64, bool) {
	parts := strings.Split(value, ".")
	if len(parts) != 3 {
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
	if err1 != nil || err2 != nil || now.Sub(time.Unix(issued, 0)) > identityMaxAge {
		return 0, false
	}
	return id, true
}

func (s *Server) setIdentity(c echo.Context, id int64) {
	c.SetCookie(&http.Cookie{
		Name: identityCookie, Value: signIdentity(s.CookieKey, id, time.Now()), Path: "/",
		MaxAge: int(identityMaxAge / time.Second), HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.SecureCookies,
	})
}

func (s *Server) clearIdentity(c echo.Context) {
	c.SetCookie(&http.Cookie{Name: identityCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: s.SecureCookies})
}

// withLearner loads the learner named by a valid identity cookie. A missing,
// tampered or expired cookie, or one naming a learner who is gone, is simply
// ignored: the visitor is a new anonymous learner, never an error.
func (s *Server) withLearner(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if ck, err := c.Cookie(identityCookie); err == nil {
			if id, ok := verifyIdentity(s.CookieKey, ck.Value, time.Now()); ok {
				if l, err := s.Learners.FindLearner(c.Request().Context(), id); err == nil {
					pageOf(c).Learner = l
				}
			}
		}
		return next(c)
	}
}

// ensureLearner returns the current learner, creating an anonymous one on
// first need, so reading pages never fills the database.
func (s *Server) ensureLearner(c echo.Context) (*examsim.Learner, error) {
	p := pageOf(c)
	if p.Learner != nil {
		return p.Learner, nil
	}
	l, err := s.Learners.CreateAnonymous(c.Request().Context())
	if err != nil {
		return nil, err
	}
	s.setIdentity(c, l.ID)
	p.Learner = l
	return l, nil
}
