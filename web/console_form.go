package web

import (
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// schemaField is one argument of a tool as the console's form shows it,
// read from the tool's inputSchema (what any MCP client sees in tools/list).
type schemaField struct {
	Name, Type, Description string
	Required                bool
	Value                   string // as the learner typed it, or from the raw JSON
}

// inputType is the HTML input type for the field's JSON type.
func (f schemaField) inputType() string {
	if f.Type == "number" || f.Type == "integer" {
		return "number"
	}
	return "text"
}

// schemaFields lists a tool's arguments, required ones first in the
// schema's order, then the optional ones by name; values come from args,
// the raw JSON, where it holds them.
func schemaFields(schema json.RawMessage, args string) []schemaField {
	var s struct {
		Properties map[string]struct {
			Type        string `json:"type"`
			Description string `json:"description"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	var values map[string]any
	_ = json.Unmarshal([]byte(args), &values) // the raw JSON may be anything: then the fields start empty
	names := append([]string(nil), s.Required...)
	var optional []string
	for n := range s.Properties {
		if !slices.Contains(s.Required, n) {
			optional = append(optional, n)
		}
	}
	sort.Strings(optional)
	var out []schemaField
	for _, n := range append(names, optional...) {
		p, ok := s.Properties[n]
		if !ok {
			continue
		}
		f := schemaField{Name: n, Type: p.Type, Description: p.Description, Required: slices.Contains(s.Required, n)}
		switch v := values[n].(type) {
		case string:
			f.Value = v
		case float64:
			f.Value = strconv.FormatFloat(v, 'f', -1, 64)
		case nil:
		default:
			b, _ := json.Marshal(v)
			f.Value = string(b)
		}
		out = append(out, f)
	}
	return out
}

// formArguments builds the arguments JSON from the form's fields: an empty
// field is left out; a number field holding something else is sent as the
// text it holds, so the tool answers with its own validation error.
func formArguments(fields []schemaField, value func(string) string) string {
	args := map[string]any{}
	for _, f := range fields {
		v := strings.TrimSpace(value("arg." + f.Name))
		if v == "" {
			continue
		}
		if f.inputType() == "number" {
			if n, err := strconv.ParseFloat(v, 64); err == nil {
				args[f.Name] = n
				continue
			}
		}
		args[f.Name] = v
	}
	b, _ := json.MarshalIndent(args, "", "  ")
	return string(b)
}

// rpcMethods are the methods the raw JSON-RPC panel suggests: the client
// requests the sandbox's MCP server answers.
var rpcMethods = []string{"tools/list", "tools/call", "ping", "resources/list", "resources/read",
	"resources/templates/list", "prompts/list", "logging/setLevel", "completion/complete"}
