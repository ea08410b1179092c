package questions

import (
	"fmt"
	"strconv"
	"sync"

	"github.com/examsim/examsim"
	"github.com/examsim/examsim/i18n"
)

// Message is what a check says: an i18n message id ("check.*" in
// i18n/locales, the one text of it in each language) and its template
// data, so the CLI says it in English and the editor in the teacher's
// language.
type Message struct {
	Key  string
	Args map[string]any
}

// Msg makes a message from an id and alternating names and values.
func Msg(key string, kv ...any) Message { return Message{Key: key, Args: Args(kv...)} }

// Args is a message's template data from alternating names and values; nil
// for none.
func Args(kv ...any) map[string]any {
	if len(kv) == 0 {
		return nil
	}
	args := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		args[fmt.Sprint(kv[i])] = kv[i+1]
	}
	return args
}

// In says the message in lang.
func (m Message) In(lang examsim.Lang) string {
	c, err := catalog()
	if err != nil { // the catalogs are embedded: only a broken build gets here
		return m.Key
	}
	return c.T(lang, m.Key, m.KV()...)
}

// String says the message in English.
func (m Message) String() string { return m.In(examsim.English) }

// KV is the message's data as alternating names and values, as
// i18n.Catalog.T takes it.
func (m Message) KV() []any {
	kv := make([]any, 0, 2*len(m.Args))
	for k, v := range m.Args {
		kv = append(kv, k, v)
	}
	return kv
}

// NewProblem is a problem at path:line saying key with its data.
func NewProblem(path string, line int, key string, kv ...any) Problem {
	m := Msg(key, kv...)
	return Problem{Path: path, Line: line, Msg: m.String(), Message: m}
}

// catalog is read on the first problem: a clean bank never needs it.
var catalog = sync.OnceValues(i18n.Load)

// quote is a name as the messages show it, in Go's double quotes.
func quote(s string) string { return strconv.Quote(s) }
