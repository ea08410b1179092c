package questions

import (
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// bankYAML returns the YAML of every file of the embedded bank and of
// goodBank: question.yaml and topic.yaml whole, the front matter of the
// Markdown files.
func bankYAML(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	add := func(fsys fs.FS, prefix string) {
		err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				return err
			}
			if path.Ext(name) == ".md" {
				var problems Problems
				md, ok := splitFrontMatter(&file{path: name, problems: &problems}, data)
				if !ok {
					return fmt.Errorf("%s: %s", name, problems.Error())
				}
				data = md.frontMatter
			}
			out[prefix+name] = data
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	src, _ := Embedded()
	add(src, "bank/")
	add(goodBank(), "good/")
	return out
}

// checkPlainYAML fails when parsePlainYAML builds a tree for data that is
// not the one yaml.v3 builds, and reports whether it built one.
func checkPlainYAML(t *testing.T, name string, data []byte) bool {
	t.Helper()
	got := parsePlainYAML(data)
	if got == nil {
		return false
	}
	var want yaml.Node
	if err := yaml.Unmarshal(data, &want); err != nil {
		t.Errorf("%s: the plain parser built a tree where yaml.v3 fails with %v:\n%s", name, err, data)
		return true
	}
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("%s: the plain parser's tree differs from yaml.v3's\ntext:\n%s\nplain:\n%s\nyaml.v3:\n%s", name, data, dumpNode(got, ""), dumpNode(&want, ""))
	}
	return true
}

func dumpNode(n *yaml.Node, indent string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%skind=%d tag=%q style=%d value=%q %d:%d head=%q line=%q foot=%q anchor=%q alias=%v\n",
		indent, n.Kind, n.Tag, n.Style, n.Value, n.Line, n.Column, n.HeadComment, n.LineComment, n.FootComment, n.Anchor, n.Alias != nil)
	for _, c := range n.Content {
		b.WriteString(dumpNode(c, indent+"  "))
	}
	return b.String()
}

// TestPlainYAMLBuildsYAMLv3Trees holds the plain parser to yaml.v3 on
// every file of the bank and on the constructs it must leave to yaml.v3,
// and checks that it does take the bank's files.
func TestPlainYAMLBuildsYAMLv3Trees(t *testing.T) {
	files := bankYAML(t)
	fast := 0
	for name, data := range files {
		if checkPlainYAML(t, name, data) {
			fast++
		} else {
			t.Logf("left to yaml.v3: %s", name)
		}
	}
	// Most bank files are plain YAML; if this falls, loading got slower.
	t.Logf("the plain parser took %d of %d bank files", fast, len(files))
	if fast < len(files)*9/10 {
		t.Errorf("the plain parser took only %d of %d bank files", fast, len(files))
	}
	for _, s := range plainYAMLCases {
		if !checkPlainYAML(t, fmt.Sprintf("%q", s), []byte(s)) {
			t.Errorf("%q: the plain parser left it to yaml.v3; it is in the subset", s)
		}
	}
}

// TestPlainYAMLLeavesTheRestToYAMLv3 lists texts the plain parser must
// refuse: yaml.v3 fails on them, or builds what the subset leaves out.
func TestPlainYAMLLeavesTheRestToYAMLv3(t *testing.T) {
	for _, s := range []string{
		"", "\n\n", "a: b # comment\n", "# head\na: b\n", "a: &x b\nc: *x\n", "a: !!str 1\n", "a: |\n  text\n",
		"a: >\n  text\n", "a: long\n  continued\n", "a:\n  b: c\n   d: e\n", "a:\tb\n", "a: b\r\n", "\ufeffa: b\n",
		"a: {b: c}\n", "a: [b, [c]]\n", "a: [b,, c]\n", "a: \"unclosed\n", "a: \"x\" trailing\n", "a: \"\\u00e9\"\n",
		"a:\n", "a: b\nc:\n", "---\na: b\n", "a: b\n...\n", "- a\n- b\n", "  a: b\n", "a: b: c\n", "a: b:\n",
		"a: [b\n", "\"a\": b\n", "a b: c\n", "a: - b\n", "a:\n  - - b\n", "a:\n  -\n    b\n", "a:\n  -  b\n",
		"a: b\n  - c\n", "a:\n- b\n - c\n", "a: b\nb\n", "a: \x85\n", "a: \u2028\n", "<<: b\n", "a: 'it''s\n",
		"ä: x\n", "a: ทดสอบ: ไทย\n", "a: -1\n", "b: ?x\n", "- a\n",
	} {
		if n := parsePlainYAML([]byte(s)); n != nil {
			t.Errorf("%q: the plain parser built a tree; it must leave this text to yaml.v3:\n%s", s, dumpNode(n, ""))
		}
	}
}

