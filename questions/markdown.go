package questions

import (
	"bufio"
	"bytes"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

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
	if html, ok := renderPlainParagraphs(src); ok {
		return html, nil
	}
	return renderGoldmark(src)
}

func renderGoldmark(src string) (string, error) {
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

// renderPlainParagraphs renders text that is only paragraphs of plain
// words, as goldmark renders them, at a fraction of the cost: most option
// texts and explanations are such text, and rendering was a fifth of
// loading a bank. It refuses (ok false) anything Markdown could read as
// more than words: a line that starts with other than a letter or a quote,
// or is indented, or ends in a space, and any character that opens inline
// syntax, an entity or markup. TestPlainParagraphsRenderAsGoldmark holds it
// to goldmark.
func renderPlainParagraphs(src string) (html string, ok bool) {
	if !utf8.ValidString(src) {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(src) + 16)
	open := false
	for line := range strings.Lines(src) {
		line = strings.TrimSuffix(line, "\n")
		if strings.Trim(line, " \t") == "" { // blank to Markdown; a form feed is not
			if open {
				b.WriteString("</p>\n")
				open = false
			}
			continue
		}
		if !plainLine(line) {
			return "", false
		}
		if open {
			b.WriteByte('\n')
		} else {
			b.WriteString("<p>")
			open = true
		}
		writeEscaped(&b, line)
	}
	if open {
		b.WriteString("</p>\n")
	}
	return b.String(), true
}

// notPlain marks the ASCII characters a plain line may not hold: controls,
// and what opens inline syntax, an entity or markup.
var notPlain = func() (t [utf8.RuneSelf]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	for _, c := range "\x7f\\`*_[]<&!|~{}" {
		t[c] = true
	}
	return t
}()

// plainLine reports a paragraph line Markdown reads as words alone.
func plainLine(line string) bool {
	first, _ := utf8.DecodeRuneInString(line)
	if !unicode.IsLetter(first) && first != '"' && first != '(' {
		return false
	}
	if line[len(line)-1] == ' ' {
		return false // a trailing space, or two: a hard line break
	}
	for i := 0; i < len(line); i++ {
		if c := line[i]; c < utf8.RuneSelf && notPlain[c] {
			return false
		}
	}
	return true
}

// writeEscaped writes line with the two characters a plain line may hold
// that HTML needs escaped, as goldmark escapes them.
func writeEscaped(b *strings.Builder, line string) {
	for {
		i := strings.IndexAny(line, "\">")
		if i < 0 {
			b.WriteString(line)
			return
		}
		b.WriteString(line[:i])
		if line[i] == '"' {
			b.WriteString("&quot;")
		} else {
			b.WriteString("&gt;")
		}
		line = line[i+1:]
	}
}
