package sandbox

import (
	"encoding/json"
	"fmt"
)

// errorEnvelopeSchema requires only what every error has; partial_results
// and alternatives are optional, or a model asked to fill the schema would
// invent them.
const errorEnvelopeSchema = `{
	"type": "object",
	"properties": {
		"errorCategory": {"type": "string", "enum": ["transient", "validation", "business", "permission"]},
		"isRetryable": {"type": "boolean"},
		"description": {"type": "string"},
		"attempted_query": {"type": "string"},
		"retry_after_ms": {"type": "integer", "minimum": 0},
		"partial_results": {"type": "array"},
		"alternatives": {"type": "array", "items": {"type": "string"}},
		"needs_user_input": {"type": "array", "items": {"type": "string"}}
	},
	"required": ["errorCategory", "isRetryable", "description", "attempted_query"]
}`

// outputSchema accepts the tool's success shape or the error envelope.
// Strict clients (the MCP Inspector, the TypeScript SDK) check
// structuredContent against it even when isError is true, so an error
// envelope that did not validate would be rejected before anyone saw it.
// The root keeps "type": "object", which the spec's Tool definition
// requires: the TypeScript SDK drops a tool whose outputSchema lacks it.
func outputSchema(success string) json.RawMessage {
	s := fmt.Sprintf(`{"type": "object", "anyOf": [%s, %s]}`, success, errorEnvelopeSchema)
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		panic("sandbox: bad output schema: " + err.Error())
	}
	b, _ := json.Marshal(v) // compact, and proof that it parses
	return b
}

func listSchema(item string) string {
	return fmt.Sprintf(`{
		"type": "object",
		"properties": {
			"resultCount": {"type": "integer", "minimum": 0},
			"results": {"type": "array", "items": %s}
		},
		"required": ["resultCount", "results"]
	}`, item)
}

const customerSchema = `{"type": "object", "properties": {
	"customer_id": {"type": "string"}, "name": {"type": "string"}, "email": {"type": "string"},
	"country": {"type": "string"}, "customer_since": {"type": "string"}},
	"required": ["customer_id", "name", "email"]}`

const orderSchema = `{"type": "object", "properties": {
	"order_id": {"type": "string"}, "customer_id": {"type": "string"}, "total_gbp": {"type": "number"},
	"status": {"type": "string"}, "placed_on": {"type": "string"}},
	"required": ["order_id", "customer_id", "total_gbp", "status"]}`

const invoiceSchema = `{"type": "object", "properties": {
	"invoice_id": {"type": "string"}, "date": {"type": "string"}, "amount_gbp": {"type": "number"}, "status": {"type": "string"}},
	"required": ["invoice_id", "amount_gbp", "status"]}`

const sourceSchema = `{"type": "object", "properties": {
	"source": {"type": "integer"}, "title": {"type": "string"}, "url": {"type": "string"}},
	"required": ["source", "title"]}`

const refundSchema = `{"type": "object", "properties": {
	"refund_id": {"type": "string"}, "order_id": {"type": "string"}, "amount_gbp": {"type": "number"}, "status": {"type": "string"}},
	"required": ["refund_id", "order_id", "amount_gbp", "status"]}`
