package questions

import (
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// parsePlainYAML builds the node tree yaml.v3 would build for the plain
// YAML that bank files are written in, in a fraction of its time (parsing
// was 40% of loading a bank): block mappings with simple keys, block
// sequences, one-line plain and quoted scalars and one-line flow sequences
// of plain scalars. It returns nil for anything else (comments, anchors,
// tags, block or multi-line scalars, tabs, flow mappings, document markers,
// any syntax error), and the caller parses that text with yaml.v3, so
// errors and unusual YAML are still yaml.v3's alone.
// TestPlainYAMLBuildsYAMLv3Trees holds it to yaml.v3's trees.
func parsePlainYAML(data []byte) *yaml.Node {
	if !plainYAMLBytes(data) {
		return nil
	}
	text := string(data)
	p := &plainParser{lines: strings.Split(text, "\n")}
	p.nodes = make([]yaml.Node, 0, 2*len(p.lines)+2) // most lines are a key and its value
	if !p.skipBlank() || indentOf(p.lines[p.i]) != 0 {
		return nil // empty, or indented at the top: yaml.v3 decides
	}
	doc := p.node(yaml.DocumentNode, "", "", p.i, 0)
	m := p.mapping(0, 0)
	if m == nil || p.skipBlank() {
		return nil
	}
	doc.Content = []*yaml.Node{m}
	return doc
}

// plainYAMLBytes reports that data is UTF-8 holding none of what the
// plain subset leaves to yaml.v3: tabs, carriage returns, a byte order
// mark, characters YAML refuses and the line breaks it knows beyond \n.
func plainYAMLBytes(data []byte) bool {
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size == 1, r <= 0x9f, r == 0x2028, r == 0x2029, r == 0xfeff, r >= 0xfffe && r <= 0xffff:
			return false
		}
		i += size
	}
	return true
}

type plainParser struct {
	lines []string
	i     int // the line being read
	nodes []yaml.Node
}

// node returns a new node at byte offset col of line i, taken from one
// block of nodes so that a file costs a few allocations, not one a node.
func (p *plainParser) node(kind yaml.Kind, tag, value string, line, col int) *yaml.Node {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]yaml.Node, 0, 32)
	}
	p.nodes = append(p.nodes, yaml.Node{Kind: kind, Tag: tag, Value: value,
		Line: line + 1, Column: utf8.RuneCountInString(p.lines[line][:col]) + 1})
	return &p.nodes[len(p.nodes)-1]
}

// skipBlank moves to the next line that is not blank and reports whether
// there is one.
func (p *plainParser) skipBlank() bool {
	for ; p.i < len(p.lines); p.i++ {
		if strings.TrimLeft(p.lines[p.i], " ") != "" {
			return true
		}
	}
	return false
}

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// isEntry reports a block sequence entry: "- " and its content.
func isEntry(s string) bool { return strings.HasPrefix(s, "- ") }

// mapping reads a block mapping whose keys are at byte offset indent, the
// first of them at offset col of the current line (after "- " when it is
// a sequence entry).
func (p *plainParser) mapping(indent, col int) *yaml.Node {
	m := p.node(yaml.MappingNode, "!!map", "", p.i, col)
	for {
		line := p.lines[p.i]
		key, after, ok := splitYAMLKey(line[col:])
		if !ok {
			return nil
		}
		k := p.node(yaml.ScalarNode, resolvedTag(key), key, p.i, col)
		v := p.value(indent, col+after)
		if v == nil {
			return nil
		}
		m.Content = append(m.Content, k, v)
		if !p.skipBlank() {
			return m
		}
		switch next := indentOf(p.lines[p.i]); {
		case next < indent:
			return m
		case next > indent || isEntry(p.lines[p.i][next:]):
			return nil
		}
		col = indent
	}
}

// value reads a mapping value that starts at byte offset col of the
// current line, or on the lines after it when the line ends there.
func (p *plainParser) value(indent, col int) *yaml.Node {
	line := p.lines[p.i]
	for col < len(line) && line[col] == ' ' {
		col++
	}
	if col < len(line) {
		return p.inline(col)
	}
	p.i++
	if !p.skipBlank() {
		return nil // a null value: yaml.v3 decides
	}
	next := indentOf(p.lines[p.i])
	switch rest := p.lines[p.i][next:]; {
	case isEntry(rest) && next >= indent:
		return p.sequence(next)
	case next > indent && !isEntry(rest):
		return p.mapping(next, next)
	}
	return nil
}