// plainYAMLCases are texts in the plain subset, each compared with
// yaml.v3's tree by TestPlainYAMLBuildsYAMLv3Trees and seeding the fuzzer.
var plainYAMLCases = []string{
	"a: b\n", "a: b", "a: 1\nb: true\nc: null\nd: ~\ne: 1.5\nf: 0x1f\ng: .inf\nh: 2026-12-01\n",
	"a:   spaced   \n", "a: [x, y ,z]\nb: []\nc: [ ]\nd: [1, true]\n", "a: ä [b, c]\n",
	"a: \"q \\\"x\\\" \\\\ \\n \\t #\"\nb: 'it''s # \\ x'\n", "a: \"\"\nb: ''\n",
	"k:\n  - x\n  - \"y\"\n  - 'z'\nl:\n- p\n- q\nm: n\n",
	"r:\n  c:\n    - id: a\n      role: b\n    - id: c\n      w: 3\n  m:\n    - id: d\nv: 2\n",
	"s:\n  - title: T\n    url: https://x.org/a:b?c=d#e\n  - lesson: x\n    items:\n    - 1\n    - 2\n  - t\n",
	"a: b\n\n\n   \nc:\n\n  d: e\n\n", "a: b:c\nc: C# and F#\nd: x - y\ne: \"a: b\"\n",
	"2.2.1: Objective\nx_y: z\n", "a: Tiếng Việt — “quoted” «x»\n",
	"a:\n  b:\n    c:\n      d: e\n  f: g\n", "a: [x]\nb: [ x , y ]\n", "a: yes\nb: No\nc: on\n",
}

// FuzzPlainYAML: whatever the text, the plain parser builds yaml.v3's tree
// or none. `go test -fuzz FuzzPlainYAML ./questions` searches further.
func FuzzPlainYAML(f *testing.F) {
	for _, data := range bankYAML(f) {
		f.Add(data)
	}
	for _, s := range plainYAMLCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkPlainYAML(t, "fuzzed", data)
	})
}

// TestFrontMatterIsTheLinesBetweenTheMarkers checks the front matter that
// splitFrontMatter slices out of a file against the lines it stands for.
func TestFrontMatterIsTheLinesBetweenTheMarkers(t *testing.T) {
	for _, s := range []string{
		"---\n---\nbody\n", "---\na: b\n---\n", "---\na: b\nc: d\n---\nbody\n", "--- \na: b\n ---\nbody",
		"\ufeff---\na: b\n---\nbody\n", "---\r\na: b\r\nc: d\r\n---\r\nbody\r\n", "---\n\n\n---\n",
	} {
		var problems Problems
		md, ok := splitFrontMatter(&file{path: "x.md", problems: &problems}, []byte(s))
		if !ok {
			t.Fatalf("%q: %s", s, problems.Error())
		}
		lines := strings.Split(strings.ReplaceAll(strings.TrimPrefix(s, "\ufeff"), "\r\n", "\n"), "\n")
		var want []string
		for _, ln := range lines[1:] {
			if strings.TrimSpace(ln) == "---" {
				break
			}
			want = append(want, ln)
		}
		if got := string(md.frontMatter); got != strings.Join(want, "\n") {
			t.Errorf("%q: front matter %q, want %q", s, got, strings.Join(want, "\n"))
		}
	}
}
