package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/examsim/examsim"
)

// ProtocolVersion is the MCP protocol version the sandbox speaks and its
// traces show. It is pinned to the last session-based version so that each
// connection is a session with its own slow.example counter.
const ProtocolVersion = "2025-11-25"

// How a caller changes who it is, and asks for generic errors: both ride in
// the _meta of a tools/call request (or, over HTTP, in a header), so any MCP
// client can use them without extra tools.
const (
	MetaPrincipal = "examsim/principal"
	MetaErrors    = "examsim/errors"
	// MetaSuppressed, in a result's _meta, says what failure silent mode hid;
	// the sandbox's agents never read it, the page shows it to the learner.
	MetaSuppressed   = "examsim/suppressed"
	HeaderPrincipal  = "X-Examsim-Principal"
	DefaultPrincipal = "support-agent"
	FinancePrincipal = "finance-analyst"
	// RefundLimitGBP is the automatic refund limit; above it a manager decides.
	RefundLimitGBP = 500
	// SourcesBeforeRateLimit is how many sources the news API serves per
	// rate-limit window.
	SourcesBeforeRateLimit = 6
	// MaxSources is the most sources one search may ask for.
	MaxSources = 10
)

// ToolNames lists the sandbox's tools (tools/list gives them sorted by name).
var ToolNames = []string{"lookup_customer", "lookup_order", "issue_refund", "get_financial_records", "search_sources", "book_courier"}

// Sandbox is the MCP server with its tools and per-session state. One
// Sandbox serves both the /mcp endpoint and the in-process agents.
type Sandbox struct {
	server   *mcp.Server
	sessions *sessionTable
	outputs  map[string]*jsonschema.Resolved // each tool's outputSchema, for the result editor

	consoleOnce sync.Once
	console     *Console
	// idPrefix starts every MCP session id (SetSessionIDPrefix).
	idPrefix string
}

// SetSessionIDPrefix makes every new MCP session's id start with prefix,
// so that, with many instances, one that gets a request of a session it
// does not hold can tell whose it is. Call it before serving.
func (sb *Sandbox) SetSessionIDPrefix(prefix string) { sb.idPrefix = prefix }

// New returns a sandbox with its six tools and the default session limits.
func New() *Sandbox { return NewWithLimits(SessionLimits{}) }

// NewWithLimits returns a sandbox whose sessions are bounded by l.
func NewWithLimits(l SessionLimits) *Sandbox {
	sb := &Sandbox{sessions: newSessionTable(l)}
	sb.server = mcp.NewServer(&mcp.Implementation{Name: "examsim-sandbox", Title: "examsim error sandbox", Version: "1.0.0"},
		&mcp.ServerOptions{
			Instructions: "A teaching sandbox: six tools with made-up data that fail in each error category " +
				"(transient, validation, business, permission) or return a valid empty result. Each tool's " +
				"description says how to trigger every case. Errors come back with isError true and " +
				"structuredContent {errorCategory, isRetryable, description, attempted_query}, plus partial_results " +
				"and alternatives where they exist. Set _meta {\"" + MetaErrors + "\": \"generic\"} on a call to get " +
				"a bare \"" + GenericFailure + "\" instead.",
			SupportedProtocolVersions: []string{ProtocolVersion, "2025-06-18", "2025-03-26"},
			Capabilities:              &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
			GetSessionID:              func() string { return sb.idPrefix + rand.Text() },
		})
	// Every message a session sends marks it as used, so the cap closes the
	// session heard from longest ago.
	sb.server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
				sb.sessions.touch(ss)
			}
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.CallToolResult); ok && err == nil && !r.IsError {
				return explicitResult{r}, nil
			}
			return res, err
		}
	})
	sb.outputs = map[string]*jsonschema.Resolved{}
	for _, t := range sb.tools() {
		sb.server.AddTool(t.tool, sb.rawHandler(t))
		var schema jsonschema.Schema
		if err := json.Unmarshal(t.tool.OutputSchema.(json.RawMessage), &schema); err != nil {
			panic("sandbox: " + t.tool.Name + " output schema: " + err.Error())
		}
		resolved, err := schema.Resolve(nil)
		if err != nil {
			panic("sandbox: " + t.tool.Name + " output schema: " + err.Error())
		}
		sb.outputs[t.tool.Name] = resolved
	}
	return sb
}

