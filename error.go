package examsim

import (
	"errors"
	"fmt"
)

// Code classifies an error the way the product teaches tools to: each code
// maps to one of the four categories, says whether retrying can help, and
// (in web/) to one HTTP status.
type Code string

const (
	EINVALID      Code = "invalid"      // the input is malformed: fix it and send again
	ENOTFOUND     Code = "not_found"    // no such thing: check the id or link
	ECONFLICT     Code = "conflict"     // a rule forbids it, e.g. a taken username
	EUNAUTHORIZED Code = "unauthorized" // sign in first
	EFORBIDDEN    Code = "forbidden"    // signed in, but not allowed
	ETOOLARGE     Code = "too_large"    // the input is over a size limit
	ERATELIMIT    Code = "rate_limited" // too many requests: wait, then retry
	ETIMEOUT      Code = "timeout"      // the request arrived too slowly: send it again
	EUNAVAILABLE  Code = "unavailable"  // a dependency is briefly down: retry
	EINTERNAL     Code = "internal"     // our bug: retrying rarely helps
)

// Category is one of the four error categories of the lessons.
type Category string

const (
	Transient  Category = "transient"
	Validation Category = "validation"
	Business   Category = "business"
	Permission Category = "permission"
)

// Category returns the error category of a code.
func (c Code) Category() Category {
	switch c {
	case EINVALID, ETOOLARGE, ENOTFOUND:
		return Validation
	case ECONFLICT:
		return Business
	case EUNAUTHORIZED, EFORBIDDEN:
		return Permission
	default:
		return Transient
	}
}

// Retryable reports whether sending the same request again can succeed.
func (c Code) Retryable() bool {
	return c == ERATELIMIT || c == EUNAVAILABLE || c == ETIMEOUT
}

// Error is the one error type of the application. MessageID is an i18n
// message id (with Args as its template data) so the web layer can say it in
// the learner's language; Detail is for logs and never shown.
type Error struct {
	Code      Code
	MessageID string
	Args      map[string]any
	Detail    string
}

func (e *Error) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("examsim: %s: %s (%s)", e.Code, e.MessageID, e.Detail)
	}
	return fmt.Sprintf("examsim: %s: %s", e.Code, e.MessageID)
}

// E returns an *Error with a message id and template data given as
// alternating keys and values. It formats nothing: the web layer says the
// message in the learner's language.
func E(code Code, messageID string, kv ...any) *Error {
	e := &Error{Code: code, MessageID: messageID}
	if len(kv) > 0 {
		e.Args = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			e.Args[fmt.Sprint(kv[i])] = kv[i+1]
		}
	}
	return e
}

// ErrorCode returns the code of err, EINTERNAL for errors that are not ours.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}
