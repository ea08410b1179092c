// Package sandbox owns the live MCP sandbox: a real MCP server (the official
// Go SDK) whose six tools fail in each of the four error categories or
// return a valid empty result, the simulated agents that call that same
// server in-process and decide what to do with each result, the scenarios
// they play, and the traces a learner watches: every JSON-RPC message, each
// decision with the rule behind it, the backoff waits on a simulated clock
// and the outcome. Everything lives in memory; the data is made up.
package sandbox