// MCPServer returns the SDK server, for in-process clients.
func (sb *Sandbox) MCPServer() *mcp.Server { return sb.server }

// state returns the session's state, making it on first use.
func (sb *Sandbox) state(ss *mcp.ServerSession) *sessionState { return sb.sessions.touch(ss) }

// call is one tools/call as a handler sees it.
type call struct {
	args      args
	principal string
	session   *sessionState
	// client is the caller's side of the session: what it can do for a
	// tool that waits or needs the user (nil for calls made without a
	// session, as in unit tests).
	client *clientSide
}

// toolDef is one tool. Its arguments are declared only in specs; tools()
// derives tool.InputSchema from them.
type toolDef struct {
	tool   *mcp.Tool
	specs  []argSpec
	handle func(call) (*mcp.CallToolResult, *toolError)
}

// rawHandler decodes and checks arguments itself, works out the principal
// and the error mode, and builds every result deliberately.
func (sb *Sandbox) rawHandler(t toolDef) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		mode := metaString(req.Params.Meta, MetaErrors)
		generic := mode == "generic"
		a, terr := decodeArgs(t.tool.Name, req.Params.Arguments, t.specs)
		if terr != nil {
			return errorResult(terr, generic), nil
		}
		principal := metaString(req.Params.Meta, MetaPrincipal)
		if principal == "" && req.Extra != nil && req.Extra.Header != nil {
			principal = req.Extra.Header.Get(HeaderPrincipal)
		}
		if principal == "" {
			principal = DefaultPrincipal
		}
		res, terr := t.handle(call{args: a, principal: principal, session: sb.state(req.Session), client: newClientSide(ctx, req)})
		if terr != nil && mode == "silent" && t.tool.Annotations.ReadOnlyHint {
			return suppressed(terr), nil
		}
		if terr != nil {
			return errorResult(terr, generic), nil
		}
		return res, nil
	}
}

func metaString(m mcp.Meta, key string) string {
	s, _ := m[key].(string)
	return strings.TrimSpace(s)
}

var (
	emailPattern   = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s.]+$`)
	orderPattern   = regexp.MustCompile(`^#\d{5}$`)
	customerIDForm = regexp.MustCompile(`^C-\d{4}$`)
)

const errorsNote = " Every error result has isError true and structuredContent {errorCategory, isRetryable, description, attempted_query}; wrong-typed or extra arguments are validation errors."

func (sb *Sandbox) tools() []toolDef {
	defs := []toolDef{
		lookupCustomerTool(),
		lookupOrderTool(),
		issueRefundTool(),
		financialRecordsTool(),
		searchSourcesTool(),
		bookCourierTool(),
	}
	for _, d := range defs {
		if d.tool.InputSchema != nil {
			panic("sandbox: " + d.tool.Name + " declares an InputSchema; declare its arguments in specs only")
		}
		d.tool.InputSchema = inputSchema(d.specs)
	}
	return defs
}

// orderIDArg is the order_id that lookup_order and issue_refund share.
var orderIDArg = argSpec{name: "order_id", kind: stringArg, required: true, example: `"#12345"`,
	description: "The order id in the format #NNNNN, e.g. #12345"}

// lookupCustomerTool is the customer lookup, with its valid-empty and transient cases.
func lookupCustomerTool() toolDef {
	return toolDef{
		tool: &mcp.Tool{
			Name:  "lookup_customer",
			Title: "Look up a customer by email",
			Description: "Looks a customer up by email in the sandbox's made-up customer database. " +
				"Known customers: a.nowak@example.com, minh.tran@example.com, somchai.p@example.com, jo.lee@slow.example, sam.ng@flaky.example, pat.kim@down.example. " +
				"Any other well-formed email is a valid empty result: isError false, structuredContent {\"resultCount\": 0, \"results\": []} and a text saying the query ran and matched nothing — not an error. " +
				"An email at slow.example times out (transient, isRetryable true): the first call for it in an MCP session starts a 4-second outage of the customer database; every call before it ends fails again, with retry_after_ms saying how long is left, and the first call after it succeeds. " +
				"A call for it that carries _meta.progressToken is not failed: the tool waits out the outage itself, sends notifications/progress every half second while it waits, and then answers. " +
				"An email at flaky.example meets a failing replica on every other call (transient, no retry_after_ms): the next call reaches a healthy one. " +
				"An email at down.example meets a database that stays down for 10 minutes; its errors can only hint retry_after_ms 2000, so retries run out and the agent must escalate. " +
				"A malformed email, such as one without @ or without a domain, is a validation error (isRetryable false)." + errorsNote,
			OutputSchema: outputSchema(listSchema(customerSchema)),
			Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true},
		},
		specs: []argSpec{{name: "email", kind: stringArg, required: true, example: `"a.nowak@example.com"`,
			description: "The customer's email, e.g. a.nowak@example.com"}},
		handle: lookupCustomer,
	}
}

