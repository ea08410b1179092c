package sandbox

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// TestArgExamplesFitTheSchema checks each declared example against the
// inputSchema derived from the same declarations and against decodeArgs:
// an error message or the console must never suggest a value that the
// listed schema or the decoder would refuse.
func TestArgExamplesFitTheSchema(t *testing.T) {
	for _, d := range New().tools() {
		t.Run(d.tool.Name, func(t *testing.T) {
			var schema jsonschema.Schema
			if err := json.Unmarshal(d.tool.InputSchema.(json.RawMessage), &schema); err != nil {
				t.Fatalf("inputSchema does not parse: %v", err)
			}
			resolved, err := schema.Resolve(nil)
			if err != nil {
				t.Fatalf("inputSchema does not resolve: %v", err)
			}
			example := map[string]json.RawMessage{}
			for _, s := range d.specs {
				example[s.name] = json.RawMessage(s.example)
			}
			raw, err := json.Marshal(example)
			if err != nil {
				t.Fatalf("an example is not JSON: %v", err)
			}
			var v any
			json.Unmarshal(raw, &v)
			if err := resolved.Validate(v); err != nil {
				t.Errorf("the examples %s do not fit the listed inputSchema: %v", raw, err)
			}
			if _, terr := decodeArgs(d.tool.Name, raw, d.specs); terr != nil {
				t.Errorf("decodeArgs refuses the examples %s: %s", raw, terr.Envelope.Description)
			}
		})
	}
}
