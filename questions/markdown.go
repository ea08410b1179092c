package questions

import (
	"bufio"
	"bytes"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

// md renders bank Markdown. goldmark's default renderer drops raw HTML, so
// bank files cannot inject markup; heading attributes give lessons their
// {#concept-id} anchors, and any other attribute is dropped.
var md = goldmark.New(
	// Table alignment as align="…", which the CSP allows, not style="…".
	goldmark.WithExtensions(extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
		extension.Strikethrough),
	goldmark.WithParserOptions(parser.WithAttribute(),
		parser.WithASTTransformers(util.Prioritized(onlyIDAttributes{}, 100))),
)

// mdWriter is a reusable output for renderMarkdown: goldmark would otherwise
// allocate a 4 KiB bufio.Writer for every text it renders.
type mdWriter struct {
	buf bytes.Buffer
	w   *bufio.Writer
}

var mdWriters = sync.Pool{New: func() any {
	m := &mdWriter{}
	m.w = bufio.NewWriter(&m.buf)
	return m
}}

func renderMarkdown(src string) (string, error) {
	m := mdWriters.Get().(*mdWriter)
	defer mdWriters.Put(m)
	m.buf.Reset()
	m.w.Reset(&m.buf)
	if err := md.Convert([]byte(src), m.w); err != nil {
		return "", err
	}
	if err := m.w.Flush(); err != nil {
		return "", err
	}
	return m.buf.String(), nil
}

// rendered is a text of bank Markdown that is rendered to HTML on its first
// view, as rubric patterns compile on their first score: rendering was a
// sixth of loading a bank, and a process shows few of its texts. It is safe
// for concurrent use. Bank.Render renders every text at once, so that
// `questions check` reports a text that cannot render at its line rather
// than leaving it to a learner's first view.
type rendered struct {
	src  string
	path string // the file and line the text starts at, for Bank.Render
	line int
	once sync.Once
	html string
	err  error
}

func newRendered(f *file, line int, src string) *rendered {
	return &rendered{src: src, path: f.path, line: line}
}

// render returns the text's HTML, rendering it on the first call. A text
// that cannot render shows as nothing (Bank.Render reports it).
func (r *rendered) render() (string, error) {
	if r == nil {
		return "", nil
	}
	r.once.Do(func() { r.html, r.err = renderMarkdown(r.src) })
	return r.html, r.err
}

// HTML is the text rendered, or "" when it cannot be.
func (r *rendered) HTML() string {
	html, _ := r.render()
	return html
}
