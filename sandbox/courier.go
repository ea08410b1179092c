package sandbox

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/examsim/examsim"
)

// postcodePattern is a UK postcode, with or without its space.
var postcodePattern = regexp.MustCompile(`^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$`)

const courierSchema = `{"type": "object", "properties": {
	"booking_id": {"type": "string"}, "order_id": {"type": "string"}, "street": {"type": "string"},
	"city": {"type": "string"}, "postcode": {"type": "string"}, "status": {"type": "string"}},
	"required": ["booking_id", "order_id", "postcode", "status"]}`

// bookCourierTool is the missing-postcode case of the lessons: a validation
// error whose fix only the user has. A client that can ask its user is asked
// through elicitation/create; any other gets the validation error, saying
// which field the user must supply.
func bookCourierTool() toolDef {
	return toolDef{
		tool: &mcp.Tool{
			Name:  "book_courier",
			Title: "Book a courier for an order",
			Description: "Books a courier to deliver an order to a UK address (simulated: nobody comes). " +
				"The address is street, city and postcode. No tool can look a postcode up: only the customer knows it. " +
				"Without a postcode, a client that declared the elicitation capability is asked for it through elicitation/create and the booking goes ahead with the answer; " +
				"any other client gets a validation error (isRetryable false) whose needs_user_input lists \"postcode\": ask the customer, then call again with it. " +
				"Declining the question is the same validation error. A postcode that is not a UK postcode (such as SW1A 1AA) is a validation error too. Known orders: #12345, #48213, #30517." + errorsNote,
			OutputSchema: outputSchema(courierSchema),
			Annotations:  &mcp.ToolAnnotations{IdempotentHint: true},
		},
		specs: []argSpec{
			orderIDArg,
			{name: "street", kind: stringArg, required: true, example: `"10 Downing Street"`, description: "Street and number, e.g. 10 Downing Street"},
			{name: "city", kind: stringArg, required: true, example: `"London"`, description: "Town or city, e.g. London"},
			{name: "postcode", kind: stringArg, example: `"SW1A 2AA"`, description: "UK postcode, e.g. SW1A 2AA; leave it out if the customer has not given it"},
		},
		handle: bookCourier,
	}
}

// postcodeQuestion is the form elicitation/create sends.
var postcodeQuestion = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"postcode": map[string]any{"type": "string", "title": "Postcode", "description": "The delivery postcode, e.g. SW1A 2AA", "minLength": 5, "maxLength": 8},
	},
	"required": []string{"postcode"},
}

func bookCourier(c call) (*mcp.CallToolResult, *toolError) {
	id, street, city := c.args.str("order_id"), strings.TrimSpace(c.args.str("street")), strings.TrimSpace(c.args.str("city"))
	if terr := checkOrderID("book_courier", id); terr != nil {
		return nil, terr
	}
	if _, ok := findOrder(id); !ok {
		return nil, failure(examsim.Validation, "Unknown order",
			fmt.Sprintf("There is no order %s, so nothing can be delivered. Check the order id with lookup_order and call again.", id),
			fmt.Sprintf("book_courier(order_id='%s')", id))
	}
	postcode := strings.ToUpper(strings.TrimSpace(c.args.str("postcode")))
	attempted := fmt.Sprintf("book_courier(order_id='%s', street='%s', city='%s', postcode='%s')", id, street, city, postcode)
	if street == "" || city == "" {
		return nil, failure(examsim.Validation, "Street or city is missing",
			"The delivery address needs a street and a city. Take them from what the customer said and call again.", attempted)
	}
	if postcode == "" && c.client.canAsk() {
		action, answer, err := c.client.ask(fmt.Sprintf("What is the postcode for %s, %s? The courier for order %s cannot be booked without it.", street, city, id), postcodeQuestion)
		if err == nil && action == "accept" {
			postcode, _ = answer["postcode"].(string)
			postcode = strings.ToUpper(strings.TrimSpace(postcode))
		}
		if postcode == "" {
			e := failure(examsim.Validation, "Postcode is missing from the delivery address",
				"The user was asked for the postcode and gave none, so no courier was booked. Do not guess one: ask the customer again when they can answer, or hand over to a human.", attempted)
			e.Envelope.NeedsUserInput = []string{"postcode"}
			return nil, e
		}
		attempted = fmt.Sprintf("book_courier(order_id='%s', street='%s', city='%s', postcode='%s')", id, street, city, postcode)
	}
	if postcode == "" {
		e := failure(examsim.Validation, "Postcode is missing from the delivery address",
			"The delivery address has no postcode, and no tool can look one up: only the customer knows it. Ask the customer for the postcode, then call book_courier again with postcode set. Do not guess one.", attempted)
		e.Envelope.NeedsUserInput = []string{"postcode"}
		return nil, e
	}
	if !postcodePattern.MatchString(postcode) {
		e := failure(examsim.Validation, "Not a UK postcode",
			fmt.Sprintf("Received '%s', which is not a UK postcode (for example SW1A 2AA). Check it with the customer and call again.", postcode), attempted)
		e.Envelope.NeedsUserInput = []string{"postcode"}
		return nil, e
	}
	return okResult(fmt.Sprintf("Courier booked for order %s to %s, %s %s.", id, street, city, postcode), map[string]any{
		"booking_id": "CB-" + strings.TrimPrefix(id, "#"), "order_id": id, "street": street, "city": city, "postcode": postcode, "status": "booked",
	}), nil
}
