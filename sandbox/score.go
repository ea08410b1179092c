package sandbox

import (
	"bytes"
	"encoding/json"
)

// Score is a run at a glance, so the two agents compare side by side: how
// many calls it made, how many retries came back failing again, how long
// until the answer (simulated), and how many of the results it came across
// reached the outcome.
type Score struct {
	Calls         int   `json:"calls"`
	WastedRetries int   `json:"wastedRetries"`
	Answered      bool  `json:"answered"`
	AnswerMs      int64 `json:"answerMs"`
	Found         int   `json:"found"` // distinct results and partial results seen
	Kept          int   `json:"kept"`  // of those, the ones in the outcome
}

// score sums up the events before an outcome, and the outcome itself.
func score(events []Event, outcome Event) *Score {
	s := &Score{Answered: outcome.Outcome == OutcomeAnswer && !outcome.Wrong}
	if s.Answered {
		s.AnswerMs = outcome.AtMs
	}
	retrying := map[Actor]bool{}
	seen := map[string]bool{}
	var items []string
	for _, e := range events {
		switch e.Kind {
		case KindDecision:
			retrying[e.Actor] = e.Move == MoveRetry || e.Move == MoveRetryMissing
		case KindResult:
			s.Calls++
			if retrying[e.Actor] && e.IsError {
				s.WastedRetries++
			}
			retrying[e.Actor] = false
			for _, it := range resultItems(e.Result) {
				if !seen[it] {
					seen[it] = true
					items = append(items, it)
				}
			}
		}
	}
	var out bytes.Buffer
	_ = json.Compact(&out, outcome.JSON)
	for _, it := range items {
		s.Found++
		if bytes.Contains(out.Bytes(), []byte(it)) {
			s.Kept++
		}
	}
	return s
}

// resultItems are the results and partial results in a CallToolResult, each
// as compact JSON with sorted keys (as every outcome packet is written).
func resultItems(result json.RawMessage) []string {
	var r struct {
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if json.Unmarshal(result, &r) != nil || r.StructuredContent == nil {
		return nil
	}
	var out []string
	for _, k := range []string{"results", "partial_results"} {
		list, _ := r.StructuredContent[k].([]any)
		for _, it := range list {
			b, err := json.Marshal(it)
			if err == nil {
				out = append(out, string(b))
			}
		}
	}
	return out
}