// lookupOrderTool is the order lookup, whose bad ids are validation errors.
func lookupOrderTool() toolDef {
	return toolDef{
		tool: &mcp.Tool{
			Name:  "lookup_order",
			Title: "Look up an order by id",
			Description: "Looks an order up by id. Order ids use the format #NNNNN, for example #12345. " +
				"Known orders: #12345, #48213, #30517. Another well-formed id (say #99999) is a valid empty result. " +
				"An id in any other format, such as \"order-abc\", is a validation error (isRetryable false) whose description gives the expected format and the value received." + errorsNote,
			OutputSchema: outputSchema(listSchema(orderSchema)),
			Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true},
		},
		specs:  []argSpec{orderIDArg},
		handle: lookupOrder,
	}
}

// issueRefundTool is the refund, whose limit makes business errors.
func issueRefundTool() toolDef {
	return toolDef{
		tool: &mcp.Tool{
			Name:  "issue_refund",
			Title: "Refund an order",
			Description: fmt.Sprintf("Refunds part or all of an order, in pounds (simulated: nothing is paid out). "+
				"Refunds on one order count together within an MCP session: up to £%d in all succeeds. Going over £%d, whether in one refund or split into several, is a business error (isRetryable false): a manager must approve it, so the agent must escalate to a human with the details the description lists. "+
				"Refunding more than the order's total is a business error too. "+
				"A badly formatted order_id (not #NNNNN), an unknown order or an amount of zero or less is a validation error. Known orders: #12345 (£750), #48213 (£89.99), #30517 (£120).", RefundLimitGBP, RefundLimitGBP) + errorsNote,
			OutputSchema: outputSchema(refundSchema),
			Annotations:  &mcp.ToolAnnotations{IdempotentHint: true},
		},
		specs: []argSpec{
			orderIDArg,
			{name: "amount_gbp", kind: numberArg, required: true, example: "120.50", description: "The refund in pounds, e.g. 120.50"},
		},
		handle: issueRefund,
	}
}

// financialRecordsTool is the invoice read, which the default principal may not call.
func financialRecordsTool() toolDef {
	return toolDef{
		tool: &mcp.Tool{
			Name:  "get_financial_records",
			Title: "Read a customer's financial records",
			Description: "Returns a customer's invoices. customer_id uses the format C-NNNN (C-1042, C-2077, C-3310, C-4501). " +
				"The default principal, " + DefaultPrincipal + ", has no finance access: every call is a permission error (isRetryable false). " +
				"To call as a principal with finance access, set _meta {\"" + MetaPrincipal + "\": \"" + FinancePrincipal + "\"} on the tools/call request, " +
				"or over HTTP send the header " + HeaderPrincipal + ": " + FinancePrincipal + "; then the call succeeds. " +
				"A customer_id in another format is a validation error; an unknown well-formed id is a valid empty result." + errorsNote,
			OutputSchema: outputSchema(listSchema(invoiceSchema)),
			Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true},
		},
		specs: []argSpec{{name: "customer_id", kind: stringArg, required: true, example: `"C-1042"`,
			description: "The customer id, e.g. C-1042"}},
		handle: financialRecordsFor,
	}
}

