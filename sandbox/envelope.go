package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/examsim/examsim"
)

// ErrorEnvelope is the structuredContent of every error result: the lessons'
// application convention inside MCP's CallToolResult. PartialResults and
// Alternatives appear only where they exist.
type ErrorEnvelope struct {
	ErrorCategory  examsim.Category `json:"errorCategory"`
	IsRetryable    bool             `json:"isRetryable"`
	Description    string           `json:"description"`
	AttemptedQuery string           `json:"attempted_query"`
	// RetryAfterMs is how long to wait before the same call can work, for a
	// transient error that knows (Retry-After semantics).
	RetryAfterMs   int64    `json:"retry_after_ms,omitempty"`
	PartialResults []any    `json:"partial_results,omitempty"`
	Alternatives   []string `json:"alternatives,omitempty"`
	// NeedsUserInput names the arguments only the user can supply: a
	// validation error whose fix is a question to the user, not a guess.
	NeedsUserInput []string `json:"needs_user_input,omitempty"`
}

// GenericFailure is the whole text of a failure in generic-errors mode.
const GenericFailure = "Operation failed"

// toolError is a failure a tool handler reports; errorResult turns it into
// the result the client sees.
type toolError struct {
	Summary  string // the one-line text in content
	Envelope ErrorEnvelope
}

// retryAfter sets the wait a transient error asks for.
func (e *toolError) retryAfter(d time.Duration) *toolError {
	e.Envelope.RetryAfterMs = d.Milliseconds()
	return e
}

// failure builds a toolError whose retry answer follows from its category, as
// the lessons' table says: only transient errors are retryable.
func failure(category examsim.Category, summary, description, attempted string) *toolError {
	return &toolError{Summary: summary, Envelope: ErrorEnvelope{
		ErrorCategory: category, IsRetryable: category == examsim.Transient,
		Description: description, AttemptedQuery: attempted,
	}}
}

// errorResult is built by hand on purpose: in go-sdk v1.8.0 a handler that
// returns a Go error loses its structuredContent, and a typed Out would
// overwrite a StructuredContent set here.
func errorResult(e *toolError, generic bool) *mcp.CallToolResult {
	if generic {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: GenericFailure}}}
	}
	r := withStructured(e.Summary, e.Envelope)
	r.IsError = true
	return r
}

// okResult is a successful result: a one-line text for the model and the
// data as structuredContent.
func okResult(summary string, data any) *mcp.CallToolResult { return withStructured(summary, data) }

// withStructured is a result whose content is the one-line summary and then
// structuredContent serialized as JSON text, as the spec says a tool SHOULD
// send it: a client that forwards only content still gives the model the
// category, whether to retry and what to do.
func withStructured(summary string, data any) *mcp.CallToolResult {
	b, _ := json.Marshal(data) // the sandbox's own types: they always marshal
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: summary}, &mcp.TextContent{Text: string(b)}},
		StructuredContent: data,
	}
}

// suppressed is what a tool that swallows its failures returns: partial
// results passed off as complete, or an empty "success". _meta says what was
// hidden, for the learner.
func suppressed(e *toolError) *mcp.CallToolResult {
	items := e.Envelope.PartialResults
	summary := fmt.Sprintf("Found %d sources.", len(items))
	if len(items) == 0 {
		items = []any{}
		summary = "The query ran successfully and found no results."
	}
	r := okResult(summary, listResult[any]{ResultCount: len(items), Results: items})
	r.Meta = mcp.Meta{MetaSuppressed: string(e.Envelope.ErrorCategory) + ": " + e.Summary}
	return r
}

// explicitResult sends a successful tool result with "isError": false on
// the wire: the SDK omits a false isError, and the lessons (and traces) say
// a valid empty result is isError false, not a missing key.
type explicitResult struct{ *mcp.CallToolResult }

func (r explicitResult) MarshalJSON() ([]byte, error) {
	b, err := r.CallToolResult.MarshalJSON()
	if err != nil || r.IsError || !bytes.HasSuffix(b, []byte("}")) || bytes.Contains(b, []byte(`"isError"`)) {
		return b, err
	}
	return append(b[:len(b)-1], []byte(`,"isError":false}`)...), nil
}

// listResult is the success shape of the lookups: a count and the matches.
// An empty Results is a valid empty result, not an error.
type listResult[T any] struct {
	ResultCount int `json:"resultCount"`
	Results     []T `json:"results"`
}

func list[T any](items []T) listResult[T] {
	if items == nil {
		items = []T{}
	}
	return listResult[T]{ResultCount: len(items), Results: items}
}
