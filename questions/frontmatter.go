package questions

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/examsim/examsim"
	"go.yaml.in/yaml/v3"
)

// file collects the problems of one bank file.
type file struct {
	path     string
	problems *Problems
}

// add records a problem at line: message key (check.* in i18n/locales)
// with its data as alternating names and values.
func (f *file) add(line int, key string, kv ...any) {
	*f.problems = append(*f.problems, NewProblem(f.path, line, key, kv...))
}

// addMsg records a problem at line saying m.
func (f *file) addMsg(line int, m Message) { f.add(line, m.Key, m.KV()...) }

// addErr records err at line: a checked error (*examsim.Error, such as a
// pattern's) says its own message; any other is shown as it is.
func (f *file) addErr(line int, err error) {
	var e *examsim.Error
	if errors.As(err, &e) {
		f.addMsg(line, Message{Key: e.MessageID, Args: e.Args})
		return
	}
	f.add(line, "check.error", "Err", err.Error())
}

// warn records a warning about the file in warnings.
func (f *file) warn(warnings *Problems, line int, key string, kv ...any) {
	*warnings = append(*warnings, NewProblem(f.path, line, key, kv...))
}

// markdownFile is a Markdown file split into its YAML front matter and body.
type markdownFile struct {
	frontMatter []byte
	fmLine      int // the line the front matter's first line is on
	body        []string
	bodyLine    int // the line body[0] is on
}

// splitFrontMatter splits a file that opens with a `---` line and a YAML
// block closed by another `---` line.
func splitFrontMatter(f *file, data []byte) (*markdownFile, bool) {
	text := strings.ReplaceAll(string(bytes.TrimPrefix(data, []byte("\ufeff"))), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		f.add(1, "check.front_matter_start")
		return nil, false
	}
	end := len(lines[0]) + 1 // the byte after line i-1
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "---" {
			start := len(lines[0]) + 1
			return &markdownFile{
				frontMatter: frontMatterBytes(data, text, start, max(start, end-1)), // lines 1 to i-1
				fmLine:      2,
				body:        lines[i+1:],
				bodyLine:    i + 2,
			}, true
		}
		end += len(lines[i]) + 1
	}
	f.add(1, "check.front_matter_open")
	return nil, false
}

// frontMatterBytes returns text[start:stop] as bytes: the same bytes of
// data when text is data unchanged (no byte order mark or \r\n), which
// spares two copies of every file's front matter.
func frontMatterBytes(data []byte, text string, start, stop int) []byte {
	if len(text) == len(data) {
		return data[start:stop:stop]
	}
	return []byte(text[start:stop])
}

var yamlLine = regexp.MustCompile(`line (\d+): (.*)`)

// decodeYAML decodes strictly into v, reporting unknown fields and type
// errors at their lines, and returns the node tree for line look-ups. The
// text is parsed once: v is decoded from the node tree, and unknown fields
// are found by walking it.
func decodeYAML(f *file, data []byte, firstLine int, v any) (*yaml.Node, bool) {
	root := &yaml.Node{}
	if err := yaml.Unmarshal(data, root); err != nil {
		reportYAMLSyntax(f, data, firstLine, err)
		return nil, false
	}
	if root.Kind == 0 { // empty front matter
		return root, true
	}
	unknown := unknownFields(root, reflect.TypeOf(v), nil)
	err := root.Decode(v)
	var typeErr *yaml.TypeError
	switch {
	case errors.As(err, &typeErr):
		unknown = append(unknown, typeErr.Errors...)
	case err != nil:
		reportYAMLError(f, err, firstLine)
		return nil, false
	}
	if len(unknown) > 0 {
		reportYAMLError(f, &yaml.TypeError{Errors: unknown}, firstLine)
		return nil, false
	}
	return root, true
}

// unknownFields lists the mapping keys under n that type t has no field for,
// worded as the YAML decoder's KnownFields check words them. It covers the
// plain structs, maps, slices and pointers the bank's formats use, and does
// not follow aliases (the decoder itself limits those).
func unknownFields(n *yaml.Node, t reflect.Type, out []string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.DocumentNode {
		for _, c := range n.Content {
			out = unknownFields(c, t, out)
		}
		return out
	}
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		fields := yamlFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i]
			if key.Kind != yaml.ScalarNode || key.Value == "<<" {
				continue
			}
			ft, ok := fields[key.Value]
			if !ok {
				out = append(out, fmt.Sprintf("line %d: field %s not found in type %s", key.Line, key.Value, t))
				continue
			}
			out = unknownFields(n.Content[i+1], ft, out)
		}
	case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			out = unknownFields(n.Content[i], t.Elem(), out)
		}
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && n.Kind == yaml.SequenceNode:
		for _, c := range n.Content {
			out = unknownFields(c, t.Elem(), out)
		}
	}
	return out
}

var yamlFieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// yamlFields maps a struct's YAML keys to their field types, named as the
// YAML decoder names them: the yaml tag, else the lower-cased field name.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := yamlFieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("yaml"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = strings.ToLower(sf.Name)
		}
		m[name] = sf.Type
	}
	yamlFieldCache.Store(t, m)
	return m
}

// yamlParserProblems are the YAML parser's (not scanner's) messages. The
// parser names the line a construct began on counted from 0, the scanner
// counts from 1, and both fall back to another mark when the construct is on
// the first line; see reportYAMLSyntax.
var yamlParserProblems = map[string]bool{
	"did not find expected ',' or ']'": true, "did not find expected ',' or '}'": true,
	"did not find expected '-' indicator": true, "did not find expected <document start>": true,
	"did not find expected <stream-start>": true, "did not find expected key": true,
	"did not find expected node content": true, "found duplicate %TAG directive": true,
	"found duplicate %YAML directive": true, "found incompatible YAML document": true,
	"found undefined tag handle": true,
}

// reportYAMLSyntax reports a syntax error on the line it is on. The decoder
// numbers lines inconsistently (a parser error on line 3 says "line 2", one
// in a construct opened on line 1 names another line), so the text is parsed
// again one line down, where every construct is past line 0, and the count
// is corrected by kind. Where the construct began before the error (a
// mapping indented wrongly later), the first prefix of the text that fails
// the same way names the line.
func reportYAMLSyntax(f *file, data []byte, firstLine int, err error) {
	shifted := yaml.Unmarshal(append([]byte("\n"), data...), &yaml.Node{})
	if shifted == nil {
		reportYAMLError(f, err, firstLine)
		return
	}
	m := yamlLine.FindStringSubmatch(shifted.Error())
	if m == nil {
		reportYAMLError(f, err, firstLine)
		return
	}
	line, _ := strconv.Atoi(m[1])
	msg := strings.TrimSpace(m[2])
	if !yamlParserProblems[msg] {
		line-- // the scanner counted the added line from 1
	} else {
		lines := bytes.Split(data, []byte("\n"))
		for k := max(line, 1); k <= len(lines); k++ {
			prefix := bytes.Join(lines[:k], []byte("\n"))
			if e := yaml.Unmarshal(prefix, &yaml.Node{}); e != nil && strings.HasSuffix(e.Error(), msg) {
				line = k
				break
			}
		}
	}
	f.add(firstLine+max(line, 1)-1, "check.yaml", "Detail", msg)
}

func reportYAMLError(f *file, err error, firstLine int) {
	found := false
	for _, m := range yamlLine.FindAllStringSubmatch(err.Error(), -1) {
		n, _ := strconv.Atoi(m[1])
		f.add(firstLine+n-1, "check.yaml", "Detail", strings.TrimSpace(m[2]))
		found = true
	}
	if !found {
		f.add(firstLine, "check.yaml", "Detail", strings.TrimPrefix(err.Error(), "yaml: "))
	}
}

// lookup follows keys down a YAML mapping and returns the value node, or nil.
func lookup(n *yaml.Node, keys ...string) *yaml.Node {
	_, v := lookupPair(n, keys...)
	return v
}

// lookupPair returns the key and value nodes at the end of keys.
func lookupPair(n *yaml.Node, keys ...string) (key, value *yaml.Node) {
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, k := range keys {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil, nil
		}
		key, value = nil, nil
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				key, value = n.Content[i], n.Content[i+1]
				break
			}
		}
		n = value
	}
	return key, value
}

// lineOf returns the line of the key at the end of keys, counted in the
// whole file, or fallback when it is absent.
func lineOf(root *yaml.Node, firstLine, fallback int, keys ...string) int {
	if k, _ := lookupPair(root, keys...); k != nil {
		return firstLine + k.Line - 1
	}
	return fallback
}
