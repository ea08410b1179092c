package store

import (
	"database/sql"
	"encoding/json"

	"github.com/examsim/examsim"
)

// wholeVerdictColumns are the verdict's columns added by migration 012, in
// the order wholeVerdict reads and writes them; prefix is the table alias.
func wholeVerdictColumns(prefix string) string {
	return prefix + "pending, " + prefix + "confidence, " + prefix + "evidence"
}

// wholeVerdict scans and writes a verdict's pending flag, confidence and
// evidence, the same way for attempts, exam items and class answers.
type wholeVerdict struct {
	pending    bool
	confidence sql.NullFloat64
	evidence   sql.NullString
}

func (w *wholeVerdict) dest() []any { return []any{&w.pending, &w.confidence, &w.evidence} }

// into sets them on v. A verdict without a stored confidence (stored before
// migration 012) has no evidence: its confidence is unknown, never unsure.
func (w *wholeVerdict) into(v *examsim.Verdict) {
	v.Pending = w.pending
	if !w.confidence.Valid {
		return
	}
	v.Evidence = &examsim.Evidence{Confidence: w.confidence.Float64}
	if w.evidence.Valid {
		_ = json.Unmarshal([]byte(w.evidence.String), v.Evidence) // written by this package: a damaged one reads as no evidence
		v.Evidence.Confidence = w.confidence.Float64
	}
}

// wholeVerdictArgs returns v's pending flag, confidence and evidence as
// column values.
func wholeVerdictArgs(v *examsim.Verdict) []any {
	if v.Evidence == nil {
		return []any{v.Pending, nil, nil}
	}
	ev, _ := json.Marshal(v.Evidence)
	return []any{v.Pending, v.Evidence.Confidence, string(ev)}
}
