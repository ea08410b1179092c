// Package i18n owns the UI's words: one flat-key JSON catalog per language,
// embedded in the binary and read through go-i18n, which knows each
// language's plural rules (Polish has one, few and many).
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"

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
}

// Load reads the embedded catalogs.
func Load() (*Catalog, error) {
	bundle := goi18n.NewBundle(language.English)
	bundle.RegisterUnmarshalFunc("json", json.Unmarshal)
	c := &Catalog{localizers: map[examsim.Lang]*goi18n.Localizer{}, keys: map[examsim.Lang][]string{}}
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
		for _, m := range mf.Messages {
			c.keys[lang] = append(c.keys[lang], m.ID)
		}
		sort.Strings(c.keys[lang])
		c.localizers[lang] = goi18n.NewLocalizer(bundle, string(lang), "en")
	}
	return c, nil
}

// Keys returns the message ids a language's catalog defines.
func (c *Catalog) Keys(lang examsim.Lang) []string { return c.keys[lang] }

// T returns message id in lang, filled with data given as alternating keys
// and values. A missing message falls back to English, then to its id.
func (c *Catalog) T(lang examsim.Lang, id string, kv ...any) string {
	return c.localize(lang, &goi18n.LocalizeConfig{MessageID: id, TemplateData: pairs(kv)})
}

// N is T for a message with plural forms chosen by count, which the message
// can show as {{.Count}}.
func (c *Catalog) N(lang examsim.Lang, id string, count int, kv ...any) string {
	data := pairs(kv)
	data["Count"] = count
	return c.localize(lang, &goi18n.LocalizeConfig{MessageID: id, PluralCount: count, TemplateData: data})
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
