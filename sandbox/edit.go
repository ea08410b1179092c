package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxEditBytes bounds an edited result.
const MaxEditBytes = 16 << 10

// EditError says what is wrong with an edited result and where: Message is
// an i18n message id with Args; Line and Column (from 1) point at the
// problem.
type EditError struct {
	Message string
	Args    map[string]any
	Line    int
	Column  int
}

func (e *EditError) Error() string { return e.Message }

// ParseEditedResult reads a tool result the learner edited. It accepts a
// CallToolResult object with a boolean isError; anything else — invalid
// JSON, another kind of value, a missing or mistyped isError, a malformed
// content or envelope field — comes back as an *EditError pointing at the
// problem. It never panics, whatever the input.
func ParseEditedResult(text string) (*mcp.CallToolResult, *EditError) {
	src := []byte(text)
	if len(src) > MaxEditBytes {
		return nil, &EditError{Message: "sandbox.edit.too_large", Args: map[string]any{"Max": MaxEditBytes / 1024}, Line: 1, Column: 1}
	}
	if !utf8.Valid(src) {
		return nil, &EditError{Message: "sandbox.edit.not_utf8", Line: 1, Column: 1}
	}
	start := firstNonSpace(src)
	if start == len(src) {
		return nil, &EditError{Message: "sandbox.edit.empty", Line: 1, Column: 1}
	}
	if err := syntaxCheck(src); err != nil {
		return nil, err
	}
	if src[start] != '{' {
		return nil, at(src, start, "sandbox.edit.not_object")
	}
	keys := topLevelKeys(src)
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(src, &fields); err != nil {
		return nil, at(src, start, "sandbox.edit.not_object")
	}
	if _, ok := fields["jsonrpc"]; ok {
		if _, ok := fields["result"]; ok {
			return nil, at(src, keys["result"], "sandbox.edit.whole_response")
		}
	}
	isErr, ok := fields["isError"]
	if !ok {
		return nil, at(src, start, "sandbox.edit.no_is_error")
	}
	if v := strings.TrimSpace(string(isErr)); v != "true" && v != "false" {
		return nil, at(src, valueOffset(src, keys["isError"]), "sandbox.edit.is_error_type", "Value", excerpt(v, 30))
	}
	if c, ok := fields["content"]; ok {
		var blocks []map[string]any
		if json.Unmarshal(c, &blocks) != nil {
			return nil, at(src, valueOffset(src, keys["content"]), "sandbox.edit.content_type")
		}
		for _, b := range blocks {
			if t, _ := b["type"].(string); t != "text" {
				return nil, at(src, valueOffset(src, keys["content"]), "sandbox.edit.content_type")
			}
			if _, ok := b["text"].(string); !ok {
				return nil, at(src, valueOffset(src, keys["content"]), "sandbox.edit.content_type")
			}
		}
	}
	if sc, ok := fields["structuredContent"]; ok {
		var env map[string]json.RawMessage
		if json.Unmarshal(sc, &env) != nil || env == nil {
			return nil, at(src, valueOffset(src, keys["structuredContent"]), "sandbox.edit.structured_type")
		}
		scStart := valueOffset(src, keys["structuredContent"])
		if v, ok := env["isRetryable"]; ok {
			if s := strings.TrimSpace(string(v)); s != "true" && s != "false" {
				return nil, at(src, scStart+nestedKeyOffset(src[scStart:], "isRetryable"), "sandbox.edit.retryable_type", "Value", excerpt(s, 30))
			}
		}
		if v, ok := env["errorCategory"]; ok {
			var s string
			if json.Unmarshal(v, &s) != nil {
				return nil, at(src, scStart+nestedKeyOffset(src[scStart:], "errorCategory"), "sandbox.edit.category_type")
			}
		}
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(src, &res); err != nil {
		return nil, at(src, start, "sandbox.edit.not_result")
	}
	if res.Content == nil {
		res.Content = []mcp.Content{}
	}
	return &res, nil
}

// syntaxCheck reports the first syntax error with its position, and
// trailing data after the value.
func syntaxCheck(src []byte) *EditError {
	dec := json.NewDecoder(bytes.NewReader(src))
	var v any
	if err := dec.Decode(&v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off := int(se.Offset) - 1
			return at(src, max(off, 0), "sandbox.edit.syntax")
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return at(src, len(src), "sandbox.edit.truncated")
		}
		return at(src, 0, "sandbox.edit.syntax")
	}
	if rest := firstNonSpace(src[dec.InputOffset():]); int(dec.InputOffset())+rest < len(src) {
		return at(src, int(dec.InputOffset())+rest, "sandbox.edit.trailing")
	}
	return nil
}