// searchSourcesTool is the news search, rate-limited with partial results.
func searchSourcesTool() toolDef {
	return toolDef{
		tool: &mcp.Tool{
			Name:  "search_sources",
			Title: "Search news sources",
			Description: fmt.Sprintf("Searches a canned news corpus of %d numbered sources. max_sources (1 to %d) says how many to collect, starting after offset (0 by default), so offset 6 with max_sources 4 fetches sources 7 to 10: ask for only the sources you are missing. "+
				"The news API serves %d sources per %s rate-limit window, which starts with the first source fetched; past that the call is a transient error (isRetryable true) "+
				"whose structuredContent has attempted_query (your query, verbatim), partial_results with the sources fetched before the limit, retry_after_ms (when the window resets) and alternatives. A call before the wait is over is limited again; after it the quota is back. "+
				"A query with the word \"live\" uses the live feed, whose quota is shared with other tenants: its errors hint retry_after_ms %d, but the quota only comes back after a minute. "+
				"An empty query, a max_sources outside 1 to %d or an offset past the corpus is a validation error.", MaxSources, MaxSources,
				SourcesBeforeRateLimit, formatWait(NewsWindow), LiveHint.Milliseconds(), MaxSources) + errorsNote,
			OutputSchema: outputSchema(listSchema(sourceSchema)),
			Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true},
		},
		specs: []argSpec{
			{name: "query", kind: stringArg, required: true, example: `"EU battery regulation"`,
				description: "What to search for, e.g. EU battery regulation"},
			{name: "max_sources", kind: integerArg, required: true, example: "10", minimum: bound(1), maximum: bound(MaxSources),
				description: fmt.Sprintf("How many sources to collect, 1 to %d", MaxSources)},
			{name: "offset", kind: integerArg, example: "6", minimum: bound(0), maximum: bound(MaxSources - 1),
				description: "How many sources to skip first, e.g. 6 to fetch from source 7 on; default 0"},
		},
		handle: searchSources,
	}
}

func lookupCustomer(c call) (*mcp.CallToolResult, *toolError) {
	raw := c.args.str("email")
	email := strings.ToLower(strings.TrimSpace(raw))
	attempted := fmt.Sprintf("customers where email = '%s'", raw)
	if !emailPattern.MatchString(email) {
		return nil, failure(examsim.Validation, "Invalid email address",
			fmt.Sprintf("Received '%s', which is not an email address: an email needs a name, one @ and a domain, for example maria.k@example.com. Correct it and call again.", raw),
			attempted)
	}
	up, wait := c.session.customerDatabase(email)
	if !up && strings.HasSuffix(email, "@slow.example") && c.client.waitOut(wait) {
		up, wait = c.session.customerDatabase(email)
	}
	if !up {
		summary := "Customer database timed out"
		desc := fmt.Sprintf("The connection to the customer database timed out after 5 seconds. The query never ran and the request itself is valid: wait %s (retry_after_ms), then send the same call again. A call sent sooner fails the same way.", formatWait(wait))
		switch {
		case strings.HasSuffix(email, "@flaky.example"):
			summary = "Customer database connection failed (reset)"
			desc = "The connection to the customer database was reset by a failing replica. The query never ran and the request itself is valid: send the same call again, after a short backoff, and it will most likely reach a healthy replica."
		case strings.HasSuffix(email, "@down.example"):
			desc = fmt.Sprintf("The customer database is not answering. The request is valid; it may work again after a wait (retry_after_ms suggests %s, but nobody knows how long the outage lasts). If retries keep failing, stop and escalate with this query.", formatWait(wait))
		}
		return nil, failure(examsim.Transient, summary, desc, attempted).retryAfter(wait)
	}
	cu, ok := findCustomer(email)
	if !ok {
		return okResult(fmt.Sprintf("The customer query ran successfully and found no customer with the email '%s'.", raw), list([]customer{})), nil
	}
	return okResult(fmt.Sprintf("Found 1 customer: %s (%s).", cu.Name, cu.ID), list([]customer{cu})), nil
}

func lookupOrder(c call) (*mcp.CallToolResult, *toolError) {
	id := c.args.str("order_id")
	if terr := checkOrderID("lookup_order", id); terr != nil {
		return nil, terr
	}
	o, ok := findOrder(id)
	if !ok {
		return okResult(fmt.Sprintf("The order query ran successfully and found no order %s.", id), list([]order{})), nil
	}
	return okResult(fmt.Sprintf("Found order %s: %s, £%.2f.", o.ID, o.Status, o.TotalGBP), list([]order{o})), nil
}

func checkOrderID(tool, id string) *toolError {
	if orderPattern.MatchString(id) {
		return nil
	}
	return failure(examsim.Validation, "Invalid order ID format",
		fmt.Sprintf("Order IDs use the format #NNNNN (a # and five digits), for example #12345. Received: '%s'. Reformat the ID and call again.", id),
		fmt.Sprintf("%s(order_id='%s')", tool, id))
}

