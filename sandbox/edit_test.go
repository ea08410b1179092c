package sandbox

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseEditedResult(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		msg       string // "" for a result that parses
		line, col int
	}{
		{"a full error result", `{"isError": true, "content": [{"type": "text", "text": "x"}],
			"structuredContent": {"errorCategory": "transient", "isRetryable": true, "description": "d", "attempted_query": "q"}}`, "", 0, 0},
		{"isError alone", `{"isError": false}`, "", 0, 0},
		{"empty", "  \n ", "sandbox.edit.empty", 1, 1},
		{"a missing comma", "{\n  \"isError\": true\n  \"content\": []\n}", "sandbox.edit.syntax", 3, 3},
		{"a trailing comma", "{\"isError\": true,}", "sandbox.edit.syntax", 1, 18},
		{"cut short", "{\"isError\": true,\n \"content\": [", "sandbox.edit.truncated", 2, 14},
		{"two values", `{"isError": true} {}`, "sandbox.edit.trailing", 1, 19},
		{"an array", `[{"isError": true}]`, "sandbox.edit.not_object", 1, 1},
		{"no isError", "\n  {\"content\": []}", "sandbox.edit.no_is_error", 2, 3},
		{"isError as a string", "{\n  \"content\": [],\n  \"isError\": \"yes\"\n}", "sandbox.edit.is_error_type", 3, 14},
		{"content not a list", `{"isError": true, "content": "oops"}`, "sandbox.edit.content_type", 1, 30},
		{"content of another type", `{"isError": true, "content": [{"type": "image"}]}`, "sandbox.edit.content_type", 1, 30},
		{"structuredContent not an object", `{"isError": true, "structuredContent": [1]}`, "sandbox.edit.structured_type", 1, 40},
		{"isRetryable as a string", "{\"isError\": true, \"structuredContent\": {\n  \"errorCategory\": \"transient\",\n  \"isRetryable\": \"true\"}}", "sandbox.edit.retryable_type", 3, 3},
		{"errorCategory as a number", `{"isError": true, "structuredContent": {"errorCategory": 4}}`, "sandbox.edit.category_type", 1, 41},
		{"a whole JSON-RPC response", `{"jsonrpc": "2.0", "id": 2, "result": {"isError": true}}`, "sandbox.edit.whole_response", 1, 29},
		{"Thai text counts characters, not bytes", "{\"content\": [{\"type\": \"text\", \"text\": \"ไทย\"}], \"isError\": nope}", "sandbox.edit.syntax", 1, 60},
		{"too large", `{"isError": true, "x": "` + strings.Repeat("a", MaxEditBytes) + `"}`, "sandbox.edit.too_large", 1, 1},
		{"not UTF-8", "{\"isError\": true, \"x\": \"\xff\"}", "sandbox.edit.not_utf8", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ParseEditedResult(tt.text)
			if tt.msg == "" {
				if err != nil {
					t.Fatalf("want a result, got %s at %d:%d", err.Message, err.Line, err.Column)
				}
				if res == nil || res.Content == nil {
					t.Fatal("no result")
				}
				return
			}
			if err == nil {
				t.Fatalf("want %s, got a result", tt.msg)
			}
			if err.Message != tt.msg || err.Line != tt.line || err.Column != tt.col {
				t.Errorf("got %s at %d:%d, want %s at %d:%d", err.Message, err.Line, err.Column, tt.msg, tt.line, tt.col)
			}
		})
	}
}

// FuzzParseEditedResult: whatever a learner types, the editor answers with
// a result or a message pointing inside the text, and never panics.
func FuzzParseEditedResult(f *testing.F) {
	for _, s := range []string{
		`{"isError": true, "content": [{"type": "text", "text": "x"}], "structuredContent": {"errorCategory": "business", "isRetryable": false}}`,
		`{"isError": false, "structuredContent": {"resultCount": 0, "results": []}}`,
		`{"isError": "true"}`, `{"isError": true,}`, `[`, `{"a":`, `"text"`, `null`, ``, "{\n\"isError\":\ntrue\n}\n{",
		`{"isError": true, "structuredContent": {"isRetryable": 1}}`, `{"jsonrpc": "2.0", "result": {}}`,
		`{"isError": true, "content": [{"type": "text"}]}`, "{\"isError\": true, \"\\\"k\": 1}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		res, err := ParseEditedResult(s)
		if (res == nil) == (err == nil) {
			t.Fatalf("want exactly one of a result and an error: %v %v", res, err)
		}
		if err != nil {
			lines := strings.Count(s, "\n") + 1
			if err.Line < 1 || err.Line > lines || err.Column < 1 {
				t.Fatalf("position %d:%d is outside the text (%d lines)", err.Line, err.Column, lines)
			}
			if utf8.ValidString(s) && len(s) <= MaxEditBytes {
				lineText := strings.Split(s, "\n")[err.Line-1]
				if err.Column > utf8.RuneCountInString(lineText)+1 {
					t.Fatalf("column %d is past the end of line %d (%q)", err.Column, err.Line, lineText)
				}
			}
			if !strings.HasPrefix(err.Message, "sandbox.edit.") {
				t.Fatalf("message %q is not an i18n id", err.Message)
			}
		}
	})
}
