package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/examsim/examsim"
)

// A tool's arguments are declared once, as a list of argSpec: decodeArgs
// checks calls against it and inputSchema derives the listed inputSchema
// from it, so what clients are told and what the sandbox accepts cannot
// drift apart.

type argKind int

const (
	stringArg argKind = iota
	numberArg
	integerArg
)

func (k argKind) String() string {
	switch k {
	case numberArg:
		return "a number"
	case integerArg:
		return "a whole number"
	}
	return "a string"
}

// jsonType is the kind's JSON Schema type.
func (k argKind) jsonType() string {
	switch k {
	case numberArg:
		return "number"
	case integerArg:
		return "integer"
	}
	return "string"
}

type argSpec struct {
	name        string
	kind        argKind
	required    bool
	example     string // JSON, shown in error messages and the console
	description string // the property's description in inputSchema
	// bounds are advertised in inputSchema only: the handler checks them,
	// with a message that says what to ask for instead.
	minimum, maximum *float64
}

func bound(f float64) *float64 { return &f }

// inputSchema is a tool's inputSchema: the declared properties, the required
// ones, and nothing else. Keys come out sorted, as encoding/json writes maps.
func inputSchema(specs []argSpec) json.RawMessage {
	properties := map[string]any{}
	required := []string{}
	for _, s := range specs {
		p := map[string]any{"type": s.kind.jsonType(), "description": s.description}
		if s.minimum != nil {
			p["minimum"] = *s.minimum
		}
		if s.maximum != nil {
			p["maximum"] = *s.maximum
		}
		properties[s.name] = p
		if s.required {
			required = append(required, s.name)
		}
	}
	b, _ := json.Marshal(map[string]any{ // strings, numbers and maps of them always marshal
		"type": "object", "properties": properties, "required": required, "additionalProperties": false})
	return b
}

// args are a call's decoded arguments.
type args map[string]any

func (a args) str(name string) string {
	s, _ := a[name].(string)
	return s
}

func (a args) num(name string) (float64, bool) {
	f, ok := a[name].(float64)
	return f, ok
}

// decodeArgs checks a call's raw arguments against the tool's argument list.
// Because tools use raw handlers, nothing has checked them before: a wrong
// type, a missing argument or an extra one becomes a validation error in the
// same envelope as every other failure, never the SDK's own text.
func decodeArgs(tool string, raw json.RawMessage, specs []argSpec) (args, *toolError) {
	attempted := tool + "(" + compactJSON(raw) + ")"
	invalid := func(summary, format string, a ...any) *toolError {
		return failure(examsim.Validation, summary, fmt.Sprintf(format, a...), attempted)
	}
	if terr := tooDeep(tool, "arguments", raw, specs); terr != nil {
		return nil, terr
	}
	var fields map[string]json.RawMessage
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		fields = map[string]json.RawMessage{}
	} else if err := json.Unmarshal(trimmed, &fields); err != nil || fields == nil {
		return nil, invalid("Arguments are not an object",
			"The arguments of %s must be a JSON object such as %s. Send them as an object and call again.", tool, exampleArgs(specs))
	}
	var extra []string
	for name := range fields {
		if !slices.ContainsFunc(specs, func(s argSpec) bool { return s.name == name }) {
			extra = append(extra, name)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		return nil, invalid("Unexpected argument "+quoteList(extra),
			"%s takes only %s; it does not accept %s. Remove %s and call again.",
			tool, nameList(specs), quoteList(extra), pluralIt(len(extra)))
	}
	out := args{}
	for _, s := range specs {
		v, ok := fields[s.name]
		if !ok || string(bytes.TrimSpace(v)) == "null" {
			if s.required {
				return nil, invalid("Missing argument "+s.name,
					"%s needs %s (%s, for example %s). Add it and call again.", tool, s.name, s.kind, s.example)
			}
			continue
		}
		switch s.kind {
		case stringArg:
			var str string
			if json.Unmarshal(v, &str) != nil {
				return nil, invalid("Wrong type for "+s.name,
					"%s must be a string, for example %s; received %s. Send it as a string and call again.", s.name, s.example, compactJSON(v))
			}
			out[s.name] = str
		case numberArg, integerArg:
			var f float64
			if json.Unmarshal(v, &f) != nil || math.IsInf(f, 0) {
				return nil, invalid("Wrong type for "+s.name,
					"%s must be %s, for example %s; received %s. Send a JSON number and call again.", s.name, s.kind, s.example, compactJSON(v))
			}
			if s.kind == integerArg && f != math.Trunc(f) {
				return nil, invalid("Wrong type for "+s.name,
					"%s must be a whole number, for example %s; received %s. Send a whole number and call again.", s.name, s.example, compactJSON(v))
			}
			out[s.name] = f
		}
	}
	return out, nil
}

// MaxArgumentDepth bounds how deep a call's arguments and _meta may nest.
// No tool takes a nested argument, and the MCP SDK closes the whole
// session on a message nested 1,000 deep, so deeper input is a validation
// error long before that.
const MaxArgumentDepth = 32

// tooDeep is the validation error for arguments (or _meta: what) nested
// deeper than MaxArgumentDepth, nil for any others.
func tooDeep(tool, what string, raw json.RawMessage, specs []argSpec) *toolError {
	depth := jsonDepth(raw)
	if depth <= MaxArgumentDepth {
		return nil
	}
	return failure(examsim.Validation, "Arguments nested too deep",
		fmt.Sprintf("The %s of %s nest %d levels deep; at most %d are accepted, and none of its arguments is nested. Send a flat object such as %s and call again.",
			what, tool, depth, MaxArgumentDepth, exampleArgs(specs)),
		tool+"("+truncate(compactJSON(raw), 200)+")")
}

// jsonDepth is how deeply raw nests objects and arrays, brackets inside
// strings aside. It needs no valid JSON: it bounds before anything parses.
func jsonDepth(raw []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, b := range raw {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case b == '"':
			inString = !inString
		case inString:
		case b == '{' || b == '[':
			depth++
			deepest = max(deepest, depth)
		case b == '}' || b == ']':
			depth--
		}
	}
	return deepest
}

// truncate shortens s to at most n bytes, on a character boundary, with
// an ellipsis when it cut anything.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return strings.TrimSpace(string(raw))
	}
	if b.Len() == 0 {
		return "{}"
	}
	return b.String()
}

func exampleArgs(specs []argSpec) string {
	parts := make([]string, 0, len(specs))
	for _, s := range specs {
		parts = append(parts, fmt.Sprintf("%q: %s", s.name, s.example)) // examples are JSON already
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func nameList(specs []argSpec) string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.name
	}
	return strings.Join(names, " and ")
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

func pluralIt(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