func issueRefund(c call) (*mcp.CallToolResult, *toolError) {
	id := c.args.str("order_id")
	amount, _ := c.args.num("amount_gbp")
	attempted := fmt.Sprintf("refund £%.2f on order %s", amount, id)
	if terr := checkOrderID("issue_refund", id); terr != nil {
		terr.Envelope.AttemptedQuery = attempted
		return nil, terr
	}
	o, ok := findOrder(id)
	if !ok {
		return nil, failure(examsim.Validation, "Unknown order",
			fmt.Sprintf("There is no order %s, so nothing can be refunded. Check the order ID (known orders: #12345, #48213, #30517) and call again.", id), attempted)
	}
	if amount <= 0 {
		return nil, failure(examsim.Validation, "Refund amount must be positive",
			fmt.Sprintf("amount_gbp must be more than 0; received %s. Send the amount to refund in pounds, for example 120.50.", formatGBP(amount)), attempted)
	}
	escalate := []string{
		"Escalate to a human agent for manager approval, with the order ID, the amounts and the reason",
		"Do not lower or split the amount without the customer's agreement and a manager's approval",
	}
	terr := c.session.refundOrder(id, amount, func(r refundCheck) (*toolError, bool) {
		total := r.refunded + amount
		switch {
		case total > o.TotalGBP+0.005:
			e := failure(examsim.Business, "Refund exceeds the order total",
				fmt.Sprintf("Order %s came to £%s and £%s of it is already refunded, so at most £%s can still be refunded; £%s was asked for. Nothing was refunded. Tell the customer the most that can be refunded, or escalate to a human with these details if more is owed.",
					id, formatGBP(o.TotalGBP), formatGBP(r.refunded), formatGBP(o.TotalGBP-r.refunded), formatGBP(amount)), attempted)
			e.Envelope.Alternatives = escalate
			return e, false
		case total > RefundLimitGBP && (r.refunded > 0 || (r.refused > 0 && amount < r.refused)):
			e := failure(examsim.Business, "Refund exceeds policy limit: refunds on one order count together",
				fmt.Sprintf("This refund of £%s would bring the refunds on order %s to £%s, above the £%d limit for automatic refunds. Splitting one refund into smaller ones does not get round the limit: refunds on an order count together. Nothing more was refunded. Escalate to a human for manager approval with these details: order %s, £%s refunded so far, £%s asked for now.",
					formatGBP(amount), id, formatGBP(total), RefundLimitGBP, id, formatGBP(r.refunded), formatGBP(amount)), attempted)
			e.Envelope.Alternatives = escalate
			return e, true
		case total > RefundLimitGBP:
			e := failure(examsim.Business, "Refund exceeds policy limit",
				fmt.Sprintf("A refund of £%s is above the £%d limit for automatic refunds, so it needs a manager's approval. Nothing was refunded. Escalate to a human for manager approval with these details: order %s, £%s asked for; you can tell the customer that a manager has to approve it.",
					formatGBP(amount), RefundLimitGBP, id, formatGBP(amount)), attempted)
			e.Envelope.Alternatives = escalate
			return e, true
		}
		return nil, false
	})
	if terr != nil {
		return nil, terr
	}
	refund := map[string]any{
		"refund_id":  fmt.Sprintf("RF-%s-%d", strings.TrimPrefix(id, "#"), int(amount*100+0.5)),
		"order_id":   id,
		"amount_gbp": amount,
		"status":     "refunded",
	}
	return okResult(fmt.Sprintf("Refunded £%s on order %s (simulated).", formatGBP(amount), id), refund), nil
}

// formatWait says a wait the way the descriptions do: 4 s, 2.5 s, 800 ms.
func formatWait(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", d.Seconds()), "0"), ".") + " s"
}

func formatGBP(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%.2f", f)
}