// topLevelKeys returns the byte offset of each key of the top-level object.
func topLevelKeys(src []byte) map[string]int {
	out := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(src))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return out
	}
	for dec.More() {
		before := int(dec.InputOffset())
		t, err := dec.Token()
		if err != nil {
			return out
		}
		key, _ := t.(string)
		out[key] = before + firstNonSpace(src[before:])
		if firstNonSpace(src[before:]) < len(src[before:]) && src[out[key]] == ',' {
			out[key] += 1 + firstNonSpace(src[out[key]+1:])
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return out
		}
	}
	return out
}

// nestedKeyOffset finds a key of the object at the start of src.
func nestedKeyOffset(src []byte, key string) int {
	if off, ok := topLevelKeys(src)[key]; ok {
		return off
	}
	return 0
}

// valueOffset returns where the value after the key at off begins.
func valueOffset(src []byte, off int) int {
	i := off
	if i >= len(src) {
		return len(src)
	}
	// Skip the key string, then the colon.
	if src[i] == '"' {
		i++
		for i < len(src) && src[i] != '"' {
			if src[i] == '\\' {
				i++
			}
			i++
		}
		i++
	}
	for i < len(src) && (src[i] == ':' || isSpace(src[i])) {
		i++
	}
	return min(i, len(src))
}

func firstNonSpace(b []byte) int {
	for i, c := range b {
		if !isSpace(c) {
			return i
		}
	}
	return len(b)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// at builds an EditError at a byte offset, as a line and a column counted
// in characters, from 1.
func at(src []byte, off int, id string, kv ...any) *EditError {
	off = min(max(off, 0), len(src))
	line, col := 1, 1
	for _, r := range string(src[:off]) {
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	e := &EditError{Message: id, Line: line, Column: col, Args: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		e.Args[kv[i].(string)] = kv[i+1]
	}
	return e
}

// CheckEditedResult is ParseEditedResult for a result of tool: the result
// must also hold to the tool's outputSchema, as a strict client (the
// TypeScript SDK, the Inspector) checks it, so the learner cannot replay on
// an errorCategory no client would ever let through.
func (sb *Sandbox) CheckEditedResult(tool, text string) (*mcp.CallToolResult, *EditError) {
	res, perr := ParseEditedResult(text)
	if perr != nil {
		return nil, perr
	}
	schema := sb.outputs[tool]
	if schema == nil {
		return res, nil
	}
	src := []byte(text)
	keys := topLevelKeys(src)
	if res.StructuredContent == nil {
		if !res.IsError {
			return nil, at(src, firstNonSpace(src), "sandbox.edit.structured_missing", "Tool", tool)
		}
		return res, nil
	}
	scStart := valueOffset(src, keys["structuredContent"])
	if env, ok := res.StructuredContent.(map[string]any); ok {
		if c, ok := env["errorCategory"].(string); ok && !slices.Contains(Categories, c) {
			return nil, at(src, scStart+nestedKeyOffset(src[scStart:], "errorCategory"), "sandbox.edit.category_value", "Value", excerpt(c, 30))
		}
	}
	if err := schema.Validate(res.StructuredContent); err != nil {
		return nil, at(src, scStart, "sandbox.edit.schema", "Tool", tool)
	}
	return res, nil
}

// Categories are the four errorCategory values, in the lessons' order.
var Categories = []string{"transient", "validation", "business", "permission"}
