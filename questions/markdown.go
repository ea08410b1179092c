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
// words and `code`, as goldmark renders them, at a fraction of the cost:
// most option texts and explanations are such text, and rendering was a
// fifth of loading a bank. It refuses (ok false) anything Markdown could
// read as more: a line that starts with other than a letter, a quote, "(" or a
// code span, or is indented, or ends in a space; outside code, any
// character that opens inline syntax, an entity or markup; a code span
// that is not one backtick each side of text on one line, or that starts
// or ends with a space. TestPlainParagraphsRenderAsGoldmark holds it to
// goldmark.
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
		if !plainLineStart(line) {
			return "", false
		}
		if open {
			b.WriteByte('\n')
		} else {
			b.WriteString("<p>")
			open = true
		}
		if !writePlainLine(&b, line) {
			return "", false
		}
	}
	if open {
		b.WriteString("</p>\n")
	}
	if b.Cap() > b.Len()+b.Len()/8 {
		return strings.Clone(b.String()), true // the text outlives the load: no slack
	}
	return b.String(), true
}

// notPlain marks the ASCII characters plain words may not hold: controls,
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

// plainLineStart reports a paragraph line that starts as words do and does
// not end in a space (one is dropped, two make a hard line break).
func plainLineStart(line string) bool {
	first, _ := utf8.DecodeRuneInString(line)
	return (unicode.IsLetter(first) || first == '"' || first == '(' || first == '`') && line[len(line)-1] != ' '
}

// writePlainLine writes a line of words and code spans, escaped as goldmark
// escapes them, and reports false for anything else in it.
func writePlainLine(b *strings.Builder, line string) bool {
	if strings.Contains(line, "``") {
		return false // a run of backticks: only single ones are plain
	}
	for inCode := false; ; inCode = !inCode {
		part, rest, tick := strings.Cut(line, "`")
		switch {
		case !inCode && !plainWords(part):
			return false
		case !inCode:
			writeEscaped(b, part, "\">")
		case !tick || !plainCode(part):
			return false // an unclosed backtick, or code that needs more rules
		default:
			b.WriteString("<code>")
			writeEscaped(b, part, "\"&<>")
			b.WriteString("</code>")
		}
		if !tick {
			return true
		}
		line = rest
	}
}

func plainWords(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf && notPlain[c] {
			return false
		}
	}
	return true
}

// plainCode reports code span text goldmark writes as it is, escaped: not
// empty, no space at either end (one each side is dropped), no controls.
func plainCode(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// writeEscaped writes s with the characters of special escaped, as goldmark
// escapes them.
func writeEscaped(b *strings.Builder, s, special string) {
	for {
		i := strings.IndexAny(s, special)
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		switch s[i] {
		case '"':
			b.WriteString("&quot;")
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		default:
			b.WriteString("&gt;")
		}
		s = s[i+1:]
	}
}
