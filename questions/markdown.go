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
// allocate a 4 KiB bufio.Writer for every text it renders, and a bank has
// dozens of texts per question.
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