// sequence reads a block sequence whose dashes are at byte offset indent.
func (p *plainParser) sequence(indent int) *yaml.Node {
	s := p.node(yaml.SequenceNode, "!!seq", "", p.i, indent)
	for {
		col := indent + 2
		rest := p.lines[p.i][col:]
		var item *yaml.Node
		switch {
		case rest == "" || rest[0] == ' ' || rest[0] == '-':
			return nil // an empty or nested entry, or a scalar that starts with a dash
		case isKeyLine(rest):
			item = p.mapping(col, col)
		default:
			item = p.inline(col)
		}
		if item == nil {
			return nil
		}
		s.Content = append(s.Content, item)
		if !p.skipBlank() {
			return s
		}
		switch next := indentOf(p.lines[p.i]); {
		case next < indent || next == indent && !isEntry(p.lines[p.i][next:]):
			return s
		case next > indent:
			return nil
		}
	}
}

// inline reads the scalar or flow sequence that fills the current line
// from byte offset col, and moves to the next line.
func (p *plainParser) inline(col int) *yaml.Node {
	rest := strings.TrimRight(p.lines[p.i][col:], " ")
	var n *yaml.Node
	switch rest[0] {
	case '"', '\'':
		value, ok := unquote(rest)
		if !ok {
			return nil
		}
		n = p.node(yaml.ScalarNode, "!!str", value, p.i, col)
		n.Style = yaml.DoubleQuotedStyle
		if rest[0] == '\'' {
			n.Style = yaml.SingleQuotedStyle
		}
	case '[':
		n = p.flowSequence(rest, col)
	default:
		if !plainScalar(rest) {
			return nil
		}
		value := strings.Clone(rest) // the value outlives the file's text
		n = p.node(yaml.ScalarNode, resolvedTag(value), value, p.i, col)
	}
	p.i++
	return n
}

// flowSequence reads "[a, b, c]" of plain scalars, the whole of rest,
// which starts at byte offset col of the current line.
func (p *plainParser) flowSequence(rest string, col int) *yaml.Node {
	inner, ok := strings.CutSuffix(rest[1:], "]")
	if !ok || strings.ContainsAny(inner, "[]{}#:\"'") {
		return nil
	}
	s := p.node(yaml.SequenceNode, "!!seq", "", p.i, col)
	s.Style = yaml.FlowStyle
	if strings.TrimLeft(inner, " ") == "" {
		return s
	}
	at := col + 1
	for item := range strings.SplitSeq(inner, ",") {
		lead := len(item) - len(strings.TrimLeft(item, " "))
		value := strings.TrimSpace(item)
		if !plainScalar(value) {
			return nil
		}
		value = strings.Clone(value)
		s.Content = append(s.Content, p.node(yaml.ScalarNode, resolvedTag(value), value, p.i, at+lead))
		at += len(item) + 1
	}
	return s
}

// resolvedTag is the tag yaml.v3 gives a plain scalar.
func resolvedTag(value string) string {
	return (&yaml.Node{Kind: yaml.ScalarNode, Value: value}).ShortTag()
}

// splitYAMLKey splits "key: rest" or "key:" into the key and the offset of
// what follows the colon. Keys are ids: letters, digits, '-', '_', '.'.
func splitYAMLKey(s string) (key string, after int, ok bool) {
	i := 0
	for i < len(s) && isKeyByte(s[i]) {
		i++
	}
	if i == 0 || i > maxPlainKey || i == len(s) || s[i] != ':' || (i+1 < len(s) && s[i+1] != ' ') {
		return "", 0, false
	}
	if s[0] == '-' || s[0] == '.' { // "-x" and ".inf" are not plain ids
		return "", 0, false
	}
	return strings.Clone(s[:i]), i + 1, true // a key outlives the file's text, as values do
}

// maxPlainKey keeps keys far below the 1,024 characters YAML allows an
// implicit key.
const maxPlainKey = 128

func isKeyLine(s string) bool { _, _, ok := splitYAMLKey(s); return ok }

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

// plainScalar reports that s, already trimmed, is a one-line plain scalar
// yaml.v3 reads as it is: it starts with no indicator and holds no ": "
// (a mapping), " #" (a comment) and no trailing ':'.
func plainScalar(s string) bool {
	if s == "" || strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`", rune(s[0])) {
		return false
	}
	return !strings.Contains(s, ": ") && !strings.Contains(s, " #") && !strings.HasSuffix(s, ":") && s != "<<"
}

// unquote reads a one-line quoted scalar that is the whole of s. Double
// quotes know the escapes \" \\ \n and \t; anything else is left to
// yaml.v3.
func unquote(s string) (string, bool) {
	q := s[0]
	if len(s) > 1 && s[len(s)-1] == q && !strings.ContainsRune(s[1:len(s)-1], rune(q)) && (q == '\'' || !strings.Contains(s, `\`)) {
		return strings.Clone(s[1 : len(s)-1]), true // nothing to unescape
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == q:
			return b.String(), i == len(s)-1
		case c == '\\' && q == '"':
			if i+1 == len(s) {
				return "", false
			}
			i++
			switch s[i] {
			case '"', '\\':
				b.WriteByte(s[i])
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				return "", false
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", false // not closed on this line
}
