package questions

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// file collects the problems of one bank file.
type file struct {
	path     string
	problems *Problems
}

func (f *file) addf(line int, format string, args ...any) {
	*f.problems = append(*f.problems, Problem{Path: f.path, Line: line, Msg: sprintf(format, args...)})
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
		f.addf(1, "the file must start with a --- line that opens the front matter")
		return nil, false
	}
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "---" {
			return &markdownFile{
				frontMatter: []byte(strings.Join(lines[1:i], "\n")),
				fmLine:      2,
				body:        lines[i+1:],
				bodyLine:    i + 2,
			}, true
		}
	}
	f.addf(1, "the front matter opened on line 1 is never closed: add a --- line after it")
	return nil, false
}

var yamlLine = regexp.MustCompile(`line (\d+): (.*)`)

// decodeYAML decodes strictly into v, reporting unknown fields and type
// errors at their lines, and returns the node tree for line look-ups.
func decodeYAML(f *file, data []byte, firstLine int, v any) (*yaml.Node, bool) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		reportYAMLError(f, err, firstLine)
		return nil, false
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) { // io.EOF: empty front matter
		reportYAMLError(f, err, firstLine)
		return nil, false
	}
	return &root, true
}

func reportYAMLError(f *file, err error, firstLine int) {
	found := false
	for _, m := range yamlLine.FindAllStringSubmatch(err.Error(), -1) {
		n, _ := strconv.Atoi(m[1])
		f.addf(firstLine+n-1, "%s", strings.TrimSpace(m[2]))
		found = true
	}
	if !found {
		f.addf(firstLine, "%s", strings.TrimPrefix(err.Error(), "yaml: "))
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
