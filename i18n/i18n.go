// Package i18n owns the UI's words: one flat-key JSON catalog per language,
// embedded in the binary and read through go-i18n, which knows each
// language's plural rules (Polish has one, few and many).
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"github.com/examsim/examsim"
)

//go:embed locales/*.json
var locales embed.FS

// Catalog translates message ids into every supported language.
type Catalog struct {
	localizers map[examsim.Lang]*goi18n.Localizer
	keys       map[examsim.Lang][]string
	// fixed holds, per language, the messages with no placeholders and no
	// plural forms, already looked up: most words on a page are these, and
	// go-i18n matches languages on every call (a fifth of a page's time).
	fixed map[examsim.Lang]map[string]string
	// filled holds the other messages without plural forms whose only
	// placeholders are plain {{.Key}}: cut into text and keys once, so a
	// page does not run text/template for each of them.
	filled map[examsim.Lang]map[string][]segment
	// counted holds N's messages that have only a count, by language, id
	// and count (below maxRememberedCount).
	counted sync.Map
}

// segment is a piece of a message: text, or the key of a value to put in.
type segment struct {
	text string
	key  string // "" for text
}

var placeholder = regexp.MustCompile(`\{\{\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

// segments cuts a message into text and {{.Key}} placeholders; false when it
// holds any other template action.
func segments(msg string) ([]segment, bool) {
	var out []segment
	last := 0
	for _, m := range placeholder.FindAllStringSubmatchIndex(msg, -1) {
		if m[0] > last {
			out = append(out, segment{text: msg[last:m[0]]})
		}
		out = append(out, segment{key: msg[m[2]:m[3]]})
		last = m[1]
	}
	if last < len(msg) {
		out = append(out, segment{text: msg[last:]})
	}
	for _, sg := range out {
		if sg.key == "" && strings.Contains(sg.text, "{{") {
			return nil, false
		}
	}
	return out, true
}

// fill puts kv's values into a message's placeholders as text/template
// would print them. It declines (false) a key kv lacks and a value that
// is not a string or a number, leaving those to go-i18n.
func fill(segs []segment, kv []any) (string, bool) {
	var b strings.Builder
	for _, sg := range segs {
		if sg.key == "" {
			b.WriteString(sg.text)
			continue
		}
		found := false
		for i := 0; i+1 < len(kv); i += 2 {
			if k, ok := kv[i].(string); !ok || k != sg.key {
				continue
			}
			switch v := kv[i+1].(type) {
			case string:
				b.WriteString(v)
			case int:
				b.WriteString(strconv.Itoa(v))
			case int64:
				b.WriteString(strconv.FormatInt(v, 10))
			default:
				return "", false
			}
			found = true
			break
		}
		if !found {
			return "", false
		}
	}
	return b.String(), true
}

// Load reads the embedded catalogs.
func Load() (*Catalog, error) {
	bundle := goi18n.NewBundle(language.English)
	bundle.RegisterUnmarshalFunc("json", json.Unmarshal)
	c := &Catalog{localizers: map[examsim.Lang]*goi18n.Localizer{}, keys: map[examsim.Lang][]string{},
		fixed: map[examsim.Lang]map[string]string{}, filled: map[examsim.Lang]map[string][]segment{}}
	isFixed := map[examsim.Lang]map[string]bool{}
	singular := map[examsim.Lang]map[string]string{} // messages without plural forms
	for _, lang := range examsim.Langs {
		name := "locales/" + string(lang) + ".json"
		data, err := locales.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("i18n: %s is missing: %w", name, err)
		}
		mf, err := bundle.ParseMessageFileBytes(data, name)
		if err != nil {
			return nil, fmt.Errorf("i18n: %s: %w", name, err)
		}
		isFixed[lang], singular[lang] = map[string]bool{}, map[string]string{}
		for _, m := range mf.Messages {
			c.keys[lang] = append(c.keys[lang], m.ID)
			if m.Zero == "" && m.One == "" && m.Two == "" && m.Few == "" && m.Many == "" {
				singular[lang][m.ID] = m.Other
				isFixed[lang][m.ID] = !strings.Contains(m.Other, "{{")
			}
		}
		sort.Strings(c.keys[lang])
		c.localizers[lang] = goi18n.NewLocalizer(bundle, string(lang), "en")
	}
	for _, lang := range examsim.Langs {
		c.fixed[lang], c.filled[lang] = map[string]string{}, map[string][]segment{}
		for _, id := range c.keys[examsim.English] {
			from := lang
			if _, ok := slices.BinarySearch(c.keys[lang], id); !ok {
				from = examsim.English // go-i18n falls back to English
			}
			msg, ok := singular[from][id]
			switch {
			case !ok:
			case isFixed[from][id]:
				c.fixed[lang][id] = c.localize(lang, &goi18n.LocalizeConfig{MessageID: id})
			default:
				if segs, ok := segments(msg); ok {
					c.filled[lang][id] = segs
				}
			}
		}
	}
	return c, nil
}

// Keys returns the message ids a language's catalog defines.
func (c *Catalog) Keys(lang examsim.Lang) []string { return c.keys[lang] }

// T returns message id in lang, filled with data given as alternating keys
// and values. A missing message falls back to English, then to its id.
func (c *Catalog) T(lang examsim.Lang, id string, kv ...any) string {
	if s, ok := c.fixed[lang][id]; ok { // no placeholders: kv would change nothing
		return s
	}
	if segs, ok := c.filled[lang][id]; ok {
		if s, ok := fill(segs, kv); ok {
			return s
		}
	}
	return c.localize(lang, &goi18n.LocalizeConfig{MessageID: id, TemplateData: pairs(kv)})
}

// N is T for a message with plural forms chosen by count, which the message
// can show as {{.Count}}.
func (c *Catalog) N(lang examsim.Lang, id string, count int, kv ...any) string {
	// A message with only a count, for a count pages show (questions in a
	// topic, answers given), is kept once made: go-i18n would pick the
	// plural form and run text/template on every page.
	key := countedKey{lang, id, count}
	remember := len(kv) == 0 && count >= 0 && count < maxRememberedCount
	if remember {
		if s, ok := c.counted.Load(key); ok {
			return s.(string)
		}
	}
	data := pairs(kv)
	data["Count"] = count
	s := c.localize(lang, &goi18n.LocalizeConfig{MessageID: id, PluralCount: count, TemplateData: data})
	if _, known := slices.BinarySearch(c.keys[examsim.English], id); remember && known { // only real ids: the cache stays bounded
		c.counted.Store(key, s)
	}
	return s
}

// maxRememberedCount bounds the counts N keeps messages for.
const maxRememberedCount = 1000

type countedKey struct {
	lang  examsim.Lang
	id    string
	count int
}

// localize looks a message up, never failing the page over a missing one.
func (c *Catalog) localize(lang examsim.Lang, cfg *goi18n.LocalizeConfig) string {
	l := c.localizers[lang]
	if l == nil {
		l = c.localizers[examsim.English]
	}
	s, err := l.Localize(cfg)
	if err != nil && s == "" {
		return cfg.MessageID
	}
	return s
}

func pairs(kv []any) map[string]any {
	m := make(map[string]any, len(kv)/2+1)
	for i := 0; i+1 < len(kv); i += 2 {
		m[fmt.Sprint(kv[i])] = kv[i+1]
	}
	return m
}

var matcher = language.NewMatcher([]language.Tag{
	language.English, language.Vietnamese, language.Polish, language.Thai,
})

// Negotiate picks the best supported language for an Accept-Language header,
// English when nothing fits.
func Negotiate(acceptLanguage string) examsim.Lang {
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return examsim.English
	}
	_, idx, conf := matcher.Match(tags...)
	if conf == language.No {
		return examsim.English
	}
	return []examsim.Lang{examsim.English, examsim.Vietnamese, examsim.Polish, examsim.Thai}[idx]
}

// Name returns a language's name in that language, for the language switch.
func Name(l examsim.Lang) string {
	switch l {
	case examsim.Vietnamese:
		return "Tiếng Việt"
	case examsim.Polish:
		return "Polski"
	case examsim.Thai:
		return "ไทย"
	}
	return "English"
}
