// Package static owns the CSS, scripts and images the pages use. They are
// embedded and served under content-hashed names, so browsers may cache them
// forever and a new release is never hidden behind an old copy.
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

//go:embed *.css *.js *.svg
var files embed.FS

type asset struct {
	name   string
	body   []byte
	hashed string // e.g. style.3f2a9c1b.css
}

var (
	byName   = map[string]*asset{}
	byHashed = map[string]*asset{}
)

func init() {
	entries, _ := fs.ReadDir(files, ".")
	for _, e := range entries {
		body, _ := files.ReadFile(e.Name())
		sum := sha256.Sum256(body)
		ext := path.Ext(e.Name())
		a := &asset{name: e.Name(), body: body,
			hashed: strings.TrimSuffix(e.Name(), ext) + "." + hex.EncodeToString(sum[:4]) + ext}
		byName[a.name] = a
		byHashed[a.hashed] = a
	}
}

// Prefix is where assets are served.
const Prefix = "/static/"

// URL returns the content-hashed URL of an asset, e.g. /static/style.3f2a9c1b.css.
func URL(name string) string {
	a, ok := byName[name]
	if !ok {
		panic("static: no asset " + name) // a template names an asset that is not embedded
	}
	return Prefix + a.hashed
}

// Handler serves assets by their hashed names.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := byHashed[strings.TrimPrefix(r.URL.Path, Prefix)]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(a.name)))
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		_, _ = w.Write(a.body) // a client gone mid-answer has no one to tell
	})
}
