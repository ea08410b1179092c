// Package mcpfixture is an MCP server with the fixtures the official MCP
// conformance suite calls by name (test_* tools, test:// resources, test_*
// prompts, completion, logging, sampling and elicitation). It exists only so
// that the suite can run against examsim's own HTTP endpoint
// (sandbox.ServeServer); the product never serves it.
//
// Each fixture follows the suite's scenario description (the `description`
// of each server scenario in @modelcontextprotocol/conformance).
//
//lint:file-ignore SA1019 the suite still tests logging and sampling, which the SDK marks deprecated (SEP-2577) but serves through the deprecation window
package mcpfixture

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// step is the pause between the notifications a tool sends while it runs;
// the suite asks for about 50 ms.
const step = 50 * time.Millisecond

// New returns a fresh fixture server.
func New() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "examsim-conformance-fixture", Version: "1.0.0"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{
			Logging:     &mcp.LoggingCapabilities{},
			Completions: &mcp.CompletionCapabilities{},
		},
		CompletionHandler:  complete,
		SubscribeHandler:   acceptSubscription[*mcp.SubscribeRequest],
		UnsubscribeHandler: acceptSubscription[*mcp.UnsubscribeRequest],
	})
	for _, t := range tools() {
		s.AddTool(t.tool, t.handle)
	}
	for _, r := range resources() {
		s.AddResource(r.resource, r.read)
	}
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: "test://template/{id}/data",
		Name:        "template-data",
		Description: "JSON data for the id in the URI",
		MIMEType:    "application/json",
	}, readTemplate)
	for _, p := range prompts() {
		s.AddPrompt(p.prompt, p.get)
	}
	return s
}

// acceptSubscription lets any resource be watched; the SDK tracks who
// subscribed to what and stops notifying on unsubscribe.
func acceptSubscription[R any](context.Context, R) error { return nil }

// redPixel is a 1×1 red PNG, encoded once by image/png.
var redPixel = func() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}()

// silence is a WAV file of 8 ms of 8 kHz, 8-bit mono silence.
var silence = func() []byte {
	const samples = 64
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	w(uint32(36 + samples))
	b.WriteString("WAVEfmt ")
	w(uint32(16))   // fmt chunk size
	w(uint16(1))    // PCM
	w(uint16(1))    // mono
	w(uint32(8000)) // sample rate
	w(uint32(8000)) // byte rate
	w(uint16(1))    // block align
	w(uint16(8))    // bits per sample
	b.WriteString("data")
	w(uint32(samples))
	b.Write(bytes.Repeat([]byte{128}, samples)) // 8-bit PCM's zero is 128
	return b.Bytes()
}()

type tool struct {
	tool   *mcp.Tool
	handle mcp.ToolHandler
}

// noArgs is the input schema of a tool without arguments.
var noArgs = json.RawMessage(`{"type":"object","properties":{}}`)

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func stringArgs(names ...string) json.RawMessage {
	props := map[string]any{}
	for _, n := range names {
		props[n] = map[string]any{"type": "string"}
	}
	b, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": names})
	return b
}

// argument reads one string argument of a call, required.
func argument(req *mcp.CallToolRequest, name string) (string, error) {
	var args map[string]any
	if len(req.Params.Arguments) > 0 {
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
			return "", fmt.Errorf("arguments are not a JSON object: send {%q: \"...\"}", name)
		}
	}
	v, ok := args[name].(string)
	if !ok {
		return "", fmt.Errorf("missing string argument %q: send {%q: \"...\"}", name, name)
	}
	return v, nil
}