func financialRecordsFor(c call) (*mcp.CallToolResult, *toolError) {
	id := c.args.str("customer_id")
	attempted := fmt.Sprintf("financial records of customer %s as principal %s", id, c.principal)
	if !customerIDForm.MatchString(id) {
		return nil, failure(examsim.Validation, "Invalid customer ID format",
			fmt.Sprintf("Customer IDs use the format C-NNNN, for example C-1042. Received: '%s'. Reformat the ID and call again.", id), attempted)
	}
	if c.principal != FinancePrincipal {
		e := failure(examsim.Permission, "Access denied",
			fmt.Sprintf("The principal '%s' used for this call is not allowed to read financial records. Escalate to a senior agent with finance access, or call again as the principal '%s' (set _meta %s).", c.principal, FinancePrincipal, MetaPrincipal),
			attempted)
		e.Envelope.Alternatives = []string{
			"Call again as the principal " + FinancePrincipal,
			"Escalate to a senior agent with access to the finance system",
		}
		return nil, e
	}
	recs, ok := financialRecords[id]
	if !ok || len(recs) == 0 {
		return okResult(fmt.Sprintf("The finance query ran successfully and found no invoices for %s.", id), list([]invoice{})), nil
	}
	return okResult(fmt.Sprintf("Found %d invoices for %s.", len(recs), id), list(recs)), nil
}

func searchSources(c call) (*mcp.CallToolResult, *toolError) {
	query := c.args.str("query")
	max, _ := c.args.num("max_sources")
	off, _ := c.args.num("offset")
	n, offset := int(max), int(off)
	if strings.TrimSpace(query) == "" {
		return nil, failure(examsim.Validation, "Empty search query",
			"The query is empty. Say what to search for, for example \"EU battery regulation\", and call again.", query)
	}
	if n < 1 || n > MaxSources {
		return nil, failure(examsim.Validation, "max_sources out of range",
			fmt.Sprintf("max_sources must be from 1 to %d; received %s. Ask for %d or fewer sources and call again.", MaxSources, formatGBP(max), MaxSources), query)
	}
	if offset < 0 || offset+n > MaxSources {
		return nil, failure(examsim.Validation, "offset out of range",
			fmt.Sprintf("offset plus max_sources must stay within the %d sources; received offset %s with max_sources %d. For the sources after the sixth, send offset 6 and max_sources 4.", MaxSources, formatGBP(off), n), query)
	}
	feed := "news"
	if containsWord(query, "live") {
		feed = "live"
	}
	got, wait := c.session.fetchSources(feed, n)
	found := make([]source, 0, got)
	for i := offset; i < offset+got; i++ {
		found = append(found, source{Source: i + 1, Title: sourceTitles[i], URL: fmt.Sprintf("https://news.example/articles/%d", i+1)})
	}
	if got == n {
		return okResult(fmt.Sprintf("Found %d sources for '%s' (sources %d to %d).", n, query, offset+1, offset+n), list(found)), nil
	}
	partial := make([]any, len(found))
	for i, s := range found {
		partial[i] = s
	}
	missing := n - got
	from := offset + got + 1
	desc := fmt.Sprintf("The news API returned HTTP 429 (rate limited) after %d of the %d requested sources were collected; they are in partial_results. The request is valid: wait %s (retry_after_ms), then fetch only the missing %d with offset %d and max_sources %d. Resending the whole search spends the quota on sources you already have.",
		got, n, formatWait(wait), missing, from-1, missing)
	if got == 0 {
		desc = fmt.Sprintf("The news API returned HTTP 429 (rate limited) before any of the %d requested sources were collected. The request is valid: wait %s (retry_after_ms), then send the same call again.", n, formatWait(wait))
	}
	e := failure(examsim.Transient, fmt.Sprintf("News API rate-limited the search after %d of %d sources", got, n), desc, query).retryAfter(wait)
	e.Envelope.PartialResults = partial
	e.Envelope.Alternatives = []string{
		fmt.Sprintf("After retry_after_ms, call search_sources again with the same query, offset %d and max_sources %d", from-1, missing),
		fmt.Sprintf("Continue with the %d sources found and mark sources %d to %d as missing in the report", offset+got, from, offset+n),
	}
	if got == 0 {
		e.Envelope.PartialResults, e.Envelope.Alternatives = nil, e.Envelope.Alternatives[:1]
	}
	return nil, e
}

// containsWord reports whether word appears in s as a whole word, any case.
func containsWord(s, word string) bool {
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if f == word {
			return true
		}
	}
	return false
}

// resultJSON is the wire form of a result, as a client would receive it.
func resultJSON(r *mcp.CallToolResult) json.RawMessage {
	b, _ := json.Marshal(r)
	return b
}
