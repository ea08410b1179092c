package exchange

import (
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

var htmlTag = regexp.MustCompile(`</?[a-zA-Z][a-zA-Z0-9]*(\s[^<>]*)?/?>`)

func looksLikeHTML(s string) bool { return htmlTag.MatchString(s) }

// fromHTML turns the HTML Moodle writes into the bank's Markdown: paragraphs,
// line breaks, emphasis, code, lists and http(s) links survive as Markdown;
// every other element is reduced to its text, and scripts, styles and
// images are dropped (an image with a note, so the teacher can describe it).
// No HTML survives: the bank's renderer would drop it anyway.
func (b *builder) fromHTML(src, field string) string {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return strings.TrimSpace(htmlTag.ReplaceAllString(src, ""))
	}
	w := &mdWriter{}
	w.walk(doc)
	if w.images > 0 {
		b.dropped = append(b.dropped, note("image", "Field", field))
	}
	return tidy(w.b.String())
}

type mdWriter struct {
	b      strings.Builder
	images int
	inPre  bool
	list   []int // per open list: 0 for bullets, else the next number
}

func (w *mdWriter) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		if w.inPre {
			w.put(n.Data)
			return
		}
		t := strings.Join(strings.Fields(n.Data), " ")
		if n.Data != "" && strings.TrimLeft(n.Data[:1], " \t\n\r") == "" && !w.atSpace() {
			w.put(" ")
		}
		if t != "" {
			w.put(t + edgeSpace(n.Data))
		}
		return
	case html.ElementNode:
	default:
		w.children(n)
		return
	}
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Head, atom.Title:
		return
	case atom.Img:
		w.images++
		return
	case atom.Br:
		w.put("\n")
	case atom.P, atom.Div, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Blockquote, atom.Table, atom.Tr:
		w.put("\n\n")
		w.children(n)
		w.put("\n\n")
	case atom.Strong, atom.B:
		w.wrap(n, "**")
	case atom.Em, atom.I:
		w.wrap(n, "*")
	case atom.Code, atom.Tt, atom.Kbd:
		if w.inPre {
			w.children(n)
		} else {
			w.wrap(n, "`")
		}
	case atom.Pre:
		w.put("\n\n```\n")
		w.inPre = true
		w.children(n)
		w.inPre = false
		w.put("\n```\n\n")
	case atom.Ul, atom.Ol:
		start := 0
		if n.DataAtom == atom.Ol {
			start = 1
		}
		w.list = append(w.list, start)
		w.put("\n\n")
		w.children(n)
		w.list = w.list[:len(w.list)-1]
		w.put("\n\n")
	case atom.Li:
		w.put("\n")
		if k := len(w.list) - 1; k >= 0 && w.list[k] > 0 {
			w.put(strings.Repeat("   ", k) + strconv.Itoa(w.list[k]) + ". ")
			w.list[k]++
		} else {
			w.put(strings.Repeat("  ", max(k, 0)) + "- ")
		}
		w.children(n)
	case atom.A:
		href := attr(n, "href")
		if strings.HasPrefix(href, "https://") || strings.HasPrefix(href, "http://") {
			w.put("[")
			w.children(n)
			w.put("](" + strings.ReplaceAll(href, ")", "%29") + ")")
		} else {
			w.children(n)
		}
	default:
		w.children(n)
	}
}

// put appends s; a strings.Builder never fails to write.
func (w *mdWriter) put(s string) { w.b.WriteString(s) }

// atSpace says whether the output so far ends a word: nothing yet, or white space.
func (w *mdWriter) atSpace() bool {
	s := w.b.String()
	return s == "" || strings.ContainsAny(s[len(s)-1:], " \n")
}

func (w *mdWriter) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c)
	}
}

func (w *mdWriter) wrap(n *html.Node, mark string) {
	var inner mdWriter
	inner.inPre = w.inPre
	inner.children(n)
	w.images += inner.images
	if t := strings.TrimSpace(inner.b.String()); t != "" {
		w.put(mark + t + mark)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// edgeSpace keeps one space after a text that ended with white space.
func edgeSpace(s string) string {
	if strings.TrimSpace(s) != "" && strings.TrimRight(s, " \t\n\r") != s {
		return " "
	}
	return ""
}

var manyBlank = regexp.MustCompile(`\n[ \t]*\n(?:[ \t]*\n)+`)

// tidy trims each line's trailing spaces and keeps at most one blank line.
func tidy(s string) string {
	lines := strings.Split(s, "\n")
	for i, ln := range lines {
		lines[i] = strings.TrimRight(ln, " \t")
	}
	return strings.TrimSpace(manyBlank.ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
}