// pause waits d unless the call is cancelled.
func pause(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func tools() []tool {
	return []tool{
		{&mcp.Tool{Name: "test_simple_text", Description: "Returns one text block", InputSchema: noArgs},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text("This is a simple text response for testing."), nil
			}},
		{&mcp.Tool{Name: "test_image_content", Description: "Returns a 1×1 red PNG", InputSchema: noArgs},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: redPixel, MIMEType: "image/png"}}}, nil
			}},
		{&mcp.Tool{Name: "test_audio_content", Description: "Returns a short silent WAV", InputSchema: noArgs},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{Data: silence, MIMEType: "audio/wav"}}}, nil
			}},
		{&mcp.Tool{Name: "test_embedded_resource", Description: "Returns an embedded text resource", InputSchema: noArgs},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
					URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content.",
				}}}}, nil
			}},
		{&mcp.Tool{Name: "test_multiple_content_types", Description: "Returns text, an image and an embedded resource", InputSchema: noArgs},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{
					&mcp.TextContent{Text: "Multiple content types test:"},
					&mcp.ImageContent{Data: redPixel, MIMEType: "image/png"},
					&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
						URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`,
					}},
				}}, nil
			}},
		{&mcp.Tool{Name: "test_tool_with_logging", Description: "Sends three info log messages while it runs", InputSchema: noArgs},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
					if i > 0 {
						if err := pause(ctx, step); err != nil {
							return nil, err
						}
					}
					if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "test_tool_with_logging", Data: msg}); err != nil {
						return nil, err
					}
				}
				return text("Tool with logging executed: 3 log messages sent."), nil
			}},
		{&mcp.Tool{Name: "test_error_handling", Description: "Always fails, as a tool error", InputSchema: noArgs},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				res := text("This tool intentionally returns an error for testing")
				res.IsError = true
				return res, nil
			}},
		{&mcp.Tool{Name: "test_tool_with_progress", Description: "Reports progress 0, 50 and 100 of 100", InputSchema: noArgs},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				token := req.Params.GetProgressToken()
				for i, p := range []float64{0, 50, 100} {
					if i > 0 {
						if err := pause(ctx, step); err != nil {
							return nil, err
						}
					}
					if token == nil {
						continue
					}
					if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: p, Total: 100}); err != nil {
						return nil, err
					}
				}
				return text("Tool with progress executed: 3 steps."), nil
			}},
		{&mcp.Tool{Name: "test_sampling", Description: "Asks the client's LLM to answer the prompt", InputSchema: stringArgs("prompt")},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				prompt, err := argument(req, "prompt")
				if err != nil {
					return toolError(err), nil
				}
				if caps := req.Session.InitializeParams().Capabilities; caps == nil || caps.Sampling == nil {
					return toolError(errors.New("the client did not declare the sampling capability, so the tool cannot ask its LLM")), nil
				}
				res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{
					Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: prompt}}},
					MaxTokens: 100,
				})
				if err != nil {
					return nil, err
				}
				answer := ""
				if t, ok := res.Content.(*mcp.TextContent); ok {
					answer = t.Text
				}
				return text("LLM response: " + answer), nil
			}},
		{&mcp.Tool{Name: "test_elicitation", Description: "Asks the user for a username and an email", InputSchema: stringArgs("message")},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				msg, err := argument(req, "message")
				if err != nil {
					return toolError(err), nil
				}
				return elicit(ctx, req, "User response: ", msg, map[string]any{
					"type": "object",
					"properties": map[string]any{
						"username": map[string]any{"type": "string", "description": "User's response"},
						"email":    map[string]any{"type": "string", "description": "User's email address"},
					},
					"required": []string{"username", "email"},
				})
			}},
		{&mcp.Tool{Name: "test_elicitation_sep1034_defaults", Description: "Elicits one field of each primitive type, each with a default", InputSchema: noArgs},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return elicit(ctx, req, "Elicitation completed: ", "Please review these values", map[string]any{
					"type": "object",
					"properties": map[string]any{
						"name":     map[string]any{"type": "string", "default": "John Doe"},
						"age":      map[string]any{"type": "integer", "default": 30},
						"score":    map[string]any{"type": "number", "default": 95.5},
						"status":   map[string]any{"type": "string", "enum": []string{"active", "inactive", "pending"}, "default": "active"},
						"verified": map[string]any{"type": "boolean", "default": true},
					},
				})
			}},
		{&mcp.Tool{Name: "test_elicitation_sep1330_enums", Description: "Elicits the five kinds of enum field", InputSchema: noArgs},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				titled := func(titles ...string) []map[string]any {
					var out []map[string]any
					for i, t := range titles {
						out = append(out, map[string]any{"const": fmt.Sprintf("value%d", i+1), "title": t})
					}
					return out
				}
				plain := []string{"option1", "option2", "option3"}
				return elicit(ctx, req, "Elicitation completed: ", "Pick from each list", map[string]any{
					"type": "object",
					"properties": map[string]any{
						"untitledSingle": map[string]any{"type": "string", "enum": plain},
						"titledSingle":   map[string]any{"type": "string", "oneOf": titled("First Option", "Second Option", "Third Option")},
						"legacyEnum": map[string]any{"type": "string", "enum": []string{"opt1", "opt2", "opt3"},
							"enumNames": []string{"Option One", "Option Two", "Option Three"}},
						"untitledMulti": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": plain}},
						"titledMulti": map[string]any{"type": "array", "items": map[string]any{
							"anyOf": titled("First Choice", "Second Choice", "Third Choice")}},
					},
				})
			}},
		{&mcp.Tool{Name: "json_schema_2020_12_tool", Description: "Tool with JSON Schema 2020-12 features", InputSchema: json.RawMessage(`{
			"$schema": "https://json-schema.org/draft/2020-12/schema",
			"type": "object",
			"$defs": {"address": {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
			"properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
			"additionalProperties": false}`)},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text("Received: " + string(req.Params.Arguments)), nil
			}},
		{&mcp.Tool{Name: "test_reconnection", Description: "Closes its SSE stream mid-call; the client resumes it", InputSchema: noArgs},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if extra := req.GetExtra(); extra != nil && extra.CloseSSEStream != nil {
					extra.CloseSSEStream(mcp.CloseSSEStreamArgs{RetryAfter: 100 * time.Millisecond})
				}
				if err := pause(ctx, 4*step); err != nil {
					return nil, err
				}
				return text("Reconnection test completed successfully"), nil
			}},
	}
}

// toolError is a failed tool call whose message says what to change.
func toolError(err error) *mcp.CallToolResult {
	res := text(err.Error())
	res.IsError = true
	return res
}

// elicit asks the user through elicitation/create and reports the answer
// as prefix + action and content.
func elicit(ctx context.Context, req *mcp.CallToolRequest, prefix, message string, schema map[string]any) (*mcp.CallToolResult, error) {
	if caps := req.Session.InitializeParams().Capabilities; caps == nil || caps.Elicitation == nil {
		return toolError(errors.New("the client did not declare the elicitation capability, so the tool cannot ask the user")), nil
	}
	res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: message, RequestedSchema: schema})
	if err != nil {
		return nil, err
	}
	content, _ := json.Marshal(res.Content)
	return text(fmt.Sprintf("%saction=%s, content=%s", prefix, res.Action, content)), nil
}

type resource struct {
	resource *mcp.Resource
	read     mcp.ResourceHandler
}

func contents(c *mcp.ResourceContents) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}
}

func resources() []resource {
	return []resource{
		{&mcp.Resource{URI: "test://static-text", Name: "static-text", Description: "A fixed text resource", MIMEType: "text/plain"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return contents(&mcp.ResourceContents{URI: "test://static-text", MIMEType: "text/plain", Text: "This is the content of the static text resource."}), nil
			}},
		{&mcp.Resource{URI: "test://static-binary", Name: "static-binary", Description: "A fixed PNG resource", MIMEType: "image/png"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return contents(&mcp.ResourceContents{URI: "test://static-binary", MIMEType: "image/png", Blob: redPixel}), nil
			}},
		{&mcp.Resource{URI: "test://watched-resource", Name: "watched-resource", Description: "A resource clients subscribe to", MIMEType: "text/plain"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return contents(&mcp.ResourceContents{URI: "test://watched-resource", MIMEType: "text/plain", Text: "Watched resource content"}), nil
			}},
	}
}

func readTemplate(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, prefixed := strings.CutPrefix(uri, "test://template/")
	id, suffixed := strings.CutSuffix(id, "/data")
	if !prefixed || !suffixed || id == "" || strings.Contains(id, "/") {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	body, _ := json.Marshal(map[string]any{"id": id, "templateTest": true, "data": "Data for ID: " + id})
	return contents(&mcp.ResourceContents{URI: uri, MIMEType: "application/json", Text: string(body)}), nil
}

type prompt struct {
	prompt *mcp.Prompt
	get    mcp.PromptHandler
}

func message(c mcp.Content) *mcp.PromptMessage { return &mcp.PromptMessage{Role: "user", Content: c} }

func prompts() []prompt {
	return []prompt{
		{&mcp.Prompt{Name: "test_simple_prompt", Description: "A prompt without arguments"},
			func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{message(&mcp.TextContent{Text: "This is a simple prompt for testing."})}}, nil
			}},
		{&mcp.Prompt{Name: "test_prompt_with_arguments", Description: "A prompt with two arguments", Arguments: []*mcp.PromptArgument{
			{Name: "arg1", Description: "First test argument", Required: true},
			{Name: "arg2", Description: "Second test argument", Required: true},
		}},
			func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				a := req.Params.Arguments
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{message(&mcp.TextContent{
					Text: fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", a["arg1"], a["arg2"]),
				})}}, nil
			}},
		{&mcp.Prompt{Name: "test_prompt_with_embedded_resource", Description: "A prompt that embeds a resource", Arguments: []*mcp.PromptArgument{
			{Name: "resourceUri", Description: "URI of the resource to embed", Required: true},
		}},
			func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
					message(&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
						URI: req.Params.Arguments["resourceUri"], MIMEType: "text/plain", Text: "Embedded resource content for testing.",
					}}),
					message(&mcp.TextContent{Text: "Please process the embedded resource above."}),
				}}, nil
			}},
		{&mcp.Prompt{Name: "test_prompt_with_image", Description: "A prompt with an image"},
			func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
					message(&mcp.ImageContent{Data: redPixel, MIMEType: "image/png"}),
					message(&mcp.TextContent{Text: "Please analyze the image above."}),
				}}, nil
			}},
	}
}

// completionWords are what completion/complete offers for any argument,
// filtered by the typed prefix.
var completionWords = []string{"paris", "park", "party", "test", "testing", "value"}

func complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	prefix := strings.ToLower(req.Params.Argument.Value)
	values := slices.DeleteFunc(slices.Clone(completionWords), func(w string) bool { return !strings.HasPrefix(w, prefix) })
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}, nil
}
